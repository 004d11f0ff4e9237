/*
 * The ceiling: raw libcurl in C, doing what any real client must and nothing more.
 *
 *   bench-curl --base-url http://127.0.0.1:PORT --scenario small-seq --count 20000
 *              [--concurrency 32] [--connections 32] [--ca-file PEM] [--download-dir DIR]
 *   bench-curl --list
 *
 * Scenarios (the same names as the Swift clients):
 *   small-seq        one easy handle reused, curl_easy_perform in a loop
 *   small-32         one multi handle, `concurrency` easy handles in flight, each re-added when done
 *                    with the next URL (`?i=<n>`: every request its own URL, as in the Swift clients)
 *   users-decode     the 100 KB GET, sequential; NOT decoded (the raw ceiling of the transfer)
 *   download-file    one GET to a file with write(2), CURLOPT_BUFFERSIZE 512 KiB
 *   download-memory  the same GET into a growable buffer
 *   h2-100           as small-32 over TLS (https base URL, CURLOPT_CAINFO the runner's CA) and HTTP/2:
 *                    CURL_HTTP_VERSION_2TLS, CURLPIPE_MULTIPLEX, CURLOPT_PIPEWAIT, at most
 *                    `connections` (1) connections, so every stream shares one connection
 *   h1-tls-100       as small-32 over TLS and HTTP/1.1 (CURL_HTTP_VERSION_1_1), at most
 *                    `connections` (32) connections: the rest of the `concurrency` wait in libcurl
 *   stream-chunks    one GET of the big file on the warm-up's handle (its connection), libcurl's
 *                    default receive buffer (16 KiB, as the library's streams use); the write
 *                    callback only counts the bytes: the ceiling of reading a body as it arrives
 *   stream-events    one GET of the server-sent events file, parsed in the write callback as
 *                    an event-stream client minimally must: lines split on LF (a CR before it
 *                    dropped), a line cut by a chunk boundary carried over, `field: value` split
 *                    at the first colon (one space after it dropped), `data` appended to the
 *                    event's data with a LF, `id` and `event` copied, `retry` parsed, comments
 *                    skipped, and an event counted at each blank line that ends a non-empty data
 *   stream-slow-rss  the big file read by a slow consumer: the write callback sleeps 1 ms after
 *                    every 64 KiB (libcurl buffers nothing; the kernel's socket buffers hold
 *                    the rest), for the peak RSS against the baseline before the timed part
 * The two TLS scenarios first run 2 x `concurrency` transfers, `concurrency` in flight, on the
 * multi handle, untimed (the connections and their handshakes, as the Swift clients' warm-up),
 * and check that every response came over the HTTP version asked for.
 * Every body goes through a write callback into a growable buffer, as a real client's must.
 * Prints the same JSON line as the Swift clients (with `events` for stream-events, whose `bytes`
 * are the bytes of the events' data, and
 * `baseline_rss_kib`/`baseline_peak_rss_kib`: VmRSS and VmHWM before the timed part). Exit: 0 ok, 1 failure, 2 usage, 3 unsupported.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

struct buffer {
    char *data;
    size_t length;
    size_t capacity;
};

struct transfer {
    CURL *easy;
    char url[1100]; /* small-32: this handle's current URL */
    struct buffer body;
    int fd; /* >= 0: write the body to this file instead */
    int failed;
};

static const char *scenarios[] = {"small-seq", "small-32", "users-decode", "download-file", "download-memory",
                                   "h2-100", "h1-tls-100", "stream-chunks", "stream-events", "stream-slow-rss"};

/* The TLS scenarios' settings, applied to every easy handle (setup_easy) and checked per response. */
static const char *ca_file = NULL;            /* --ca-file: the runner's private CA */
static long http_version = CURL_HTTP_VERSION_NONE;  /* CURLOPT_HTTP_VERSION; NONE: libcurl's default */
static long expected_version = 0;             /* CURLINFO_HTTP_VERSION every response must have; 0: any */
static int pipe_wait = 0;                     /* CURLOPT_PIPEWAIT: wait for a connection to multiplex on */
static double warm_cpu_end = -1;              /* CPU time when a warm-up inside the scenario ended; -1: none */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time (user + system) of this process so far, in seconds. */
static double cpu_seconds(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* A line of /proc/self/status in KiB, e.g. "VmHWM:" (the peak RSS) or "VmRSS:"; -1 when absent. */
static long status_kib(const char *key) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t length = strlen(key);
    if (!status) return -1;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, key, length) == 0) {
            value = strtol(line + length, NULL, 10);
            break;
        }
    }
    fclose(status);
    return value;
}

