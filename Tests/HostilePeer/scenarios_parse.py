"""Scenarios for reading a response head and mapping libcurl's errors (`/parse/<name>`).

Each writes the exact bytes of one misbehaviour (or of the legitimate case it must not be
confused with) and closes the connection, so no scenario's leftovers reach another request.
`?status=N` picks the real status where a scenario fakes one; `?name=CHARSET` names the
charset of `/parse/charset`.
"""
import urllib.parse

from hostile_peer import byte_routes

FAKE = b"HTTP/1.1 200 OK: x"


def _status(request, default=500):
    try:
        return int(request.query.get("status", default))
    except ValueError:
        return default


def _head(status, *lines):
    head = b"HTTP/1.1 %d Real\r\n" % status
    for line in lines:
        head += line + b"\r\n"
    return head + b"\r\n"


def _chunked(status, body, trailers, *lines):
    data = _head(status, b"Transfer-Encoding: chunked", *lines)
    if body:
        data += b"%x\r\n%s\r\n" % (len(body), body)
    data += b"0\r\n"
    for trailer in trailers:
        data += trailer + b"\r\n"
    return data + b"\r\n"


def fake_status_head(request):
    """A status-like field in the head: the real status is `status` (default 500)."""
    body = b"the real error body"
    return _head(_status(request), b"Content-Type: text/plain", FAKE, b"Content-Length: %d" % len(body)) + body


def fake_status_lf(request):
    """A reflected header value with a bare LF that injects a status-like line."""
    body = b"the real error body"
    return _head(_status(request), b"X-Reflected: a\n" + FAKE, b"Content-Length: %d" % len(body)) + body


def fake_status_trailer(request):
    """A chunked body whose trailer section carries a status-like line."""
    return _chunked(_status(request), b"the real error body", [FAKE])


def fake_status_empty_chunked(request):
    """An empty chunked body, then a status-like trailer: no body byte ever arrives."""
    return _chunked(_status(request), b"", [FAKE])


def continue_then_real(request):
    """`100 Continue`, then the real response: libcurl starts a new head, which must be kept."""
    body = b"after continue"
    return (b"HTTP/1.1 100 Continue\r\n\r\n"
            + _head(201, b"Content-Length: %d" % len(body)) + body)


def redirect(request):
    """A 302 that libcurl follows (when the policy follows) to `/parse/redirect-target`."""
    return _head(302, b"Location: /parse/redirect-target", b"Content-Length: 0")


def redirect_target(request):
    body = b"target"
    return _head(200, b"X-Target: yes", b"Content-Length: %d" % len(body)) + body


def redirect_no_location(request):
    """A 3xx without Location (never followed) whose trailers carry a status-like line."""
    return _chunked(302, b"", [FAKE])


def content_length_conflict(request):
    """Two Content-Length fields with different values (RFC 9112 §6.3: unrecoverable)."""
    return _head(200, b"Content-Length: 5", b"Content-Length: 10") + b"0123456789"


def content_length_list(request):
    """One Content-Length field listing two different values."""
    return _head(200, b"Content-Length: 5, 10") + b"0123456789"


def content_length_repeated(request):
    """The same length twice, as two fields and as a list: RFC 9110 §8.6 allows accepting it."""
    return _head(200, b"Content-Length: 5", b"content-length: 5, 5") + b"01234"


def bare_cr(request):
    """A bare CR inside a header value: an injection for whoever splits lines at CR."""
    return _head(200, b"X-Note: a\rSet-Cookie: injected=1", b"X-Fold: c\r", b"Content-Length: 2") + b"ok"


def nul_in_header(request):
    """A NUL inside a header value (libcurl refuses the reply)."""
    return _head(200, b"X-Nul: b\x00c", b"Content-Length: 2") + b"ok"


def status_code_long(request):
    return b"HTTP/1.1 2000000 OK\r\nContent-Length: 2\r\n\r\nok"


def status_code_short(request):
    return b"HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok"


def long_header_line(request):
    """A single 1 MiB header line (libcurl caps one line at 100 KiB)."""
    return _head(200, b"X-Long: " + b"a" * (1 << 20), b"Content-Length: 2") + b"ok"


def many_header_lines(request):
    """400 KiB of head in short lines (libcurl caps a head at 300 KiB)."""
    lines = [b"X-Line-%d: %s" % (index, b"b" * 1000) for index in range(400)]
    return _head(200, *lines, b"Content-Length: 2") + b"ok"


def colon_less_header(request):
    """A header line without a colon."""
    return _head(200, b"no colon here", b"Content-Length: 2") + b"ok"


def colon_less_trailer(request):
    """A chunked body whose trailer line has no colon."""
    return _chunked(200, b"ok", [b"no colon here"])


