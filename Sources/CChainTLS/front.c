#define _GNU_SOURCE
#include "internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_HANDSHAKE_TIMEOUT_MS 10000
// After EMFILE and the like the listener stays readable; this long between tries instead
// of spinning on it.
#define ACCEPT_BACKOFF_MS 100

/// Offers HTTP/1.1 alone: the upstream speaks nothing else, and a client that offered h2 must
/// not be told it may use it.
static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *in,
                       unsigned int in_length, void *argument) {
    (void)ssl;
    (void)argument;
    static const unsigned char offered[] = "\x08http/1.1";
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, out_length, offered, sizeof offered - 1, in, in_length)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static SSL_CTX *make_context(const char *certificate_path, const char *key_path, char *error, size_t error_length) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (context == NULL) {
        chain_tls_report_openssl(error, error_length, "making the TLS context");
        return NULL;
    }
    // A TCP FIN without close_notify is the client's end of input, passed on as a FIN, as a
    // plain relay would; renegotiation is refused, it has no use here.
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION);
    // The relay retries a write with the same bytes, and a partial write lets it keep both
    // directions moving rather than waiting for one whole buffer to go out.
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (!SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)) {
        chain_tls_report_openssl(error, error_length, "setting the lowest TLS version");
        SSL_CTX_free(context);
        return NULL;
    }
    if (SSL_CTX_use_certificate_chain_file(context, certificate_path) != 1) {
        char what[512];
        snprintf(what, sizeof what, "loading the certificate %s", certificate_path);
        chain_tls_report_openssl(error, error_length, what);
        SSL_CTX_free(context);
        return NULL;
    }
    if (SSL_CTX_use_PrivateKey_file(context, key_path, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(context) != 1) {
        char what[512];
        snprintf(what, sizeof what, "loading the private key %s", key_path);
        chain_tls_report_openssl(error, error_length, what);
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_alpn_select_cb(context, select_alpn, NULL);
    return context;
}

/// A non-blocking listener on 127.0.0.1 at a free port. Returns the descriptor or -1.
static int listen_on_loopback(uint16_t *port, char *error, size_t error_length) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        chain_tls_report_errno(error, error_length, "socket", errno);
        return -1;
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        chain_tls_report_errno(error, error_length, "binding 127.0.0.1", errno);
        close(fd);
        return -1;
    }
    if (listen(fd, 128) != 0) {
        chain_tls_report_errno(error, error_length, "listen", errno);
        close(fd);
        return -1;
    }
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        chain_tls_report_errno(error, error_length, "getsockname", errno);
        close(fd);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return fd;
}

static void drain(int fd) {
    char bytes[64];
    while (read(fd, bytes, sizeof bytes) > 0) {}
}

static void close_pair(int pair[2]) {
    if (pair[0] >= 0) close(pair[0]);
    if (pair[1] >= 0) close(pair[1]);
    pair[0] = pair[1] = -1;
}

/// Joins and frees the relays whose threads have ended (all of them when `everyone`, which
/// stop uses once nothing can start a relay any more).
static void reap(chain_tls_front *front, int everyone) {
    chain_tls_relay *ended = NULL;
    pthread_mutex_lock(&front->lock);
    chain_tls_relay **link = &front->relays;
    while (*link != NULL) {
        chain_tls_relay *relay = *link;
        if (everyone || relay->finished) {
            *link = relay->next;
            relay->next = ended;
            ended = relay;
        } else {
            link = &relay->next;
        }
    }
    pthread_mutex_unlock(&front->lock);
    // Joined outside the lock: a relay takes it on its way out.
    while (ended != NULL) {
        chain_tls_relay *next = ended->next;
        pthread_join(ended->thread, NULL);
        free(ended);
        ended = next;
    }
}

