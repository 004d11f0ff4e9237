"""Cookies a jar must refuse or bound (issue 24): `Domain` attributes for another site or a
public suffix, huge values, thousands of `Set-Cookie` fields in one head, control bytes. The
tests reach the peer under made-up host names (the client's DNS override maps them to
127.0.0.1), so the jar applies its domain and public-suffix rules as for a real site.

`/cookies/echo` answers with the `Cookie` field it received as its body.
"""
from hostile_peer import byte_routes, response


def _set(*values):
    head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n"
    head = head.encode("latin-1")
    for value in values:
        head += b"Set-Cookie: " + (value if isinstance(value, bytes) else value.encode("latin-1")) + b"\r\n"
    return head + b"\r\nok"


def _echo(request):
    body = request.header("Cookie") or ""
    return response(200, headers=[("Content-Type", "text/plain"), ("Connection", "close")], body=body)


byte_routes("cookies", {
    # Set from www.example.co.uk: one for the registrable domain (kept), one for the public
    # suffix, one for the bare top-level domain and one for another site (all refused).
    "domains": lambda request: _set("site=1; Domain=example.co.uk; Path=/",
                                    "suffix=1; Domain=co.uk; Path=/",
                                    "tld=1; Domain=uk; Path=/",
                                    "other=1; Domain=evil.example; Path=/"),
    # A value of 5,000 bytes (over the 4,096 limit, refused) beside a normal cookie.
    "huge": lambda request: _set("big=" + "v" * 5000, "small=1"),
    # 3,000 fields in one head: the jar keeps at most 50 per domain.
    "thousands": lambda request: _set(*["c%d=%d" % (n, n) for n in range(3000)]),
    # A NUL in a field: libcurl refuses the head, so the response sets no cookies.
    "nul": lambda request: _set("first=1", b"nul=a\x00b"),
    # A raw CR inside a value (the engine turns it into a space), and a cookie whose
    # attributes are all garbage.
    "control": lambda request: _set(b"cr=a\rb", "plain=1; Expires=not a date; Max-Age=x; SameSite=??"),
    "echo": _echo,
})
