#ifndef CCHAINTLS_INTERNAL_H
#define CCHAINTLS_INTERNAL_H

// Shared by the front's files; not part of the module's interface (it is outside include/).

#include "CChainTLS.h"

#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <pthread.h>

/// Plaintext held per direction: one TLS record's worth, the most one SSL_read returns.
#define CHAIN_TLS_RELAY_BUFFER 16384

/// One relayed connection. Its thread owns every field except the two marked as guarded.
typedef struct chain_tls_relay {
    struct chain_tls_relay *next;   // guarded by the front's lock
    int finished;                   // guarded by the front's lock: the thread is about to return
    chain_tls_front *front;
    pthread_t thread;               // written before the relay is listed, read by its joiner only
    int client_fd;
} chain_tls_relay;

struct chain_tls_front {
    SSL_CTX *context;
    int listen_fd;
    // Written once by stop and never drained, so every thread that polls its read end (the
    // accept loop and each relay) sees it readable from then on.
    int stop_pipe[2];
    // A relay that ends writes a byte so the accept loop joins it without waiting for stop.
    int reap_pipe[2];
    uint16_t upstream_port;
    int handshake_timeout_ms;
    pthread_t accept_thread;
    pthread_mutex_t lock;
    chain_tls_relay *relays;        // guarded by lock: every relay thread not joined yet
};

/// The relay thread's body (relay.c): handshake, upstream connection, both directions.
void *chain_tls_relay_main(void *argument);

/// The BIO method relays give OpenSSL for the client socket: send with MSG_NOSIGNAL, so a
/// vanished client never raises SIGPIPE. Made once per process; NULL if OpenSSL could not.
BIO_METHOD *chain_tls_client_bio_method(void);

/// Milliseconds on the monotonic clock.
int64_t chain_tls_now_ms(void);

/// "`what`: <the first OpenSSL error queued on this thread>" into `error` (or "`what`" alone
/// when the queue is empty); the queue is cleared.
void chain_tls_report_openssl(char *error, size_t length, const char *what);

/// "`what`: <strerror(code)>" into `error`.
void chain_tls_report_errno(char *error, size_t length, const char *what, int code);

#endif
