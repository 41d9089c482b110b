#!/usr/bin/env python3
"""The worst case for the daemon's memory: clients that pipeline requests and never read.

    scripts/unread_clients.py [--clients N[,N...]] [--binary PATH] [--max-rss-mib M]

For each N: starts the real stopsheetd on the fixed real data (file:// fixtures), opens N
connections that send `stopSheet` lines until their socket takes no more and then read nothing,
and meanwhile one well-behaved client asks and reads, one request at a time. Prints, per N, the
daemon's peak RSS (VmHWM from /proc/PID/status) and the well-behaved client's p50/p99 latency.

The RSS is a bound of the design (per-client output limit, the daemon-wide --max-buffered-bytes
budget, one answer and one small read per connection over it): with --max-rss-mib the exit status
is 1 when a peak goes over it. The latency is for reading, not judging (the machine may be loaded).
Standard library only; scripts/soak.py and scripts/bench.sh run it.
"""

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

from soak_common import FIXTURES, REPO, Timeouts
REQUEST = b'{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40380"}}\n'


def status_kb(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def ask(s, buffered):
    """One request, its answer line read whole; the time it took in µs."""
    started = time.monotonic()
    s.sendall(REQUEST)
    while b"\n" not in buffered[0]:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("the daemon closed the well-behaved client")
        buffered[0] += chunk
    line, buffered[0] = buffered[0].split(b"\n", 1)
    if b'"result"' not in line:
        raise RuntimeError("unexpected answer: %r" % line[:200])
    return (time.monotonic() - started) * 1e6


def notify_socket(work, env):
    """A NOTIFY_SOCKET in `work` for the daemon started with `env` (set there): the daemon says
    there, as it tells systemd, when it serves and what it has loaded."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(os.path.join(work, "notify.sock"))
    env["NOTIFY_SOCKET"] = os.path.join(work, "notify.sock")
    return notify


def both_loaded(status):
    """A STATUS= line saying both caches are loaded: `serving 143 stations, 17 train alerts…`."""
    return status.startswith("serving ") and not status.startswith("serving no ") and " no train alerts" not in status


def wait_for_status(notify, daemon, predicate, timeout):
    """The daemon's own word, on its NOTIFY_SOCKET: the first STATUS= that `predicate` accepts
    within `timeout` seconds, else None (also when the daemon exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and daemon.poll() is None:
        notify.settimeout(max(0.01, min(1.0, deadline - time.monotonic())))
        try:
            datagram = notify.recv(65536).decode(errors="replace")
        except socket.timeout:
            continue
        for line in datagram.split("\n"):
            if line.startswith("STATUS=") and predicate(line[7:]):
                return line[7:]
    return None


def flood(s, block):
    """Sends until the socket takes no more (the daemon stopped reading); bytes taken."""
    s.setblocking(False)
    taken = 0
    while True:
        try:
            sent = s.send(block)
        except (BlockingIOError, InterruptedError):
            return taken
        except OSError:
            return taken
        taken += sent
        if sent == 0:
            return taken


def run(binary, clients, seconds):
    work = tempfile.mkdtemp(prefix="stopsheet-unread-")
    path = os.path.join(work, "d.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOPSHEETD_") and k not in ("NOTIFY_SOCKET", "LISTEN_FDS", "WATCHDOG_USEC")}
    notify = notify_socket(work, env)
    daemon = subprocess.Popen(
        [binary, "--socket", path, "--alerts-url", "file://" + os.path.join(FIXTURES, "alerts_2015-02-14.DERIVED.json"),
         "--stations-url", "file://" + os.path.join(FIXTURES, "L_stops_2021.csv"), "--max-connections", str(clients + 64),
         "--stuck-timeout", "600", "--log-level", "error"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    held = []
    try:
        if wait_for_status(notify, daemon, both_loaded, Timeouts.loaded) is None:
            raise SystemExit("stopsheetd did not start")
        notify.close()  # unread from here on: the daemon drops what it cannot send
        good = connect(path)
        buffered = [b""]
        ask(good, buffered)
        rss_start = status_kb(daemon.pid, "VmRSS")
        block = REQUEST * 4096
        latencies = []
        offered = 0
        for index in range(clients):
            s = connect(path)
            held.append(s)
            offered += flood(s, block)
            if index % 8 == 7:
                latencies.append(ask(good, buffered))
        # Everyone flooded once; go round again until the daemon takes nothing more (all paused),
        # asking on the good client throughout.
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            more = sum(flood(s, block) for s in held)
            offered += more
            for _ in range(20):
                latencies.append(ask(good, buffered))
            if more == 0 and time.monotonic() > end - seconds / 2:
                break
        for _ in range(200):
            latencies.append(ask(good, buffered))
        rss_now, rss_peak = status_kb(daemon.pid, "VmRSS"), status_kb(daemon.pid, "VmHWM")
        latencies.sort()
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, len(latencies) * 99 // 100)]
        return {"clients": clients, "rss_start_kb": rss_start, "rss_kb": rss_now, "rss_peak_kb": rss_peak,
                "offered_mb": offered / 1e6, "asked": len(latencies), "p50_us": p50, "p99_us": p99}
    finally:
        for s in held:
            s.close()
        daemon.terminate()
        try:
            daemon.wait(timeout=Timeouts.exit)
        except subprocess.TimeoutExpired:
            daemon.kill()
        subprocess.run(["rm", "-rf", work])


def raise_descriptor_limit(clients):
    """Each client is a descriptor here and in the daemon (which inherits this limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = clients + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


def describe(result):
    return ("%4d never-reading clients (%.0f MB of requests taken): RSS %.1f MiB at start, %.1f MiB now, peak %.1f MiB; "
            "a reading client meanwhile: p50 %.0f µs, p99 %.0f µs over %d requests"
            % (result["clients"], result["offered_mb"], result["rss_start_kb"] / 1024, result["rss_kb"] / 1024,
               result["rss_peak_kb"] / 1024, result["p50_us"], result["p99_us"], result["asked"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="1000")
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "stopsheetd"))
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--max-rss-mib", type=float)
    parser.add_argument("--json", action="store_true", help="one JSON object per line instead of text")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    raise_descriptor_limit(max(counts))
    failed = False
    for count in counts:
        result = run(args.binary, count, args.seconds)
        over = args.max_rss_mib is not None and result["rss_peak_kb"] > args.max_rss_mib * 1024
        failed = failed or over
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print("unread: " + describe(result) + (" — peak OVER %.0f MiB" % args.max_rss_mib if over else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
