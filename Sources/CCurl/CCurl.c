#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/socket.h>

#include "CCurl.h"

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_mime(CURL *handle, CURLoption option, curl_mime *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, ccurl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode ccurl_easy_setopt_prereq_callback(CURL *handle, ccurl_prereq_callback value) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

CURLcode ccurl_easy_setopt_sockopt_callback(CURL *handle, ccurl_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

CURLSHcode ccurl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value) {
    return curl_share_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

int ccurl_multi_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

int ccurl_has_feature(int feature_bit) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & feature_bit) != 0;
}

const char *ccurl_version_string(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && info->version != NULL ? info->version : "unknown";
}

int ccurl_usable_processor_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
    return CPU_COUNT(&set);
}

// Entry: 0 when empty, else (socket + 1) << 16 | remote port. Linux gives one local port to
// connections to different destinations at once (measured: 187 of 1,500 ports shared between
// two listeners), so each local port has several ways, one per remote port: with one slot per
// local port, one connection's entry would evict another's, whose check would then be skipped.
#define CCURL_CONNECTION_WAYS 4
static _Atomic unsigned long long ccurl_connection_sockets[65536][CCURL_CONNECTION_WAYS];

static int ccurl_local_port(curl_socket_t socket) {
    struct sockaddr_storage address;
    socklen_t length = sizeof(address);
    if (getsockname(socket, (struct sockaddr *)&address, &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}

int ccurl_remember_connection_socket(curl_socket_t first, curl_socket_t second, int local_port, int remote_port) {
    if (local_port <= 0 || local_port > 65535 || remote_port < 0 || remote_port > 65535) return 0;
    curl_socket_t socket = first >= 0 && ccurl_local_port(first) == local_port ? first
        : second >= 0 && ccurl_local_port(second) == local_port ? second : CURL_SOCKET_BAD;
    unsigned long long entry = socket == CURL_SOCKET_BAD
        ? 0 : ((unsigned long long)socket + 1) << 16 | (unsigned long long)remote_port;
    _Atomic unsigned long long *ways = ccurl_connection_sockets[local_port];
    // The way that holds this remote port, else an empty one, else one chosen by the remote port.
    int chosen = -1;
    for (int way = 0; way < CCURL_CONNECTION_WAYS && chosen < 0; way++) {
        unsigned long long held = atomic_load(&ways[way]);
        if (held != 0 && (int)(held & 0xFFFF) == remote_port) chosen = way;
    }
    if (chosen < 0) {
        if (entry == 0) return 0;
        for (int way = 0; way < CCURL_CONNECTION_WAYS && chosen < 0; way++) {
            if (atomic_load(&ways[way]) == 0) chosen = way;
        }
    }
    if (chosen < 0) chosen = remote_port % CCURL_CONNECTION_WAYS;
    atomic_store(&ways[chosen], entry);
    return entry != 0;
}

curl_socket_t ccurl_connection_socket(int local_port, int remote_port) {
    if (local_port <= 0 || local_port > 65535) return -1;
    for (int way = 0; way < CCURL_CONNECTION_WAYS; way++) {
        unsigned long long entry = atomic_load(&ccurl_connection_sockets[local_port][way]);
        if (entry != 0 && (int)(entry & 0xFFFF) == remote_port) return (curl_socket_t)((entry >> 16) - 1);
    }
    return -1;
}

int ccurl_socket_has_unread_bytes(curl_socket_t socket) {
    if (socket < 0) return -1;
    char byte;
    ssize_t count;
    do {
        count = recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    } while (count < 0 && errno == EINTR);
    if (count > 0) return 1;
    if (count == 0 || errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    return -1;
}

// OpenSSL's ALPN query, looked up once in the libssl libcurl already loaded: linking libssl
// ourselves would tie this package to its headers and soname for one read-only call.
typedef void (*ccurl_alpn_selected_function)(const void *ssl, const unsigned char **data, unsigned int *length);
static ccurl_alpn_selected_function ccurl_alpn_selected = NULL;
static pthread_once_t ccurl_alpn_once = PTHREAD_ONCE_INIT;

static void ccurl_find_alpn_selected(void) {
    ccurl_alpn_selected = (ccurl_alpn_selected_function)dlsym(RTLD_DEFAULT, "SSL_get0_alpn_selected");
}

int ccurl_connection_alpn_is_h2(CURL *handle) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL) return -1;
    if (info->backend != CURLSSLBACKEND_OPENSSL || info->internals == NULL) return -1;
    pthread_once(&ccurl_alpn_once, ccurl_find_alpn_selected);
    if (ccurl_alpn_selected == NULL) return -1;
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    ccurl_alpn_selected(info->internals, &protocol, &length);
    return protocol != NULL && length == 2 && protocol[0] == 'h' && protocol[1] == '2' ? 1 : 0;
}

static CURLSTScode ccurl_hsts_read(CURL *easy, struct curl_hstsentry *entry, void *userp) {
    (void)easy;
    struct ccurl_hsts_hooks *hooks = userp;
    int include_subdomains = 0;
    if (!hooks || !hooks->feed) return CURLSTS_DONE;
    if (hooks->feed(hooks->userdata, entry->name, entry->namelen, &include_subdomains, entry->expire) != 1) {
        return CURLSTS_DONE;
    }
    entry->includeSubDomains = include_subdomains ? 1 : 0;
    return CURLSTS_OK;
}

static CURLSTScode ccurl_hsts_write(CURL *easy, struct curl_hstsentry *entry, struct curl_index *index, void *userp) {
    (void)easy;
    (void)index;
    struct ccurl_hsts_hooks *hooks = userp;
    if (hooks && hooks->collect) hooks->collect(hooks->userdata, entry->name, entry->includeSubDomains, entry->expire);
    return CURLSTS_OK;
}

CURLcode ccurl_easy_set_hsts_hooks(CURL *handle, struct ccurl_hsts_hooks *hooks, int reading, int writing) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HSTS_CTRL, (long)CURLHSTS_ENABLE);
    if (code == CURLE_OK && reading) code = curl_easy_setopt(handle, CURLOPT_HSTSREADFUNCTION, ccurl_hsts_read);
    if (code == CURLE_OK && reading) code = curl_easy_setopt(handle, CURLOPT_HSTSREADDATA, (void *)hooks);
    if (code == CURLE_OK && writing) code = curl_easy_setopt(handle, CURLOPT_HSTSWRITEFUNCTION, ccurl_hsts_write);
    if (code == CURLE_OK && writing) code = curl_easy_setopt(handle, CURLOPT_HSTSWRITEDATA, (void *)hooks);
    return code;
}
