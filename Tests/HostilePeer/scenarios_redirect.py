"""Redirect hops, resumed downloads and `Expect: 100-continue` (issue 21, items 2 and 3, and the
Expect item): servers that record what each hop carried, ignore or honour `Range`, change the
resource between attempts, resume at the wrong offset, and never answer `100 Continue`.

Every request is logged by hostile_peer.py (method, body length, headers), so a test reads
what each hop of a redirect chain carried from the log.
"""
import json
import time
import urllib.parse

from hostile_peer import scenario, response, KEEP


@scenario("redirect-hop")
def _hop(connection, request):
    """`/redirect-hop/...?status=303&to=<percent-encoded Location>`: that status, that Location.

    The Location is sent as the raw bytes `to` decodes to (spaces and UTF-8 included);
    `delay=S` waits S seconds before answering; `size=N` sends an N-byte body (default "moved").
    """
    time.sleep(float(request.query.get("delay", "0")))
    status = int(request.query.get("status", "302"))
    location = urllib.parse.unquote_to_bytes(request.query.get("to", "/redirect-echo/final"))
    body = b"m" * int(request.query["size"]) if "size" in request.query else b"moved"
    head = b"HTTP/1.1 %d Redirect\r\nLocation: %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % (
        status, location, len(body))
    connection.send(head + body)
    return KEEP


@scenario("redirect-echo")
def _echo(connection, request):
    """200 with what arrived: method, body (latin-1) and headers, as JSON."""
    body = json.dumps({
        "method": request.method, "path": request.path, "body": request.body.decode("latin-1"),
        "headers": request.headers,
    })
    connection.send(response(200, headers=[("Content-Type", "application/json")], body=body))
    return KEEP


@scenario("redirect-stall")
def _stall(connection, request):
    """A 200 that sends 10 of its 1,000 body bytes, then stalls (for cancelling a call on a
    later hop once its progress shows that hop is under way)."""
    connection.send(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 10)
    time.sleep(30)
    return None


def _content(version):
    """The resource of `version`: 4,000 bytes that differ between versions."""
    return (("%s-" % version) * 4000).encode("ascii")[:4000]


@scenario("redirect-range")
def _range(connection, request):
    """`/redirect-range/<version>[?cut=N][&ignore=1][&offset=K]`: a resource with a strong ETag.

    Honours `Range: bytes=N-` and `If-Range` (a mismatched validator gets the whole resource,
    200), answers 416 with `Content-Range: bytes */LEN` for a range at or past the end.
    `cut=N` sends the head for the whole answer but only N body bytes, then closes (an
    interrupted download). `ignore=1` ignores `Range` (always 200). `offset=K` answers a range
    with a 206 that starts at K instead of where it was asked to.
    """
    segments = [s for s in request.path.split("/") if s]
    version = segments[1] if len(segments) > 1 else "v1"
    content = _content(version)
    etag = '"%s"' % version
    headers = [("ETag", etag), ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes")]
    status, reason, body = 200, "OK", content
    range_header = request.header("Range")
    if_range = request.header("If-Range")
    if range_header and request.query.get("ignore") != "1" and (if_range is None or if_range == etag):
        start = int(range_header.split("=", 1)[1].split("-", 1)[0])
        if start >= len(content):
            connection.send(response(416, "Range Not Satisfiable",
                                     headers=headers + [("Content-Range", "bytes */%d" % len(content))],
                                     body="range not satisfiable"))
            return KEEP
        served = int(request.query.get("offset", start))
        status, reason, body = 206, "Partial Content", content[served:]
        headers.append(("Content-Range", "bytes %d-%d/%d" % (served, len(content) - 1, len(content))))
    cut = request.query.get("cut")
    if cut is not None:
        whole = response(status, reason, headers=headers, body=body)
        connection.send(whole[:len(whole) - len(body) + int(cut)])
        return None
    connection.send(response(status, reason, headers=headers, body=body))
    return KEEP


@scenario("redirect-no-continue")
def _no_continue(connection, request):
    """Never sends `100 Continue`: answers once the whole body arrived (hostile_peer reads it
    first), saying whether an `Expect` field came with it."""
    expect = request.header("Expect")
    connection.send(response(200, headers=[("Content-Type", "text/plain")],
                             body="expect=%s bytes=%d" % (expect or "none", len(request.body))))
    return KEEP