static long peak_rss_kib(void) { return status_kib("VmHWM:"); }

/* Appends n bytes, growing the buffer by doubling; 0 when done, -1 when out of memory. */
static int append(struct buffer *b, const char *data, size_t n) {
    if (b->length + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + n) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return -1;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
    return 0;
}

static size_t on_body(char *data, size_t size, size_t count, void *userdata) {
    struct transfer *t = userdata;
    size_t n = size * count;
    if (t->fd >= 0) {
        size_t done = 0;
        while (done < n) {
            ssize_t written = write(t->fd, data + done, n - done);
            if (written < 0) {
                if (errno == EINTR) continue;
                t->failed = 1;
                return 0;
            }
            done += (size_t)written;
        }
        t->body.length += n; /* counted, not kept */
        return n;
    }
    if (append(&t->body, data, n) != 0) {
        t->failed = 1;
        return 0;
    }
    return n;
}

/* The streaming scenarios' state: bytes seen, and for stream-events the parser's. */
struct stream {
    long bytes;
    long since_sleep;      /* stream-slow-rss: bytes since the consumer last slept */
    long events;
    long data_bytes;       /* the events' data, without the LF that ends each */
    struct buffer line;    /* a line cut by a chunk boundary */
    struct buffer data, id, event;
    long retry;
    int failed;
};

static size_t on_chunk(char *data, size_t size, size_t count, void *userdata) {
    struct stream *s = userdata;
    (void)data;
    s->bytes += (long)(size * count);
    return size * count;
}

/* The slow consumer: 1 ms asleep after every 64 KiB, inside the callback (libcurl waits). */
static size_t on_slow_chunk(char *data, size_t size, size_t count, void *userdata) {
    struct stream *s = userdata;
    (void)data;
    s->bytes += (long)(size * count);
    s->since_sleep += (long)(size * count);
    if (s->since_sleep >= 64 * 1024) {
        s->since_sleep = 0;
        struct timespec pause = {0, 1000 * 1000};
        while (nanosleep(&pause, &pause) != 0 && errno == EINTR) continue;
    }
    return size * count;
}

static int copy_field(struct buffer *b, const char *value, size_t n) {
    b->length = 0;
    return append(b, value, n);
}

/* One line of an event stream (its LF gone). */
static int event_line(struct stream *s, const char *line, size_t n) {
    if (n > 0 && line[n - 1] == '\r') n--;
    if (n == 0) {
        /* The blank line dispatches the event; one with no data is none. */
        if (s->data.length > 0) {
            s->events++;
            s->data_bytes += (long)s->data.length - 1;
        }
        s->data.length = 0;
        s->event.length = 0;
        return 0;
    }
    if (line[0] == ':') return 0; /* a comment */
    const char *colon = memchr(line, ':', n);
    size_t name = colon ? (size_t)(colon - line) : n;
    const char *value = colon ? colon + 1 : line + n;
    size_t length = colon ? n - name - 1 : 0;
    if (length > 0 && value[0] == ' ') {
        value++;
        length--;
    }
    if (name == 4 && memcmp(line, "data", 4) == 0) {
        if (append(&s->data, value, length) != 0 || append(&s->data, "\n", 1) != 0) return -1;
    } else if (name == 2 && memcmp(line, "id", 2) == 0) {
        return copy_field(&s->id, value, length);
    } else if (name == 5 && memcmp(line, "event", 5) == 0) {
        return copy_field(&s->event, value, length);
    } else if (name == 5 && memcmp(line, "retry", 5) == 0) {
        long retry = 0;
        for (size_t i = 0; i < length; i++) {
            if (value[i] < '0' || value[i] > '9') return 0; /* not a number: ignored */
            retry = retry * 10 + (value[i] - '0');
        }
        s->retry = retry;
    }
    return 0;
}

