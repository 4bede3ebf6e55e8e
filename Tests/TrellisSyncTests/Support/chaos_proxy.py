#!/usr/bin/env python3
"""An HTTP/1.1 proxy on 127.0.0.1 that breaks connections the way networks do, for the sync
tests: one request per connection, relayed byte for byte to the backend (Host header kept,
so a redirect points back at the proxy), unless a fault is drawn for it.

    python3 chaos_proxy.py --port P --backend-port B [--seed S] [--fault-rate R]

Faults, drawn with a random.Random(seed) per request in arrival order (so a run whose
client sends the same requests in the same order meets the same faults), or queued by the
test with `POST /__proxy__/fault {"fault": NAME, "method": "PUT"}` (taken before drawing):

    drop            the connection is reset before anything is forwarded
    lose-answer     forwarded, then the connection is reset: the server's work is done, its answer lost
    hang-up         forwarded, then the connection is closed (FIN) with no answer
    duplicate       forwarded twice (the server acts twice); the second answer is relayed
    delay           forwarded after 1 to 50 ms
    garbage         forwarded, then answered 200 with JSON cut short
    html-error      answered 502 with an HTML page, as a front proxy would

`GET /__proxy__/log` answers the requests seen, one "METHOD /path FAULT" line each.
"""

import argparse
import json
import random
import socket
import struct
import sys
import threading
import time

FAULTS = ["drop", "lose-answer", "hang-up", "duplicate", "delay", "garbage", "html-error"]


class Proxy:
    def __init__(self, backend_port, seed, rate):
        self.backend_port = backend_port
        self.random = random.Random(seed)
        self.rate = rate
        self.queued = []
        self.log = []
        self.lock = threading.Lock()

    def draw(self, method):
        with self.lock:
            for index, (queued_method, fault) in enumerate(self.queued):
                if queued_method in (None, method):
                    del self.queued[index]
                    return fault
            if self.rate > 0 and self.random.random() < self.rate:
                return self.random.choice(FAULTS)
            return None

    def handle(self, client):
        try:
            head, body = read_request(client)
            if head is None:
                return
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
            method, target = request_line.split(" ")[:2]
            if target.startswith("/__proxy__/"):
                self.control(client, method, target, body)
                return
            fault = self.draw(method)
            with self.lock:
                self.log.append(f"{method} {target} {fault or '-'}")
            if fault == "drop":
                reset(client)
                return
            if fault == "html-error":
                page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: %d\r\n"
                               b"Connection: close\r\n\r\n%s" % (len(page), page))
                return
            if fault == "delay":
                time.sleep(self.random.uniform(0.001, 0.05))
            answer = self.forward(head, body)
            if fault == "duplicate":
                answer = self.forward(head, body)
            if fault == "lose-answer" or answer is None:
                reset(client)
                return
            if fault == "hang-up":
                client.shutdown(socket.SHUT_RDWR)
                return
            if fault == "garbage":
                cut = b'[{"id": "1", "title": "cut sh'
                client.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                               b"Connection: close\r\n\r\n%s" % (len(cut), cut))
                return
            client.sendall(answer)
        except OSError:
            pass
        finally:
            try:
                client.close()
            except OSError:
                pass

    def forward(self, head, body):
        """The backend's whole answer (it closes after one), or None when it cannot be reached."""
        lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
        request = b"\r\n".join(lines + [b"Connection: close"]) + b"\r\n\r\n" + body
        try:
            with socket.create_connection(("127.0.0.1", self.backend_port), timeout=30) as backend:
                backend.sendall(request)
                chunks = []
                while True:
                    chunk = backend.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
                return b"".join(chunks) or None
        except OSError:
            return None

    def control(self, client, method, target, body):
        if method == "POST" and target == "/__proxy__/fault":
            request = json.loads(body or b"{}")
            if request.get("fault") not in FAULTS:
                answer(client, 400, {"error": f"unknown fault {request.get('fault')!r}, known: {FAULTS}"})
                return
            with self.lock:
                self.queued.append((request.get("method"), request["fault"]))
            answer(client, 200, {"queued": len(self.queued)})
        elif method == "GET" and target == "/__proxy__/log":
            with self.lock:
                answer(client, 200, {"requests": list(self.log), "queued": len(self.queued)})
        else:
            answer(client, 404, {"error": "no such control"})


def read_request(client):
    """The request's head (through the blank line) and body (by Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = client.recv(65536)
        if not chunk:
            break
        body += chunk
    return head, body


def reset(client):
    """Closes with RST (SO_LINGER 0), as a crashed peer or a dropped network does."""
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()


def answer(client, status, payload):
    body = json.dumps(payload).encode()
    client.sendall(b"HTTP/1.1 %d Proxy\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                   b"Connection: close\r\n\r\n%s" % (status, len(body), body))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--backend-port", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fault-rate", type=float, default=0.0)
    options = parser.parse_args()
    proxy = Proxy(options.backend_port, options.seed, options.fault_rate)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", options.port))
    listener.listen(64)
    print(f"listening on 127.0.0.1:{options.port}", file=sys.stderr, flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=proxy.handle, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
