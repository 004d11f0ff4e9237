// The declaration in include/FuzzDriver.h is all this target provides; the definition is in
// libFuzzer, linked by -sanitize=fuzzer.
#include "FuzzDriver.h"