/// Starts a relay thread for an accepted connection; closes it when that is impossible.
static void start_relay(chain_tls_front *front, int client_fd) {
    int one = 1;
    // Requests and responses go out as they come: Nagle's delay would hold back small
    // records waiting for an ACK the peer delays.
    setsockopt(client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    chain_tls_relay *relay = calloc(1, sizeof *relay);
    if (relay == NULL) {
        close(client_fd);
        return;
    }
    relay->front = front;
    relay->client_fd = client_fd;
    if (pthread_create(&relay->thread, NULL, chain_tls_relay_main, relay) != 0) {
        close(client_fd);
        free(relay);
        return;
    }
    pthread_mutex_lock(&front->lock);
    relay->next = front->relays;
    front->relays = relay;
    pthread_mutex_unlock(&front->lock);
}

/// Accepts what the backlog holds. Returns 1 when the process or system is out of
/// descriptors or memory (the caller waits before trying again), else 0.
static int accept_pending(chain_tls_front *front) {
    for (int count = 0; count < 64; count++) {
        int fd = accept4(front->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            start_relay(front, fd);
            continue;
        }
        switch (errno) {
        case EINTR:
        case ECONNABORTED:
        case EPROTO:
            continue;
        case EMFILE:
        case ENFILE:
        case ENOBUFS:
        case ENOMEM:
            return 1;
        default:
            return 0;
        }
    }
    return 0;
}

static void *accept_loop(void *argument) {
    chain_tls_front *front = argument;
    int backing_off = 0;
    for (;;) {
        struct pollfd fds[3] = {
            {.fd = front->stop_pipe[0], .events = POLLIN},
            {.fd = backing_off ? -1 : front->listen_fd, .events = POLLIN},
            {.fd = front->reap_pipe[0], .events = POLLIN},
        };
        int ready = poll(fds, 3, backing_off ? ACCEPT_BACKOFF_MS : -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            // Out of kernel memory for the poll table: try again a little later.
            backing_off = 1;
            continue;
        }
        if (fds[0].revents != 0) break;
        if (fds[2].revents != 0) {
            drain(front->reap_pipe[0]);
            reap(front, 0);
        }
        backing_off = 0;
        if (ready == 0 || (fds[1].revents & (POLLIN | POLLERR | POLLHUP)) != 0) backing_off = accept_pending(front);
    }
    return NULL;
}

chain_tls_front *chain_tls_front_start(const char *certificate_path, const char *key_path, uint16_t upstream_port,
                                       uint16_t *port, char *error, size_t error_length) {
    return chain_tls_front_start_with_timeout(certificate_path, key_path, upstream_port, DEFAULT_HANDSHAKE_TIMEOUT_MS,
                                              port, error, error_length);
}

chain_tls_front *chain_tls_front_start_with_timeout(const char *certificate_path, const char *key_path,
                                                    uint16_t upstream_port, int handshake_timeout_ms, uint16_t *port,
                                                    char *error, size_t error_length) {
    if (certificate_path == NULL || key_path == NULL || port == NULL || upstream_port == 0 || handshake_timeout_ms <= 0) {
        if (error != NULL && error_length > 0) {
            snprintf(error, error_length, "a TLS front needs a certificate, a key, an upstream port and a positive handshake timeout");
        }
        return NULL;
    }
    ERR_clear_error();
    if (chain_tls_client_bio_method() == NULL) {
        chain_tls_report_openssl(error, error_length, "making the socket BIO method");
        return NULL;
    }
    chain_tls_front *front = calloc(1, sizeof *front);
    if (front == NULL) {
        chain_tls_report_errno(error, error_length, "allocating the TLS front", ENOMEM);
        return NULL;
    }
    front->listen_fd = -1;
    front->stop_pipe[0] = front->stop_pipe[1] = -1;
    front->reap_pipe[0] = front->reap_pipe[1] = -1;
    front->upstream_port = upstream_port;
    front->handshake_timeout_ms = handshake_timeout_ms;
    int lock_made = 0;

    front->context = make_context(certificate_path, key_path, error, error_length);
    if (front->context == NULL) goto failed;
    if (pipe2(front->stop_pipe, O_NONBLOCK | O_CLOEXEC) != 0 || pipe2(front->reap_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
        chain_tls_report_errno(error, error_length, "pipe2", errno);
        goto failed;
    }
    front->listen_fd = listen_on_loopback(port, error, error_length);
    if (front->listen_fd < 0) goto failed;
    if (pthread_mutex_init(&front->lock, NULL) != 0) {
        chain_tls_report_errno(error, error_length, "pthread_mutex_init", errno);
        goto failed;
    }
    lock_made = 1;
    int created = pthread_create(&front->accept_thread, NULL, accept_loop, front);
    if (created != 0) {
        chain_tls_report_errno(error, error_length, "starting the accept thread", created);
        goto failed;
    }
    return front;

failed:
    if (lock_made) pthread_mutex_destroy(&front->lock);
    if (front->listen_fd >= 0) close(front->listen_fd);
    close_pair(front->stop_pipe);
    close_pair(front->reap_pipe);
    SSL_CTX_free(front->context);
    free(front);
    return NULL;
}

void chain_tls_front_stop(chain_tls_front *front) {
    if (front == NULL) return;
    // The pipe is empty and non-blocking: one byte always fits.
    while (write(front->stop_pipe[1], "s", 1) < 0 && errno == EINTR) {}
    pthread_join(front->accept_thread, NULL);
    // The listener is closed only now: the accept thread polled it until it returned. No
    // relay can start any more; those alive see the stop pipe and close their connections.
    close(front->listen_fd);
    reap(front, 1);
    close_pair(front->stop_pipe);
    close_pair(front->reap_pipe);
    pthread_mutex_destroy(&front->lock);
    SSL_CTX_free(front->context);
    free(front);
}
