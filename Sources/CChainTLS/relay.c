#define _GNU_SOURCE
#include "internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// How long the upstream's connect may take (on loopback it is at once, unless its backlog
// is full); the client's handshake has the front's own timeout.
#define UPSTREAM_CONNECT_TIMEOUT_MS 10000

// MARK: The client socket's BIO

/// The client socket as OpenSSL's BIO sees it. OpenSSL's own socket BIO writes with write(2),
/// which raises SIGPIPE once the peer has gone; this one sends with MSG_NOSIGNAL instead, so
/// the process's signal disposition is never relied on nor changed.
typedef struct {
    int fd;
    int eof;     // recv returned 0: BIO_eof tells OpenSSL it was the end, not an error
    int error;   // errno of the last failure other than EAGAIN and EINTR, 0 if none
} client_socket;

static int client_write(BIO *bio, const char *data, int length) {
    client_socket *socket_state = BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    for (;;) {
        ssize_t count = send(socket_state->fd, data, (size_t)length, MSG_NOSIGNAL);
        if (count >= 0) return (int)count;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            BIO_set_retry_write(bio);
        } else {
            socket_state->error = errno;
        }
        return -1;
    }
}

static int client_read(BIO *bio, char *data, int length) {
    client_socket *socket_state = BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    for (;;) {
        ssize_t count = recv(socket_state->fd, data, (size_t)length, 0);
        if (count > 0) return (int)count;
        if (count == 0) {
            socket_state->eof = 1;
            return 0;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            BIO_set_retry_read(bio);
        } else {
            socket_state->error = errno;
        }
        return -1;
    }
}

static long client_control(BIO *bio, int command, long number, void *pointer) {
    (void)number;
    (void)pointer;
    client_socket *socket_state = BIO_get_data(bio);
    switch (command) {
    case BIO_CTRL_FLUSH:
        // send(2) hands everything to the kernel; nothing is held back here.
        return 1;
    case BIO_CTRL_EOF:
        return socket_state != NULL && socket_state->eof;
    default:
        // Everything else (kTLS, datagram and duplication questions) is "not supported".
        return 0;
    }
}

static int client_create(BIO *bio) {
    BIO_set_init(bio, 0);
    return 1;
}

static int client_destroy(BIO *bio) {
    // The socket belongs to the relay, which closes it after SSL_free.
    BIO_set_data(bio, NULL);
    BIO_set_init(bio, 0);
    return 1;
}

static BIO_METHOD *client_method;
static pthread_once_t client_method_once = PTHREAD_ONCE_INIT;

static void make_client_method(void) {
    // Once per process: OpenSSL hands out at most 127 BIO type indices.
    int index = BIO_get_new_index();
    if (index == -1) return;
    BIO_METHOD *method = BIO_meth_new(index | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "chain relay client socket");
    if (method == NULL) return;
    if (!BIO_meth_set_write(method, client_write) || !BIO_meth_set_read(method, client_read)
        || !BIO_meth_set_ctrl(method, client_control) || !BIO_meth_set_create(method, client_create)
        || !BIO_meth_set_destroy(method, client_destroy)) {
        BIO_meth_free(method);
        return;
    }
    client_method = method;
}

BIO_METHOD *chain_tls_client_bio_method(void) {
    pthread_once(&client_method_once, make_client_method);
    return client_method;
}

// MARK: Waiting

/// Waits until the client or the upstream is ready for what is asked (no events: that side
/// is not watched), the front stops or `deadline` (chain_tls_now_ms, 0 for none) passes.
/// Returns 1 when a socket is ready, 0 on stop or at the deadline.
static int wait_for(chain_tls_front *front, int client_fd, short client_events, int upstream_fd,
                    short upstream_events, int64_t deadline) {
    for (;;) {
        struct pollfd fds[3] = {
            {.fd = front->stop_pipe[0], .events = POLLIN},
            // poll reports POLLHUP and POLLERR even when nothing is asked; a side with nothing
            // to wait for is left out so a finished peer cannot make this spin.
            {.fd = client_events != 0 ? client_fd : -1, .events = client_events},
            {.fd = upstream_events != 0 ? upstream_fd : -1, .events = upstream_events},
        };
        int timeout = -1;
        if (deadline != 0) {
            int64_t left = deadline - chain_tls_now_ms();
            if (left <= 0) return 0;
            timeout = left > 60000 ? 60000 : (int)left;
        }
        int ready = poll(fds, 3, timeout);
        if (ready < 0 && errno != EINTR) return 0;
        if (fds[0].revents != 0) return 0;
        if (ready > 0) return 1;
    }
}

// MARK: The relay

