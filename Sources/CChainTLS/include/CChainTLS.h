#ifndef CCHAINTLS_H
#define CCHAINTLS_H

#include <stddef.h>
#include <stdint.h>

// OpenSSL for ChainTesting's MockServer: a certificate made at start and a TLS front that
// terminates TLS in the process and relays the plaintext to a plain HTTP server on loopback.
// Every function reports failure with a message in `error` (`error_length` bytes including the
// NUL; `error` may be NULL) and never writes to stdout or stderr.

/// Makes a fresh self-signed identity for 127.0.0.1 and localhost: writes the certificate and
/// its private key as PEM files. Returns 0, or -1 with a message in `error`.
///
/// The key is a new EC P-256 key (PKCS#8, unencrypted); its file is created (or truncated)
/// with mode 0600. The certificate is X.509 v3, subject and issuer CN=127.0.0.1, valid from an
/// hour ago for three days, with subjectAltName IP:127.0.0.1 and DNS:localhost, basicConstraints
/// CA:FALSE (critical), keyUsage digitalSignature (critical), extendedKeyUsage serverAuth and
/// key identifiers. Given to a client as its CA file (libcurl's CURLOPT_CAINFO), the certificate
/// is its own trust anchor: OpenSSL accepts it for `https://127.0.0.1` and `https://localhost`.
int chain_tls_make_identity(const char *certificate_path, const char *key_path, char *error, size_t error_length);

/// A TLS front: accepts TLS on 127.0.0.1 (a free port) and relays each connection's plaintext
/// to a plain TCP server on 127.0.0.1:`upstream_port`, one upstream connection per client one,
/// opened once the client's handshake succeeded. ALPN selects http/1.1 when offered (never h2).
///
/// What one side does reaches the other: an end of input (close_notify or FIN from the client,
/// FIN from the upstream) becomes a FIN to the upstream, or close_notify and FIN to the client;
/// an upstream that resets or vanishes resets the client (a close with a zero linger time), and
/// a client that resets, vanishes or breaks TLS resets the upstream. A client that does not
/// complete its handshake (not TLS, a bad one, or too slow) is closed; the front goes on serving.
/// The front never raises SIGPIPE and leaves signal dispositions alone.
///
/// Threads: one accept thread, plus one thread per connection (joined once it ends). A front
/// may be used from any thread; `chain_tls_front_stop` must be called exactly once.
typedef struct chain_tls_front chain_tls_front;

/// Starts a front with the identity's files and a 10 s handshake timeout. Returns NULL with a
/// message in `error` on failure; `*port` is the port it listens on.
chain_tls_front *chain_tls_front_start(const char *certificate_path, const char *key_path, uint16_t upstream_port,
                                       uint16_t *port, char *error, size_t error_length);

/// `chain_tls_front_start` with the time a client has, from its connection being accepted, to
/// complete its TLS handshake (`handshake_timeout_ms`, positive) before it is closed.
chain_tls_front *chain_tls_front_start_with_timeout(const char *certificate_path, const char *key_path,
                                                    uint16_t upstream_port, int handshake_timeout_ms, uint16_t *port,
                                                    char *error, size_t error_length);

/// Stops accepting, closes the listener and every relayed connection (a plain close on both of
/// its sides), waits for the front's threads, frees it. Returns promptly: no thread waits for
/// a peer once stop was called. `front` may be NULL (nothing happens); it is invalid afterwards.
void chain_tls_front_stop(chain_tls_front *front);

#endif
