// Typed, non-variadic wrappers around libcurl's variadic entry points.
// Swift cannot call C varargs functions, so every option kind gets one wrapper
// whose argument type matches what libcurl reads for that option.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>
// The download engine keeps a resumable file's validator in an extended attribute.
#include <sys/xattr.h>

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);
typedef int (*ccurl_sockopt_callback)(void *userdata, curl_socket_t socket, curlsocktype purpose);
typedef int (*ccurl_prereq_callback)(void *userdata, char *conn_primary_ip, char *conn_local_ip,
                                     int conn_primary_port, int conn_local_port);

// libcurl's CURLAUTH_* bits are macros with casts, which Swift does not import.
static const unsigned long ccurl_auth_basic = CURLAUTH_BASIC;
static const unsigned long ccurl_auth_digest = CURLAUTH_DIGEST;
static const unsigned long ccurl_auth_ntlm = CURLAUTH_NTLM;
static const unsigned long ccurl_auth_negotiate = CURLAUTH_NEGOTIATE;
static const unsigned long ccurl_auth_any = CURLAUTH_ANY;

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_mime(CURL *handle, CURLoption option, curl_mime *value);
CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback value);
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback value);
CURLcode ccurl_easy_setopt_prereq_callback(CURL *handle, ccurl_prereq_callback value);
CURLcode ccurl_easy_setopt_sockopt_callback(CURL *handle, ccurl_sockopt_callback value);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLSHcode ccurl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value);
CURLcode ccurl_easy_setopt_share(CURL *handle, CURLSH *share);

/// An HSTS store's side of libcurl's HSTS callbacks (whose entry struct has a bit field Swift
/// cannot set). `feed` copies one entry into `name` (`capacity` bytes) and `expire`
/// ("YYYYMMDD HH:MM:SS" and a NUL) and returns 1, or returns 0 when it has no more; `collect`
/// receives each entry of the cache when a handle closes.
typedef int (*ccurl_hsts_feed)(void *userdata, char *name, size_t capacity, int *include_subdomains, char *expire);
typedef void (*ccurl_hsts_collect)(void *userdata, const char *name, int include_subdomains, const char *expire);
struct ccurl_hsts_hooks {
    ccurl_hsts_feed feed;
    ccurl_hsts_collect collect;
    void *userdata;
};
/// Turns HSTS on for `handle` and sets `hooks`' feed (`reading`) and/or collector (`writing`).
CURLcode ccurl_easy_set_hsts_hooks(CURL *handle, struct ccurl_hsts_hooks *hooks, int reading, int writing);

/// The easy handle and result of a CURLMSG_DONE message (the union is awkward from Swift).
int ccurl_multi_message_done(CURLMsg *message, CURL **handle, CURLcode *result);

/// The socket of each connection libcurl made, by its local and remote port. The pre-request
/// callback learns only a connection's addresses and ports: CURLINFO_ACTIVESOCKET names the
/// handle's previous connection until the transfer ends. Process-wide (a descriptor number is
/// unique in the process), with atomic entries, so every engine's loop thread may use it.
///
/// Remembers whichever of `first` and `second` (the sockets the transfer opened) has the local
/// port `local_port` for that connection; forgets the entry for these two ports when neither has
/// (a stale one must not name another connection's socket). Several connections may share a
/// local port (to different remote ports): each pair has its own entry. Returns whether one was
/// remembered.
int ccurl_remember_connection_socket(curl_socket_t first, curl_socket_t second, int local_port, int remote_port);
/// The socket remembered for the connection with these ports, or -1.
curl_socket_t ccurl_connection_socket(int local_port, int remote_port);

/// Whether `socket` has bytes waiting: 1 when a non-blocking MSG_PEEK finds at least one, 0 when
/// it finds none (or end-of-file, which libcurl handles itself), -1 when it cannot be read.
int ccurl_socket_has_unread_bytes(curl_socket_t socket);

/// Whether the transfer's connection negotiated HTTP/2 by ALPN: 1 for "h2", 0 for a TLS
/// connection that chose anything else (or nothing), -1 when that cannot be known (no TLS on
/// the connection, a TLS backend other than OpenSSL, or OpenSSL's ALPN query not found).
int ccurl_connection_alpn_is_h2(CURL *handle);

/// The running libcurl's version, e.g. "7.88.1" (CURLVERSION_NOW is a macro Swift cannot see).
const char *ccurl_version_string(void);

/// Whether this libcurl was built with the named feature bit (CURL_VERSION_*).
int ccurl_has_feature(int feature_bit);

/// How many processors this thread may run on (its affinity mask, as `taskset` sets it), or 0
/// when that cannot be read. CPU_COUNT is a macro Swift cannot see.
int ccurl_usable_processor_count(void);

#endif
