"""Connection reuse, re-sends and timing: peers that abuse an idle kept-alive connection, drop
reused connections, hold a request open, or pace their bytes (Chain issue 21, items 7, 9, 14-16).

Scenarios that coordinate with a test share events by the `id` query value, so parallel tests
never see each other's: `conn-smuggle` sets its event once the smuggled bytes are written, and
`conn-wait` (on another connection) answers when that has happened; `conn-hold` answers only when
`conn-release` has been asked for its id.
"""
import fcntl
import socket
import struct
import termios
import threading
import time

from hostile_peer import scenario, response, KEEP

_events = {}
_events_lock = threading.Lock()


def _event(name):
    with _events_lock:
        return _events.setdefault(name, threading.Event())


@scenario("conn-smuggle")
def _smuggle(connection, request):
    """A complete answer (a 204, or ?kind=length: a body of exactly Content-Length bytes), then,
    0.2 s later on the same idle connection, a whole second response nobody asked for. A client
    that reuses the connection reads that one as the answer to its next request."""
    if request.query.get("kind") == "length":
        connection.send(response(200, headers=[("Content-Type", "text/plain")], body="first"))
    else:
        connection.send(b"HTTP/1.1 204 No Content\r\n\r\n")
    time.sleep(0.2)
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="smuggled"))
    # A send returns when the bytes are queued; on a loaded machine loopback hands them to the
    # client's socket later (the kernel's backlog). Say so only once the client's side has
    # acknowledged them all, so they wait in its socket when its next request goes out.
    _wait_until_acknowledged(connection.sock, seconds=10)
    _event("smuggled:" + request.query.get("id", "")).set()
    return KEEP


def _wait_until_acknowledged(sock, seconds):
    """Waits until the socket's send queue is empty (Linux's SIOCOUTQ, which is TIOCOUTQ:
    bytes not yet sent or not yet acknowledged by the other side), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pending = struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]
        if pending == 0:
            return
        time.sleep(0.005)


@scenario("conn-wait")
def _wait(connection, request):
    """Answers once `conn-smuggle` with the same id has written its smuggled response (10 s at most)."""
    done = _event("smuggled:" + request.query.get("id", "")).wait(10)
    connection.send(response(200 if done else 504, headers=[("Connection", "close")], body="ready" if done else "late"))


@scenario("conn-real")
def _real(connection, request):
    """The answer a request should get: `real`, kept alive."""
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="real"))
    return KEEP


@scenario("conn-drop-reused")
def _drop_reused(connection, request):
    """Answers the first request of a connection, then reads the next one on it (it is logged)
    and closes without answering: every reused connection dies after the request was written.
    `?delay=S` waits before the first answer (so parallel requests open connections of their own)."""
    time.sleep(float(request.query.get("delay", "0")))
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="ok"))
    connection.read_request()


@scenario("conn-reset-reused")
def _reset_reused(connection, request):
    """Like `conn-drop-reused`, but the reused connection is reset (RST, as a server that stops
    with unread input does) instead of closed after the next request was read."""
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="ok"))
    if connection.read_request() is not None:
        connection.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.sock.close()


@scenario("conn-hold")
def _hold(connection, request):
    """Answers only once `conn-release` was asked for the same id (60 s at most): a request the
    test holds open, keeping the client's per-host slot taken."""
    _event("release:" + request.query.get("id", "")).wait(60)
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="held"))
    return KEEP


@scenario("conn-release")
def _release(connection, request):
    """Releases the `conn-hold` request with the same id."""
    _event("release:" + request.query.get("id", "")).set()
    connection.send(response(200, headers=[("Connection", "close")], body="released"))


@scenario("conn-dribble")
def _dribble(connection, request):
    """A body of ?count= bytes (default 4), one byte every ?interval= seconds (default 1.5): a
    heartbeat stream, slow but never idle for longer than the interval."""
    count = int(request.query.get("count", "4"))
    interval = float(request.query.get("interval", "1.5"))
    connection.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % count)
    for _ in range(count):
        time.sleep(interval)
        connection.send(b".")
    return KEEP


@scenario("conn-stall")
def _stall(connection, request):
    """The head and 2 of 10 announced bytes, then nothing for ?seconds= (default 20), then close."""
    connection.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nab")
    time.sleep(float(request.query.get("seconds", "20")))