/// Where a relayed connection stands after a step; once it is not OPEN, how it ended, which
/// decides how its sockets are closed.
typedef enum {
    /// The step succeeded (the handshake, the upstream's connect): the relay goes on.
    OPEN,
    /// Both sides ended their input and everything was passed on: plain closes.
    ENDED,
    /// The front stops: plain closes.
    STOPPED,
    /// The client failed the handshake, sent something that is not TLS, reset or vanished,
    /// or was too slow: the upstream (if any) is reset, the client closed.
    CLIENT_LOST,
    /// The upstream reset, vanished or could not be reached: the client is reset.
    UPSTREAM_LOST,
} outcome;

typedef struct {
    SSL *ssl;
    client_socket client;
    int upstream_fd;
    // Plaintext from the client for the upstream, and from the upstream for the client:
    // bytes [start, end) are still to go.
    unsigned char to_upstream[CHAIN_TLS_RELAY_BUFFER];
    size_t to_upstream_start, to_upstream_end;
    unsigned char to_client[CHAIN_TLS_RELAY_BUFFER];
    size_t to_client_start, to_client_end;
    int client_input_ended;     // close_notify or FIN from the client
    int upstream_output_ended;  // FIN passed on to the upstream
    int upstream_input_ended;   // FIN from the upstream
    int client_output_ended;    // close_notify and FIN passed on to the client
} connection;

/// SSL_accept until it completes, fails, the front stops, or the handshake timeout passes.
static outcome handshake(chain_tls_front *front, connection *link) {
    int64_t deadline = chain_tls_now_ms() + front->handshake_timeout_ms;
    for (;;) {
        ERR_clear_error();
        int result = SSL_accept(link->ssl);
        if (result == 1) return OPEN;
        short events;
        switch (SSL_get_error(link->ssl, result)) {
        case SSL_ERROR_WANT_READ: events = POLLIN; break;
        case SSL_ERROR_WANT_WRITE: events = POLLOUT; break;
        default: return CLIENT_LOST;
        }
        if (!wait_for(front, link->client.fd, events, -1, 0, deadline)) {
            return chain_tls_now_ms() >= deadline ? CLIENT_LOST : STOPPED;
        }
    }
}

static outcome connect_upstream(chain_tls_front *front, connection *link) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return UPSTREAM_LOST;
    link->upstream_fd = fd;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(front->upstream_port);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) return OPEN;
    if (errno != EINPROGRESS && errno != EINTR) return UPSTREAM_LOST;
    int64_t deadline = chain_tls_now_ms() + UPSTREAM_CONNECT_TIMEOUT_MS;
    if (!wait_for(front, -1, 0, fd, POLLOUT, deadline)) {
        return chain_tls_now_ms() >= deadline ? UPSTREAM_LOST : STOPPED;
    }
    int failure = 0;
    socklen_t length = sizeof failure;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 || failure != 0) return UPSTREAM_LOST;
    return OPEN;
}