static size_t on_events(char *data, size_t size, size_t count, void *userdata) {
    struct stream *s = userdata;
    size_t n = size * count;
    const char *p = data, *end = data + n;
    s->bytes += (long)n;
    while (p < end) {
        const char *newline = memchr(p, '\n', (size_t)(end - p));
        if (!newline) {
            if (append(&s->line, p, (size_t)(end - p)) != 0) goto failed;
            break;
        }
        int status;
        if (s->line.length > 0) {
            if (append(&s->line, p, (size_t)(newline - p)) != 0) goto failed;
            status = event_line(s, s->line.data, s->line.length);
            s->line.length = 0;
        } else {
            status = event_line(s, p, (size_t)(newline - p));
        }
        if (status != 0) goto failed;
        p = newline + 1;
    }
    return n;
failed:
    s->failed = 1;
    return 0;
}

static int setup_easy(struct transfer *t, const char *url) {
    t->easy = curl_easy_init();
    if (!t->easy) return -1;
    curl_easy_setopt(t->easy, CURLOPT_URL, url);
    curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
    if (ca_file) curl_easy_setopt(t->easy, CURLOPT_CAINFO, ca_file);
    if (http_version != CURL_HTTP_VERSION_NONE) curl_easy_setopt(t->easy, CURLOPT_HTTP_VERSION, http_version);
    if (pipe_wait) curl_easy_setopt(t->easy, CURLOPT_PIPEWAIT, 1L);
    return 0;
}

static const char *version_name(long version) {
    switch (version) {
    case CURL_HTTP_VERSION_1_0: return "HTTP/1.0";
    case CURL_HTTP_VERSION_1_1: return "HTTP/1.1";
    case CURL_HTTP_VERSION_2_0: return "HTTP/2";
    case CURL_HTTP_VERSION_3: return "HTTP/3";
    default: return "an unknown HTTP version";
    }
}

/* Checks the finished transfer, adds its counts; returns 0 when it succeeded. */
static int finish(struct transfer *t, CURLcode code, long *bytes, long *connections) {
    long status = 0, connects = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(t->easy, CURLINFO_NUM_CONNECTS, &connects);
    if (code != CURLE_OK || status != 200 || t->failed) {
        fprintf(stderr, "curl: transfer failed: %s, HTTP %ld\n", curl_easy_strerror(code), status);
        return -1;
    }
    if (expected_version) {
        /* A benchmark of HTTP/2 that silently measured HTTP/1.1 would be worse than none. */
        long version = 0;
        curl_easy_getinfo(t->easy, CURLINFO_HTTP_VERSION, &version);
        if (version != expected_version) {
            fprintf(stderr, "curl: a response came over %s, expected %s\n", version_name(version),
                    version_name(expected_version));
            return -1;
        }
    }
    *bytes += (long)t->body.length;
    *connections += connects;
    t->body.length = 0; /* keep the capacity, as a reused buffer would */
    return 0;
}

/* The handle of the sequential scenarios, made by the warm-up so that its connection is reused. */
static struct transfer sequential = {.fd = -1};

static int run_sequential(const char *url, long count, long *bytes, long *connections, double *seconds) {
    curl_easy_setopt(sequential.easy, CURLOPT_URL, url);
    double start = now_seconds();
    for (long i = 0; i < count; i++) {
        CURLcode code = curl_easy_perform(sequential.easy);
        if (finish(&sequential, code, bytes, connections) != 0) return -1;
    }
    *seconds = now_seconds() - start;
    return 0;
}

/* small-32 gives every request its own URL (a query nginx ignores), as the Swift clients do, so
   that no client can merge identical requests in flight. */
static void set_concurrent_url(struct transfer *t, const char *url, long index) {
    snprintf(t->url, sizeof t->url, "%s?i=%ld", url, index % 1024); /* BenchSetup.concurrentURLCount */
    curl_easy_setopt(t->easy, CURLOPT_URL, t->url);
}

/* Runs `count` transfers on `multi` with `in_flight` of them outstanding until the last ones, the
   next one added from a completion. Handles not made yet are made here: small-32, which has no
   warm-up on its multi handle, times making them. */
static int drive(CURLM *multi, struct transfer *transfers, const char *url, long count, long in_flight,
                 long *bytes, long *connections) {
    if (in_flight > count) in_flight = count;
    long issued = 0, completed = 0;
    for (long i = 0; i < in_flight; i++) {
        transfers[i].fd = -1;
        if (!transfers[i].easy) {
            if (setup_easy(&transfers[i], url) != 0) return -1;
            curl_easy_setopt(transfers[i].easy, CURLOPT_PRIVATE, &transfers[i]);
        }
        set_concurrent_url(&transfers[i], url, issued);
        curl_multi_add_handle(multi, transfers[i].easy);
        issued++;
    }
    while (completed < count) {
        int running = 0, left = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            struct transfer *t = NULL;
            CURL *easy = message->easy_handle;
            CURLcode code = message->data.result;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
            if (!t || finish(t, code, bytes, connections) != 0) return -1;
            completed++;
            curl_multi_remove_handle(multi, easy);
            if (issued < count) {
                /* Re-adding the same handle restarts it with its options; its connection stays pooled. */
                set_concurrent_url(t, url, issued);
                curl_multi_add_handle(multi, easy);
                issued++;
            }
        }
        if (completed < count) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    return 0;
}

