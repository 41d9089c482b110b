#!/usr/bin/env python3
"""What the soak (scripts/soak.py) and its chaos phase (scripts/soak_chaos.py) share: where the
repository and its fixtures are, every time limit and how --sanitized scales them, the flaky
upstream, the calls, and the never-reading clients. Both import this module, neither imports the
other's: one copy of each limit, so scaling it once scales it for both. Standard library only."""

import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "Tests", "Fixtures")


class Timeouts:
    """Every time limit of the soak, in seconds: hang detectors, not speed limits. A sanitized
    daemon is 5 to 15 times slower (ThreadSanitizer rejects the million-alert body in 5 s alone,
    longer beside other work), so --sanitized multiplies each by SANITIZED_SLOWDOWN (`scale`),
    in main() before the worker processes fork, which inherit it."""
    answer = 30  # an answer, or a never-reading client's cut-off past --stuck-timeout (a third of it)
    loaded = 30  # a started daemon's caches all loaded (STATUS=)
    exit = 15  # the daemon's exit after SIGTERM
    workers = 30  # the load's worker processes ending after their last answer
    upstream = 10  # upstream.py answering a change of its answers
    upstream_exit = 5  # upstream.py exiting once told

    @classmethod
    def scale(cls, factor):
        for name in ("answer", "loaded", "exit", "workers", "upstream", "upstream_exit"):
            setattr(cls, name, getattr(cls, name) * factor)


SANITIZED_SLOWDOWN = 4


def log(message):
    print("soak: " + message, flush=True)


# --- the daemon's side of the world -------------------------------------------------------

class Upstream:
    """upstream.py on a temp root holding the good and the abusive bodies."""

    def __init__(self, root):
        self.root = root
        shutil.copy(os.path.join(FIXTURES, "upstream", "alerts.json"), os.path.join(root, "alerts-a.json"))
        shutil.copy(os.path.join(FIXTURES, "alerts_2015-02-14.DERIVED.json"), os.path.join(root, "alerts-b.json"))
        shutil.copy(os.path.join(FIXTURES, "L_stops_2021.csv"), os.path.join(root, "stops.csv"))
        with open(os.path.join(root, "million.json"), "wb") as f:
            f.write(b'{"alerts":[' + b"{}," * 999_999 + b"{}]}")
        with open(os.path.join(root, "invalid.json"), "wb") as f:
            f.write(open(os.path.join(root, "alerts-a.json"), "rb").read().replace(b"Elevator", b"\xffElevator", 1))
        with open(os.path.join(root, "deep.json"), "wb") as f:
            f.write(b'{"alerts":' + b"[" * 100_000 + b"]" * 100_000 + b"}")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(REPO, "Tests", "Upstream", "upstream.py"), "--port", "0", "--root", root,
             "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        line = self.process.stdout.readline().decode()
        if not line.startswith("PORT "):
            raise SystemExit("upstream.py did not start: %r" % line)
        self.port = int(line.split()[1])

    def url(self, key):
        return "http://127.0.0.1:%d/dyn/%s" % (self.port, key)

    def set(self, key, **spec):
        spec.setdefault("etag", False)
        body = json.dumps(spec).encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=Timeouts.upstream) as s:
            s.sendall(b"PUT /set/%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % (key.encode(), len(body)) + body)
            reply = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
        if b" 204 " not in reply.split(b"\r\n", 1)[0]:
            raise RuntimeError("PUT /set/%s: %r" % (key, reply[:100]))

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=Timeouts.upstream_exit)
        except Exception:
            self.process.kill()


ALERT_FAULTS = [
    dict(fixture="alerts-a.json"), dict(fixture="alerts-b.json"), dict(status=503, body="busy"),
    dict(body="<html>502 Bad Gateway</html>"), dict(fixture="million.json"), dict(fixture="invalid.json"),
    dict(fixture="deep.json"), dict(fixture="alerts-a.json", delayMs=1500), dict(body='{"alerts":[{"id":1}]}'),
    dict(fixture="alerts-b.json"), dict(status=404),
]
STATION_FAULTS = [
    dict(fixture="stops.csv"), dict(status=500), dict(body="STOP_ID,MAP_ID\n1,2,3\n"), dict(fixture="stops.csv", delayMs=1500),
    dict(body=""), dict(fixture="stops.csv"),
]


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(Timeouts.answer)
    s.connect(path)
    return s


def call(path, method, params=None, until_closed=False):
    """One request on a fresh connection. `until_closed`: the request is the connection's last
    (its write side is shut), and this returns once the daemon has answered and closed its end,
    so the daemon holds no descriptor of it any more (its end of stream is that event)."""
    message = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        message["params"] = params
    with connect(path) as s:
        s.sendall(json.dumps(message).encode() + b"\n")
        if until_closed:
            s.shutdown(socket.SHUT_WR)
        data = b""
        while not data.endswith(b"\n") or until_closed:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            data += chunk
        if not data.endswith(b"\n"):
            raise RuntimeError("no answer to %s" % method)
    return json.loads(data)


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def read_line(s, buffer=None):
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(1 << 16)
        if not chunk:
            raise RuntimeError("connection closed")
        data += chunk
    return data[:-1]


# A train sheet's `data` ages move every second (protocol.md: sheets are compared without them).
AGE = re.compile(rb'"ageSeconds":\d+')


def ageless(line):
    return AGE.sub(b'"ageSeconds":0', line)


def never_readers(path, stop, stuck_timeout, outcome):
    """Clients that ask for megabytes of answers and read none: each must be cut off."""
    flood = b'{"jsonrpc":"2.0","id":1,"method":"alerts"}\n' * 4000
    opened = closed = 0
    while not stop.is_set():
        s = connect(path)
        s.setblocking(False)
        opened += 1
        try:
            s.send(flood)
        except BlockingIOError:
            pass
        poller = select.poll()
        poller.register(s, select.POLLHUP | select.POLLERR | select.POLLRDHUP)
        deadline = time.monotonic() + stuck_timeout + Timeouts.answer / 3
        hung_up = False
        while time.monotonic() < deadline:
            if poller.poll(200):
                hung_up = True
                break
        s.close()
        if hung_up:
            closed += 1
        else:
            outcome.append("a never-reading client was still open %ds after it stopped reading" % (stuck_timeout + Timeouts.answer / 3))
    outcome.append((opened, closed))
