"""Scenarios where a response head could mean one thing to libcurl's framing and another to
the caller (`/parse2/<name>`): a status line libcurl reads case-insensitively, a line starting
with CR, whitespace before a colon, Transfer-Encoding with Content-Length, a folded length.

Each writes its bytes and closes the connection, so no scenario's leftovers reach another
request. `resumable` answers any method with a whole body, logging what it was asked.
`proxy-407.test:443` and `proxy-403.test:443` make the peer a proxy that refuses to tunnel
(the tests name it in `https_proxy` for a child process; the scenario is the CONNECT target).
"""
from hostile_peer import byte_routes, scenario


def lowercase_after_continue(request):
    """libcurl takes `http/1.1 500` as a new response (HTTP/1.0 200): after the 100 head."""
    return (b"HTTP/1.1 100 Continue\r\n\r\n"
            b"http/1.1 500 Internal\r\nContent-Length: 3\r\nContent-Length: 14\r\n\r\nafter continue")


def lowercase_status(request):
    """A first status line spelled `http/`: libcurl reads it as HTTP/1.0 200."""
    return b"http/1.1 500 Internal\r\nContent-Length: 2\r\n\r\nok"


def mixed_case_status(request):
    return b"Http/1.1 503 Unavailable\r\nContent-Length: 2\r\n\r\nok"


def tab_before_code(request):
    """libcurl's sscanf skips the tab and reads 500; the code is not where RFC 9112 puts it."""
    return b"HTTP/1.1 \t500 Internal\r\nContent-Length: 2\r\n\r\nok"


def cr_line_ends_head(request):
    """libcurl 7.88 ends a head at any line whose first byte is CR: the 100 head ends there."""
    return (b"HTTP/1.1 100 Continue\r\n\rjunk: 2\r\n"
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")


def space_before_colon(request):
    """libcurl frames by the second field (2); the first is no Content-Length to it."""
    return b"HTTP/1.1 200 OK\r\nContent-Length : 99\r\nContent-Length: 2\r\nX-After: yes\r\n\r\nok"


def chunked_and_length(request):
    """Transfer-Encoding and Content-Length together (RFC 9112 §6.3: an error)."""
    return (b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"2\r\nok\r\n0\r\n\r\n")


def length_and_chunked(request):
    """The same, Transfer-Encoding first, spelled in lower case."""
    return (b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 2\r\n\r\n"
            b"2\r\nok\r\n0\r\n\r\n")


def folded_length(request):
    """An obs-fold continuing Content-Length: libcurl frames by 5, the folded value reads `5 10`."""
    return b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n 10\r\n\r\n0123456789"


def folded_other(request):
    """An obs-fold in another field: the value is joined with a space (RFC 9112 §5.2)."""
    return b"HTTP/1.1 200 OK\r\nX-Folded: a\r\n\tb\r\nContent-Length: 2\r\n\r\nok"


def resumable(request):
    body = b"0123456789"
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


ROUTES = {
    "lowercase-after-continue": lowercase_after_continue, "lowercase-status": lowercase_status,
    "mixed-case-status": mixed_case_status, "tab-before-code": tab_before_code,
    "cr-line-ends-head": cr_line_ends_head, "space-before-colon": space_before_colon,
    "chunked-and-length": chunked_and_length, "length-and-chunked": length_and_chunked,
    "folded-length": folded_length, "folded-other": folded_other, "resumable": resumable,
}


def _refuse_tunnel(status, reason, *lines):
    """A proxy's answer to `CONNECT <host>:443`: the scenario is named after that target."""
    def answer(connection, request):
        head = b"HTTP/1.1 %d %s\r\n" % (status, reason)
        for line in lines:
            head += line + b"\r\n"
        connection.send(head + b"Content-Length: 0\r\n\r\n")
        return None
    return answer


scenario("proxy-407.test:443")(_refuse_tunnel(407, b"Proxy Authentication Required",
                                              b'Proxy-Authenticate: Basic realm="hostile"'))
scenario("proxy-403.test:443")(_refuse_tunnel(403, b"Forbidden"))


byte_routes("parse2", ROUTES)
