#include "CChainTLS.h"
