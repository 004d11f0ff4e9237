#ifndef CCHAINTLS_H
#define CCHAINTLS_H

#include <stddef.h>
#include <stdint.h>

/// Makes a fresh self-signed identity for 127.0.0.1 and localhost: writes the certificate and
/// its private key as PEM files. Returns 0, or -1 with a message in `error`.
int chain_tls_make_identity(const char *certificate_path, const char *key_path, char *error, size_t error_length);

/// A TLS front: accepts TLS on 127.0.0.1 (a free port) and relays each connection's plaintext
/// to a plain TCP server on 127.0.0.1:`upstream_port`, one upstream connection per client one.
typedef struct chain_tls_front chain_tls_front;

/// Starts a front with the identity's files. Returns NULL with a message in `error` on failure;
/// `*port` is the port it listens on.
chain_tls_front *chain_tls_front_start(const char *certificate_path, const char *key_path, uint16_t upstream_port,
                                       uint16_t *port, char *error, size_t error_length);

/// Stops accepting, closes every relayed connection, waits for the front's threads, frees it.
void chain_tls_front_stop(chain_tls_front *front);

#endif
