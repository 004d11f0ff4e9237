// libpsl, the public-suffix list libcurl itself uses (libpsl-dev; the list is built in, and
// the `publicsuffix` package's newer copy is preferred when installed).
#include <libpsl.h>