static int would_block(void) {
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

/// Moves bytes both ways until both directions have ended, one side fails, or the front
/// stops. Every step is non-blocking; when none of them moved anything, it waits for what
/// the blocked ones asked for.
static outcome pump(chain_tls_front *front, connection *link) {
    for (;;) {
        int moved = 0;
        short client_events = 0;
        short upstream_events = 0;

        // The client's plaintext, read once the previous piece has gone on.
        if (!link->client_input_ended && link->to_upstream_start == link->to_upstream_end) {
            ERR_clear_error();
            int count = SSL_read(link->ssl, link->to_upstream, sizeof link->to_upstream);
            if (count > 0) {
                link->to_upstream_start = 0;
                link->to_upstream_end = (size_t)count;
                moved = 1;
            } else {
                switch (SSL_get_error(link->ssl, count)) {
                case SSL_ERROR_WANT_READ: client_events |= POLLIN; break;
                case SSL_ERROR_WANT_WRITE: client_events |= POLLOUT; break;
                case SSL_ERROR_ZERO_RETURN:
                    link->client_input_ended = 1;
                    moved = 1;
                    break;
                default: return CLIENT_LOST;
                }
            }
        }
        if (link->to_upstream_start < link->to_upstream_end) {
            ssize_t count = send(link->upstream_fd, link->to_upstream + link->to_upstream_start,
                                 link->to_upstream_end - link->to_upstream_start, MSG_NOSIGNAL);
            if (count > 0) {
                link->to_upstream_start += (size_t)count;
                moved = 1;
            } else if (count < 0 && would_block()) {
                upstream_events |= POLLOUT;
            } else {
                return UPSTREAM_LOST;
            }
        }
        if (link->client_input_ended && link->to_upstream_start == link->to_upstream_end && !link->upstream_output_ended) {
            // An upstream already gone shows when it is read, below.
            shutdown(link->upstream_fd, SHUT_WR);
            link->upstream_output_ended = 1;
            moved = 1;
        }

        // The upstream's bytes, read once the previous piece has gone on.
        if (!link->upstream_input_ended && link->to_client_start == link->to_client_end) {
            ssize_t count = recv(link->upstream_fd, link->to_client, sizeof link->to_client, 0);
            if (count > 0) {
                link->to_client_start = 0;
                link->to_client_end = (size_t)count;
                moved = 1;
            } else if (count == 0) {
                link->upstream_input_ended = 1;
                moved = 1;
            } else if (would_block()) {
                upstream_events |= POLLIN;
            } else {
                return UPSTREAM_LOST;
            }
        }
        if (link->to_client_start < link->to_client_end) {
            ERR_clear_error();
            // The same bytes again after a WANT_*: the start moves only on success.
            int count = SSL_write(link->ssl, link->to_client + link->to_client_start,
                                  (int)(link->to_client_end - link->to_client_start));
            if (count > 0) {
                link->to_client_start += (size_t)count;
                moved = 1;
            } else {
                switch (SSL_get_error(link->ssl, count)) {
                case SSL_ERROR_WANT_READ: client_events |= POLLIN; break;
                case SSL_ERROR_WANT_WRITE: client_events |= POLLOUT; break;
                default: return CLIENT_LOST;
                }
            }
        }
        if (link->upstream_input_ended && link->to_client_start == link->to_client_end && !link->client_output_ended) {
            ERR_clear_error();
            int result = SSL_shutdown(link->ssl);
            if (result >= 0) {
                // close_notify is out (0: the client's is still to come, 1: it came already).
                shutdown(link->client.fd, SHUT_WR);
                link->client_output_ended = 1;
                moved = 1;
            } else {
                switch (SSL_get_error(link->ssl, result)) {
                case SSL_ERROR_WANT_READ: client_events |= POLLIN; break;
                case SSL_ERROR_WANT_WRITE: client_events |= POLLOUT; break;
                default: return CLIENT_LOST;
                }
            }
        }

        if (link->client_input_ended && link->upstream_output_ended && link->upstream_input_ended
            && link->client_output_ended) {
            return ENDED;
        }
        if (moved) continue;
        if (!wait_for(front, link->client.fd, client_events, link->upstream_fd, upstream_events, 0)) return STOPPED;
    }
}

/// Closes with a zero linger time, so the peer gets RST rather than FIN.
static void reset_and_close(int fd) {
    struct linger linger = {.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
    close(fd);
}

static void relay_connection(chain_tls_front *front, connection *link) {
    outcome end = UPSTREAM_LOST;
    BIO *bio = BIO_new(chain_tls_client_bio_method());
    link->ssl = SSL_new(front->context);
    if (bio == NULL || link->ssl == NULL) {
        BIO_free(bio);
        end = CLIENT_LOST;
    } else {
        BIO_set_data(bio, &link->client);
        BIO_set_init(bio, 1);
        // The SSL owns the BIO from here (both directions, one reference).
        SSL_set_bio(link->ssl, bio, bio);
        SSL_set_accept_state(link->ssl);
        end = handshake(front, link);
        if (end == OPEN) end = connect_upstream(front, link);
        if (end == OPEN) end = pump(front, link);
    }
    SSL_free(link->ssl);
    link->ssl = NULL;
    switch (end) {
    case OPEN:
    case ENDED:
    case STOPPED:
        close(link->client.fd);
        if (link->upstream_fd >= 0) close(link->upstream_fd);
        break;
    case CLIENT_LOST:
        close(link->client.fd);
        if (link->upstream_fd >= 0) reset_and_close(link->upstream_fd);
        break;
    case UPSTREAM_LOST:
        reset_and_close(link->client.fd);
        if (link->upstream_fd >= 0) close(link->upstream_fd);
        break;
    }
    ERR_clear_error();
}

void *chain_tls_relay_main(void *argument) {
    chain_tls_relay *relay = argument;
    chain_tls_front *front = relay->front;
    // On the heap with its two buffers rather than on the thread's stack.
    connection *link = calloc(1, sizeof *link);
    if (link == NULL) {
        close(relay->client_fd);
    } else {
        link->client.fd = relay->client_fd;
        link->upstream_fd = -1;
        relay_connection(front, link);
        free(link);
    }
    pthread_mutex_lock(&front->lock);
    relay->finished = 1;
    pthread_mutex_unlock(&front->lock);
    // A full pipe already holds a wake-up for the accept loop, which reaps every ended relay.
    while (write(front->reap_pipe[1], "r", 1) < 0 && errno == EINTR) {}
    return NULL;
}
