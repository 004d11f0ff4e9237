#define _GNU_SOURCE
#include "internal.h"

#include <openssl/err.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int64_t chain_tls_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void chain_tls_report_openssl(char *error, size_t length, const char *what) {
    unsigned long code = ERR_get_error();
    if (error != NULL && length > 0) {
        if (code != 0) {
            char reason[256];
            ERR_error_string_n(code, reason, sizeof reason);
            snprintf(error, length, "%s: %s", what, reason);
        } else {
            snprintf(error, length, "%s", what);
        }
    }
    ERR_clear_error();
}

void chain_tls_report_errno(char *error, size_t length, const char *what, int code) {
    if (error == NULL || length == 0) return;
    char buffer[256];
    // The GNU strerror_r (with _GNU_SOURCE): returns the text, perhaps not in `buffer`.
    const char *reason = strerror_r(code, buffer, sizeof buffer);
    snprintf(error, length, "%s: %s", what, reason);
}
