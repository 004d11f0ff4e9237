#!/usr/bin/env python3
"""A TLS-terminating relay for tests (Python stdlib only).

Accepts TLS on 127.0.0.1:PORT with the given certificate and key, opens a plain TCP
connection to 127.0.0.1:TARGET for each client, and copies bytes both ways until either side
closes. It puts TLS in front of a peer that speaks none (tinyproxy: an `https://` proxy).
Each connection whose TLS handshake completed is logged to --log as one line, `handshake`
(a connection that only probes whether the port is open is not). The relay ends when its
standard input closes (its starter ended or stopped it).
"""

import argparse
import os
import select
import socket
import ssl
import sys
import threading


def relay(secure, upstream):
    """Copies both ways on this one thread (an SSL object must not be read and written from
    two threads at once) until either side ends."""
    while True:
        if secure.pending():
            readable = [secure]
        else:
            readable, _, _ = select.select([secure, upstream], [], [])
        for source in readable:
            destination = upstream if source is secure else secure
            data = source.recv(65536)
            if not data:
                return
            destination.sendall(data)


def serve(client, context, target, log, lock):
    try:
        secure = context.wrap_socket(client, server_side=True)
    except OSError:
        client.close()
        return
    with lock:
        log.write("handshake\n")
        log.flush()
    try:
        with socket.create_connection(("127.0.0.1", target)) as upstream:
            relay(secure, upstream)
    except OSError:
        pass
    finally:
        try:
            secure.close()
        except OSError:
            pass


def accept_loop(listener, context, target, log):
    lock = threading.Lock()
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, context, target, log, lock), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    context.set_alpn_protocols(["http/1.1"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", arguments.port))
    listener.listen(128)
    log = open(arguments.log, "a", encoding="utf-8")
    threading.Thread(target=accept_loop, args=(listener, context, arguments.target, log), daemon=True).start()
    sys.stdin.buffer.read()
    os._exit(0)


if __name__ == "__main__":
    main()