/* `warm` > 0 (the TLS scenarios): that many transfers first, `in_flight` at a time, untimed, to
   open the connections (TLS handshakes included) the timed part then reuses; `max_connections`
   > 0 caps the connections to the host (CURLMOPT_MAX_HOST_CONNECTIONS). */
static int run_concurrent(const char *url, long count, long in_flight, long warm, long max_connections,
                          long *bytes, long *connections, double *seconds) {
    CURLM *multi = curl_multi_init();
    if (!multi) return -1;
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    if (max_connections > 0) curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max_connections);
    struct transfer *transfers = calloc((size_t)in_flight, sizeof *transfers);
    if (!transfers) return -1;
    if (warm > 0) {
        long warm_bytes = 0, warm_connections = 0;
        if (drive(multi, transfers, url, warm, in_flight, &warm_bytes, &warm_connections) != 0) return -1;
        warm_cpu_end = cpu_seconds(); /* the reported CPU time is the timed part's only */
    }
    double start = now_seconds();
    if (drive(multi, transfers, url, count, in_flight, bytes, connections) != 0) return -1;
    *seconds = now_seconds() - start;
    return 0;
}

static int run_download(const char *url, const char *path, long *bytes, long *connections, double *seconds) {
    struct transfer t = {0};
    t.fd = -1;
    if (setup_easy(&t, url) != 0) return -1;
    /* A 512 KiB receive buffer: the target the engine is measured against. */
    curl_easy_setopt(t.easy, CURLOPT_BUFFERSIZE, 512L * 1024L);
    double start = now_seconds();
    if (path) {
        t.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (t.fd < 0) {
            fprintf(stderr, "curl: cannot open %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    CURLcode code = curl_easy_perform(t.easy);
    if (t.fd >= 0) close(t.fd);
    int failed = finish(&t, code, bytes, connections);
    *seconds = now_seconds() - start;
    if (path) unlink(path);
    return failed;
}

/* The streaming scenarios: one GET on the warm-up's handle (so on its connection) with
   libcurl's default receive buffer, the body handed to `callback` as it arrives. */
static int run_stream(const char *url, curl_write_callback callback, struct stream *s, long *connections,
                      double *seconds) {
    CURL *easy = sequential.easy;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, s);
    double start = now_seconds();
    CURLcode code = curl_easy_perform(easy);
    *seconds = now_seconds() - start;
    long status = 0, connects = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
    *connections += connects;
    if (code != CURLE_OK || status != 200 || s->failed) {
        fprintf(stderr, "curl: stream failed: %s, HTTP %ld\n", curl_easy_strerror(code), status);
        return -1;
    }
    return 0;
}

/* The warm-up GET every client makes before the clock starts (library set-up, first connection). */
static int warm_up(const char *base) {
    char url[1024];
    snprintf(url, sizeof url, "%s/envelope.json", base);
    long bytes = 0, connections = 0;
    double seconds = 0;
    if (setup_easy(&sequential, url) != 0) return -1;
    return run_sequential(url, 1, &bytes, &connections, &seconds);
}

int main(int argc, char **argv) {
    const char *base = NULL, *scenario = NULL, *directory = "/tmp";
    long count = 1000, concurrency = 32, max_connections = 32;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t s = 0; s < sizeof scenarios / sizeof *scenarios; s++) puts(scenarios[s]);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "curl: expected --option value\n");
            return 2;
        }
        if (strcmp(argv[i], "--base-url") == 0) base = argv[++i];
        else if (strcmp(argv[i], "--scenario") == 0) scenario = argv[++i];
        else if (strcmp(argv[i], "--count") == 0) count = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--concurrency") == 0) concurrency = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--connections") == 0) max_connections = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--ca-file") == 0) ca_file = argv[++i];
        else if (strcmp(argv[i], "--download-dir") == 0) directory = argv[++i];
        else if (strcmp(argv[i], "--entries") == 0) ++i; /* only the cache scenario uses it */
        else {
            fprintf(stderr, "curl: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (!base || !scenario || count <= 0 || concurrency <= 0 || max_connections <= 0) {
        fprintf(stderr, "curl: --base-url and --scenario are required; counts must be positive\n");
        return 2;
    }
    int h2 = strcmp(scenario, "h2-100") == 0, h1_tls = strcmp(scenario, "h1-tls-100") == 0;
    if (h2) {
        http_version = CURL_HTTP_VERSION_2TLS;
        expected_version = CURL_HTTP_VERSION_2_0;
        pipe_wait = 1;
    } else if (h1_tls) {
        http_version = CURL_HTTP_VERSION_1_1;
        expected_version = CURL_HTTP_VERSION_1_1;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1;
    /* The TLS scenarios warm up on their multi handle instead (its connections are the ones reused). */
    if (!h2 && !h1_tls && warm_up(base) != 0) return 1;

    char url[1024], path[1024];
    long bytes = 0, connections = 0, requests = count, events = -1;
    long baseline_rss = status_kib("VmRSS:"), baseline_peak = peak_rss_kib();
    struct stream stream = {0};
    double seconds = 0, cpu_start = cpu_seconds();
    int failed;
    if (strcmp(scenario, "small-seq") == 0) {
        snprintf(url, sizeof url, "%s/envelope.json", base);
        failed = run_sequential(url, count, &bytes, &connections, &seconds);
    } else if (strcmp(scenario, "small-32") == 0) {
        snprintf(url, sizeof url, "%s/envelope.json", base);
        failed = run_concurrent(url, count, concurrency, 0, 0, &bytes, &connections, &seconds);
    } else if (h2 || h1_tls) {
        snprintf(url, sizeof url, "%s/envelope.json", base);
        failed = run_concurrent(url, count, concurrency, 2 * concurrency, max_connections, &bytes, &connections,
                                &seconds);
    } else if (strcmp(scenario, "users-decode") == 0) {
        snprintf(url, sizeof url, "%s/users.json", base);
        failed = run_sequential(url, count, &bytes, &connections, &seconds);
    } else if (strcmp(scenario, "download-file") == 0 || strcmp(scenario, "download-memory") == 0) {
        int to_file = strcmp(scenario, "download-file") == 0;
        snprintf(url, sizeof url, "%s/big.bin", base);
        snprintf(path, sizeof path, "%s/download-curl-%d.bin", directory, (int)getpid());
        requests = 1;
        failed = run_download(url, to_file ? path : NULL, &bytes, &connections, &seconds);
    } else if (strncmp(scenario, "stream-", 7) == 0) {
        int is_events = strcmp(scenario, "stream-events") == 0, slow = strcmp(scenario, "stream-slow-rss") == 0;
        if (!is_events && !slow && strcmp(scenario, "stream-chunks") != 0) {
            fprintf(stderr, "curl: scenario %s is not implemented\n", scenario);
            return 3;
        }
        snprintf(url, sizeof url, "%s/%s", base, is_events ? "events.sse" : "big.bin");
        requests = 1;
        failed = run_stream(url, is_events ? on_events : (slow ? on_slow_chunk : on_chunk), &stream, &connections,
                            &seconds);
        bytes = is_events ? stream.data_bytes : stream.bytes;
        if (is_events) events = stream.events;
    } else {
        fprintf(stderr, "curl: scenario %s is not implemented\n", scenario);
        return 3;
    }
    if (failed) return 1;
    double cpu = cpu_seconds() - (warm_cpu_end >= 0 ? warm_cpu_end : cpu_start);
    printf("{\"client\":\"curl\",\"scenario\":\"%s\",\"requests\":%ld,\"seconds\":%.6f,\"rps\":%.1f,"
           "\"bytes\":%ld,\"peak_rss_kib\":%ld,\"new_connections\":%ld,\"cpu_seconds\":%.6f,"
           "\"baseline_rss_kib\":%ld,\"baseline_peak_rss_kib\":%ld",
           scenario, requests, seconds, seconds > 0 ? (double)requests / seconds : 0.0, bytes, peak_rss_kib(),
           connections, cpu, baseline_rss, baseline_peak);
    if (events >= 0) printf(",\"events\":%ld", events);
    printf("}\n");
    return 0;
}
