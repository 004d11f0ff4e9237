"""Malformed Server-Sent Events streams (`/sse-<name>`), for the client's event-stream parser.

Each answers `200` with `Content-Type: text/event-stream`, writes the bytes documented on its
function and closes the connection. The body is close-delimited (`Connection: close`, no
length) unless the query has `framing=chunked`: then every write below is one chunk and the
body ends with the zero-size chunk before the close. The head is always its own write, and
writes that matter are `PAUSE` seconds apart, so with TCP_NODELAY each reaches the client as
its own segment and a parser sees the bytes split exactly where the comment says.
"""
import time

from hostile_peer import scenario

PAUSE = 0.05


def _stream(name, pieces_for, pause=PAUSE):
    """Registers `/<name>`: the head, then each piece of `pieces_for(request)` as one write,
    `pause` seconds apart, then the close."""
    def serve(connection, request):
        chunked = request.query.get("framing") == "chunked"
        head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        head += b"Transfer-Encoding: chunked\r\n" if chunked else b""
        connection.send(head + b"Connection: close\r\n\r\n")
        for piece in pieces_for(request):
            time.sleep(pause)
            connection.send(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
        if chunked:
            connection.send(b"0\r\n\r\n")
        return None
    scenario(name)(serve)


def no_final_newline(request):
    """`id: 1\\ndata: one\\n\\n`, `id: 2\\ndata: two\\n\\n`, then `data: partial` with no line
    end: two complete events, and a third that never ends (a parser must not dispatch it)."""
    return [b"id: 1\ndata: one\n\n", b"id: 2\ndata: two\n\n", b"data: partial"]


def huge_line(request):
    """`data: ` and then 2 MiB (2,097,152 bytes) of `x` with no line end, in 64 KiB writes
    without pauses: a line a parser must cap rather than buffer without bound."""
    return [b"data: "] + [b"x" * 65536] * 32


def nul(request):
    """`id: a\\0b\\ndata: bad id\\n\\n` (an id containing NUL, which the spec says to ignore,
    so the event has no id), `data: nul\\0in\\0data\\n\\n` (NUL bytes kept in the data), then
    the valid `id: 7\\ndata: seven\\n\\n`."""
    return [b"id: a\x00b\ndata: bad id\n\n", b"data: nul\x00in\x00data\n\n", b"id: 7\ndata: seven\n\n"]


def cr_only(request):
    """Bare CR line ends, one line per write: `id: 1\\r` | `data: one\\r` | `\\r` | `id: 2\\r` |
    `data: two\\r` | `\\r` — two events. Every write ends with a CR and the next line's first
    byte (a letter, or the CR of the blank line) starts the next write, so a parser that waits
    to see whether an LF follows a CR must still dispatch each event once the next bytes come."""
    return [b"id: 1\r", b"data: one\r", b"\r", b"id: 2\r", b"data: two\r", b"\r"]


def bom(request):
    """A UTF-8 byte order mark split across writes: `\\xef\\xbb` | `\\xbf` + `data: first\\n\\n`
    | `data: second\\n\\n`. The BOM (only the first one) is to be skipped, so the first
    event's data is `first`, not U+FEFF + `first`."""
    return [b"\xef\xbb", b"\xbfdata: first\n\n", b"data: second\n\n"]


def invalid_utf8(request):
    """`data: ok\\n\\n`, `data: bad \\xff\\xfe end\\n\\n` (bytes that are never UTF-8; a decoder
    replaces each with U+FFFD), then `data: after\\n\\n` to show the stream goes on."""
    return [b"data: ok\n\n", b"data: bad \xff\xfe end\n\n", b"data: after\n\n"]


_stream("sse-no-final-newline", no_final_newline)
_stream("sse-huge-line", huge_line, pause=0)
_stream("sse-nul", nul)
_stream("sse-cr-only", cr_only)
_stream("sse-bom", bom)
_stream("sse-invalid-utf8", invalid_utf8)
