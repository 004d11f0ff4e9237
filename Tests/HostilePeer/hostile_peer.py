#!/usr/bin/env python3
"""A deliberately misbehaving HTTP/1.1 peer for Chain's tests (Python standard library only).

Started by the tests (see Tests/TestSupport/HostilePeer.swift): it binds 127.0.0.1 on a port the
kernel picks, prints that port on its first line of output, and serves until its standard input
closes (the test process ended or stopped it) or a wall-clock limit passes, so it never outlives
the tests that started it.

Every request is dispatched by the first segment of its path to a *scenario*: a function that
owns the connection from then on and writes whatever bytes it likes. Scenarios live in the
`scenarios_*.py` files beside this one (one file per family of misbehaviour) and register with
`@scenario("name")`. A scenario returns `KEEP` to have the next request on the same connection
dispatched again by its own path (keep-alive across scenarios), or anything else to close.

Every request read is appended to the log file named by `--log` as one JSON line (scenario,
method, path, connection number, index on its connection, body length, headers), so a test can
count what reached the server (a POST sent twice, a reused connection) without a side channel.
"""
import argparse
import glob
import importlib.util
import json
import os
import socket
import sys
import threading
import time

KEEP = "keep"
SCENARIOS = {}
_log_lock = threading.Lock()
_log_file = None
_connection_counter = 0
_counter_lock = threading.Lock()


def scenario(name):
    """Registers `function(connection, request)` for paths whose first segment is `name`."""
    def register(function):
        if name in SCENARIOS:
            raise ValueError("scenario %r registered twice" % name)
        SCENARIOS[name] = function
        return function
    return register


class Request:
    def __init__(self, method, target, version, headers, body, connection, index):
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers  # [(name, value)] as received
        self.body = body
        self.connection = connection
        self.index = index  # 0 for the first request on its connection
        path, _, query = target.partition("?")
        self.path = path
        self.query = {}
        for pair in query.split("&"):
            if pair:
                key, _, value = pair.partition("=")
                self.query[key] = value
        segments = [s for s in path.split("/") if s]
        self.scenario = segments[0] if segments else ""

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


class Connection:
    """One accepted socket with a read buffer."""

    def __init__(self, sock, number):
        self.sock = sock
        self.number = number
        self.buffer = b""
        self.requests_read = 0

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("latin-1")
        self.sock.sendall(data)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def read_request(self, timeout=30):
        """The next request (head and a Content-Length or chunked body), or None at EOF."""
        self.sock.settimeout(timeout)
        try:
            while b"\r\n\r\n" not in self.buffer:
                self._fill()
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            method, target, version = (lines[0].split(" ", 2) + ["", ""])[:3]
            headers = []
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers.append((name.strip(), value.strip()))
            body = b""
            length = next((int(v) for k, v in headers if k.lower() == "content-length"), None)
            chunked = any(k.lower() == "transfer-encoding" and "chunked" in v.lower() for k, v in headers)
            if length is not None:
                while len(self.buffer) < length:
                    self._fill()
                body, self.buffer = self.buffer[:length], self.buffer[length:]
            elif chunked:
                body = self._read_chunked()
        except (EOFError, socket.timeout, OSError, ValueError):
            return None
        finally:
            try:
                self.sock.settimeout(None)
            except OSError:
                pass
        request = Request(method, target, version, headers, body, self.number, self.requests_read)
        self.requests_read += 1
        _log(request)
        return request

    def _read_chunked(self):
        body = b""
        while True:
            while b"\r\n" not in self.buffer:
                self._fill()
            size_line, self.buffer = self.buffer.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                while b"\r\n" not in self.buffer:
                    self._fill()
                # Trailers until an empty line.
                while not self.buffer.startswith(b"\r\n"):
                    _, self.buffer = self.buffer.split(b"\r\n", 1)
                    while b"\r\n" not in self.buffer:
                        self._fill()
                self.buffer = self.buffer[2:]
                return body
            while len(self.buffer) < size + 2:
                self._fill()
            body += self.buffer[:size]
            self.buffer = self.buffer[size + 2:]


def _log(request):
    if _log_file is None:
        return
    line = json.dumps({
        "scenario": request.scenario, "method": request.method, "path": request.path,
        "target": request.target, "connection": request.connection, "index": request.index,
        "bodyLength": len(request.body), "headers": request.headers,
    })
    with _log_lock:
        _log_file.write(line + "\n")
        _log_file.flush()


def response(status, reason="OK", headers=(), body=b""):
    """The bytes of a well-formed response with Content-Length (a helper for scenarios)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    head = "HTTP/1.1 %d %s\r\n" % (status, reason)
    names = [name.lower() for name, _ in headers]
    for name, value in headers:
        head += "%s: %s\r\n" % (name, value)
    if "content-length" not in names and "transfer-encoding" not in names:
        head += "Content-Length: %d\r\n" % len(body)
    return head.encode("latin-1") + b"\r\n" + body


def byte_routes(name, routes):
    """Registers scenario `name` for a family of one-shot answers: `/<name>/<route>` sends the
    bytes `routes[route](request)` returns, exactly as they are, and closes the connection, so
    no answer's leftovers reach another request (a 404 for an unknown route)."""
    def dispatch(connection, request):
        segments = [s for s in request.path.split("/") if s]
        route = routes.get(segments[1] if len(segments) > 1 else "")
        if route is None:
            connection.send(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return None
        connection.send(route(request))
        return None
    scenario(name)(dispatch)


@scenario("ok")
def _ok(connection, request):
    """A plain, well-behaved 200 on a kept-alive connection: the baseline a test compares with."""
    connection.send(response(200, headers=[("Content-Type", "text/plain")], body="ok"))
    return KEEP


def _serve(sock, number):
    connection = Connection(sock, number)
    try:
        while True:
            request = connection.read_request()
            if request is None:
                return
            handler = SCENARIOS.get(request.scenario)
            if handler is None:
                connection.send(response(404, "Not Found", body="no scenario %r" % request.scenario))
                continue
            if handler(connection, request) != KEEP:
                return
    except (OSError, EOFError):
        return
    finally:
        connection.close()


def _load_scenarios():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.modules.setdefault("hostile_peer", sys.modules[__name__])
    for path in sorted(glob.glob(os.path.join(here, "scenarios_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


def main():
    global _log_file, _connection_counter
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", help="where to append one JSON line per request read")
    parser.add_argument("--max-seconds", type=float, default=600, help="stop after this long whatever happens")
    arguments = parser.parse_args()
    if arguments.log:
        _log_file = open(arguments.log, "a", encoding="utf-8")
    _load_scenarios()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    print(listener.getsockname()[1], flush=True)

    def stop_when_stdin_closes():
        try:
            sys.stdin.read()
        finally:
            os._exit(0)

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    threading.Timer(arguments.max_seconds, lambda: os._exit(0)).start()
    while True:
        sock, _ = listener.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with _counter_lock:
            _connection_counter += 1
            number = _connection_counter
        threading.Thread(target=_serve, args=(sock, number), daemon=True).start()


if __name__ == "__main__":
    main()