def negative_length(request):
    return _head(200, b"Content-Length: -1") + b"ok"


def bad_chunk(request):
    return _head(200, b"Transfer-Encoding: chunked") + b"zz\r\nok\r\n0\r\n\r\n"


def bad_gzip(request):
    return _head(200, b"Content-Encoding: gzip", b"Content-Length: 9") + b"not gzip!"


def no_status_line(request):
    """Bytes that are no HTTP at all (libcurl: HTTP/0.9, refused)."""
    return b"hello, this is not HTTP\r\n\r\n"


def bad_version(request):
    return b"HTTP/7.3 200 OK\r\nContent-Length: 2\r\n\r\nok"


def nothing(request):
    """Closes without a byte."""
    return b""


def truncated(request):
    return _head(200, b"Content-Length: 100") + b"only a few bytes"


def large(request):
    """Announces 10 GiB. GET gets 1 KiB and the close; HEAD gets only the head."""
    head = _head(200, b"Content-Type: application/octet-stream", b"Content-Length: 10737418240", b"ETag: \"big\"")
    return head if request.method == "HEAD" else head + b"x" * 1024


def large_not_modified(request):
    """A 304 for a 10 GiB resource: its Content-Length describes the resource, not a body."""
    return _head(304, b"Content-Length: 10737418240", b"ETag: \"big\"")


def large_chunked(request):
    """A chunked body of 64 KiB with no Content-Length: the running count must stop it."""
    piece = b"y" * 4096
    data = _head(200, b"Transfer-Encoding: chunked")
    for _ in range(16):
        data += b"%x\r\n%s\r\n" % (len(piece), piece)
    return data + b"0\r\n\r\n"


def charset(request):
    """Text in the charset `?name=` names (encoded by `?codec=`, default the name), with that
    name in Content-Type and the text, percent-encoded UTF-8, in `X-Expected`."""
    name = urllib.parse.unquote(request.query.get("name", "utf-8"))
    codec = urllib.parse.unquote(request.query.get("codec", name))
    for text in SAMPLES:
        try:
            body = text.encode(codec)
        except UnicodeEncodeError:
            continue
        break
    expected = urllib.parse.quote(text.encode("utf-8"))
    return _head(200, b"Content-Type: text/plain; charset=" + name.encode("latin-1"),
                 b"X-Expected: " + expected.encode("ascii"), b"Content-Length: %d" % len(body)) + body


def invalid_in_charset(request):
    """Bytes that are not valid in the charset named (default gbk): a lead byte, then a space,
    which is no trail byte in GBK, Big5, Shift_JIS or EUC-KR."""
    name = urllib.parse.unquote(request.query.get("name", "gbk")).encode("latin-1")
    body = b"ok \xfe\x20 ok"
    return _head(200, b"Content-Type: text/plain; charset=" + name, b"Content-Length: %d" % len(body)) + body


# `charset` sends the first of these its codec can encode: each legacy charset holds one script.
SAMPLES = [
    "中文，简体字：汉语", "中文，繁體字：漢語", "日本語のテキスト、カタカナ", "한국어 텍스트",
    "Привет, мир", "Γειά σου κόσμε", "שלום עולם", "مرحبا بالعالم", "Günaydın, şeker ğ",
    "Zażółć gęślą jaźń", "Grüße, café €", "Grüße, café", "Xin chào thế giới", "สวัสดีครับ",
    "Labas rytas, ąčęėįšųūž", "plain ascii",
]

ROUTES = {
    "fake-status-head": fake_status_head, "fake-status-lf": fake_status_lf,
    "fake-status-trailer": fake_status_trailer, "fake-status-empty-chunked": fake_status_empty_chunked,
    "continue": continue_then_real, "redirect": redirect, "redirect-target": redirect_target,
    "redirect-no-location": redirect_no_location,
    "content-length-conflict": content_length_conflict, "content-length-list": content_length_list,
    "content-length-repeated": content_length_repeated, "bare-cr": bare_cr, "nul-in-header": nul_in_header,
    "status-code-long": status_code_long, "status-code-short": status_code_short,
    "long-header-line": long_header_line, "many-header-lines": many_header_lines,
    "colon-less-header": colon_less_header, "colon-less-trailer": colon_less_trailer,
    "negative-length": negative_length, "bad-chunk": bad_chunk, "bad-gzip": bad_gzip,
    "no-status-line": no_status_line, "bad-version": bad_version, "nothing": nothing,
    "truncated": truncated, "large": large, "large-not-modified": large_not_modified,
    "large-chunked": large_chunked, "charset": charset, "invalid-in-charset": invalid_in_charset,
}


byte_routes("parse", ROUTES)
