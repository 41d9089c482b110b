#!/usr/bin/env python3
"""Soak test: the real stopsheetd under mixed, hostile load while its upstream misbehaves.

    scripts/soak.py [--requests N] [--connections C] [--binary PATH] [--chaos-seconds S]

Starts Tests/Upstream/upstream.py as a flaky upstream (every half second the alerts and stations
answers change: good data of two different sets, 5xx, garbage, HTML, invalid UTF-8, a million
alerts, a hang past the HTTP timeout) and the daemon refreshing both caches every second. Then
C connections send N request lines, pipelined: valid requests, garbage lines, oversized lines,
batches, notifications, privileged refreshes; vanishing clients send a burst and leave, and
never-reading clients flood and wait to be cut off.

Checks: every answer is the exact one expected (byte for byte, for whichever good data set the
daemon held: both are learnt before the load), in order; every never-reading client is closed;
the daemon's RSS stays flat (end vs. warm) and it holds the same descriptors after as before
(/proc/PID/fd); it still answers and exits 0 on SIGTERM. Then the memory worst case on a fresh
daemon (scripts/unread_clients.py): 1,000 clients pipelining and never reading keep its peak RSS
under 128 MiB while a reading client is served. With --chaos-seconds, then the chaos phase
(scripts/soak_chaos.py): alerts, stations and lift status all failing at once, reloads, refresh
floods, 200 subscribers; its sheets at the end equal a fresh daemon's. Exit status 0 when all held.
What both phases share, every time limit among it, is scripts/soak_common.py. Standard library only.
"""

import argparse
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import unread_clients
from soak_common import (ALERT_FAULTS, REPO, SANITIZED_SLOWDOWN, STATION_FAULTS, Timeouts, Upstream, ageless, call, connect,
                         log, never_readers, read_line, rss_kb)

MAX_LINE = 65536
HEAD = b'{"jsonrpc":"2.0","id":'
# The memory worst case (issue 10): this many never-reading clients, this peak RSS at most.
UNREAD_CLIENTS = 1000
UNREAD_RSS_LIMIT_KB = 128 * 1024


# --- the daemon's side of the world -------------------------------------------------------

def flaky(upstream, stop, period):
    """Changes both upstream answers every `period` seconds until `stop` is set."""
    rng = random.Random(7)
    while not stop.wait(period):
        upstream.set("alerts", **rng.choice(ALERT_FAULTS))
        upstream.set("stations", **rng.choice(STATION_FAULTS))


def fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


# --- the requests and the answers they must get --------------------------------------------

# kind -> (method, params); each is answered with a result or error that depends at most on which
# good alert set is loaded (stations are only ever the one good set).
KINDS = {
    "sheet": ("stopSheet", {"stopId": "40380"}),
    "sheet-platform": ("stopSheet", {"stopId": "30374"}),
    "sheet-int": ("stopSheet", {"stopId": 40900}),
    "sheet-named": ("stopSheet", {"stopId": "41450", "stationName": "ignored once loaded"}),
    "sheet-bus": ("stopSheet", {"stopId": "1106", "stopType": "bus"}),
    "station": ("station", {"stopId": "40380"}),
    "alerts": ("alerts", None),
    "alerts-stop": ("alerts", {"stopId": "40990"}),
    "version": ("version", None),
    "unknown-stop": ("stopSheet", {"stopId": "49999"}),
    "bad-params": ("stopSheet", {"stopId": True}),
    "no-method": ("launch", {}),
}
KIND_NAMES = sorted(KINDS)


def request_line(kind, ident):
    method, params = KINDS[kind]
    message = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")).encode()


def learn(path, upstream):
    """Each kind's answer tail (after `"id":N,`) under each good alert set, checked for sense."""
    tails = {kind: set() for kind in KINDS}
    for fixture in ("alerts-a.json", "alerts-b.json"):
        upstream.set("alerts", fixture=fixture)
        refreshed = call(path, "refresh", {"what": "alerts"})
        if refreshed.get("result", {}).get("alerts", {}).get("lastError") is not None:
            raise SystemExit("calibration refresh failed: %s" % refreshed)
        with connect(path) as s:
            for kind in KIND_NAMES:
                s.sendall(request_line(kind, 0) + b"\n")
                line = read_line(s)
                prefix = HEAD + b"0,"
                assert line.startswith(prefix), line[:200]
                tails[kind].add(ageless(line)[len(prefix):])
                answer = json.loads(line)
                expected_error = {"unknown-stop": -32001, "bad-params": -32602, "no-method": -32601}.get(kind)
                if expected_error:
                    assert answer["error"]["code"] == expected_error, answer
                else:
                    assert "result" in answer, answer
        sheet = json.loads(HEAD + b"0," + next(iter(tails["sheet"])))["result"]
        assert sheet["stationName"] == "Clark/Lake", sheet
    return {kind: frozenset(values) for kind, values in tails.items()}


# --- load ---------------------------------------------------------------------------------

class Failure(Exception):
    pass


def expect_batch(line, items, tails):
    """A batch answer: '[' elements for the non-notification items, in order, ',' between ']'."""
    if not (line.startswith(b"[") and line.endswith(b"]")):
        raise Failure("batch answer is not an array: %r" % line[:200])
    position = 1
    answered = [(ident, kind) for ident, kind in items if ident is not None]
    for index, (ident, kind) in enumerate(answered):
        head = HEAD + str(ident).encode() + b","
        if not line.startswith(head, position):
            raise Failure("batch element %d: %r" % (index, line[position:position + 200]))
        position += len(head)
        for tail in tails[kind]:
            if line.startswith(tail, position):
                position += len(tail)
                break
        else:
            raise Failure("batch element %d (%s) has an unexpected answer: %r" % (index, kind, line[position:position + 300]))
        if index < len(answered) - 1:
            if line[position:position + 1] != b",":
                raise Failure("batch elements not separated by a comma")
            position += 1
    if position != len(line) - 1:
        raise Failure("trailing bytes in a batch answer: %r" % line[position:position + 100])


def check(line, expectation, tails):
    line = ageless(line)
    kind = expectation[0]
    if kind == "valid":
        _, ident, name = expectation
        head = HEAD + str(ident).encode() + b","
        if not line.startswith(head) or line[len(head):] not in tails[name]:
            raise Failure("answer to %s id %d is not one of the expected: %r" % (name, ident, line[:300]))
    elif kind == "garbage":
        if not line.startswith(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,'):
            raise Failure("garbage line got %r" % line[:300])
    elif kind == "oversized":
        if not line.startswith(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32003,'):
            raise Failure("oversized line got %r" % line[:300])
    elif kind == "batch":
        expect_batch(line, expectation[1], tails)
    elif kind == "health":
        answer = json.loads(line)
        result = answer.get("result") or {}
        if answer.get("id") != expectation[1] or result.get("status") not in ("ready", "degraded") \
                or not result["alerts"]["loaded"] or result["stations"]["count"] != 143:
            raise Failure("health answer: %r" % line[:300])
    elif kind == "refresh":
        answer = json.loads(line)
        result = answer.get("result") or {}
        if answer.get("id") != expectation[1] or "alerts" not in result or "stations" not in result:
            raise Failure("refresh answer: %r" % line[:300])


def make_chunk(rng, next_id, size):
    """A pipelined chunk: (bytes to send, answers expected in order, request lines in it)."""
    parts, expected = [], []
    for _ in range(size):
        roll = rng.random()
        ident = next_id()
        if roll < 0.80:
            kind = rng.choice(KIND_NAMES)
            parts.append(request_line(kind, ident))
            expected.append(("valid", ident, kind))
        elif roll < 0.88:
            # Never JSON (starts with 'x'), never a newline, sometimes not UTF-8.
            garbage = bytes(rng.choice(b"x{[\"}]:,0123 \t\xff\xc0\x80abc") for _ in range(rng.randrange(1, 200)))
            parts.append(b"x" + garbage.replace(b"\n", b" ").replace(b"\r", b" "))
            expected.append(("garbage",))
        elif roll < 0.885:
            parts.append(b'{"jsonrpc":"2.0","id":1,"method":"version","params":{"pad":"' + b"p" * (MAX_LINE + rng.randrange(1, 4096)) + b'"}}')
            expected.append(("oversized",))
        elif roll < 0.93:
            items = []
            for _ in range(rng.randrange(1, 6)):
                kind = rng.choice(KIND_NAMES)
                items.append((None if rng.random() < 0.2 else next_id(), kind))
            parts.append(b"[" + b",".join(request_line(kind, i) for i, kind in items) + b"]")
            if any(i is not None for i, _ in items):
                expected.append(("batch", items))
        elif roll < 0.97:
            parts.append(request_line(rng.choice(KIND_NAMES), None))  # a notification: no answer
        elif roll < 0.9995:
            parts.append(b'{"jsonrpc":"2.0","id":%d,"method":"health"}' % ident)
            expected.append(("health", ident))
        else:
            parts.append(b'{"jsonrpc":"2.0","id":%d,"method":"refresh"}' % ident)
            expected.append(("refresh", ident))
    # Some clients end lines with CRLF.
    terminator = b"\r\n" if rng.random() < 0.1 else b"\n"
    return terminator.join(parts) + terminator, expected, size


def describe(expectation):
    """An expectation as a failure names it: its kind, and the request kinds or id it answers."""
    if expectation is None:
        return "nothing (sending)"
    if expectation[0] == "batch":
        return "a batch of %s" % ", ".join(kind for _, kind in expectation[1])
    return " ".join(str(part) for part in expectation)


def connection_worker(path, index, quota, tails, results, stop):
    rng = random.Random(index)
    counter = [0]

    def next_id():
        counter[0] += 1
        return index * 1_000_000_000 + counter[0]

    sent = checked = vanished = 0
    waiting_for = None
    try:
        s = connect(path)
        buffer = b""
        while sent < quota and not stop.is_set():
            if rng.random() < 0.003:
                # A vanishing client: a burst of requests, then gone without reading a byte.
                with connect(path) as v:
                    data, _, count = make_chunk(rng, next_id, 32)
                    v.sendall(data)
                sent += count
                vanished += 1
                continue
            data, expected, count = make_chunk(rng, next_id, min(64, quota - sent))
            s.sendall(data)
            sent += count
            for expectation in expected:
                waiting_for = expectation
                while b"\n" not in buffer:
                    chunk = s.recv(1 << 18)
                    if not chunk:
                        raise Failure("the daemon closed connection %d" % index)
                    buffer += chunk
                line, buffer = buffer.split(b"\n", 1)
                check(line, expectation, tails)
                checked += 1
        s.close()
        results.put(("ok", sent, checked, vanished, None))
    except Exception as error:  # every failure is reported, none is fatal to the other workers
        results.put(("failed", sent, checked, vanished, "connection %d: %s: %s (waiting for the answer to %s)"
                     % (index, type(error).__name__, error, describe(waiting_for))))


def process_main(path, indices, quotas, tails, results):
    stop = threading.Event()
    threads = [threading.Thread(target=connection_worker, args=(path, i, q, tails, results, stop)) for i, q in zip(indices, quotas)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# --- main ---------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--processes", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "stopsheetd"))
    parser.add_argument("--rss-growth-kb", type=int, default=16 * 1024, help="allowed RSS growth from warm to end")
    parser.add_argument("--chaos-seconds", type=int, default=0,
                        help="then this long the chaos phase (scripts/soak_chaos.py): every source live and failing, reloads, floods")
    parser.add_argument("--sanitized", action="store_true",
                        help="a sanitizer build: every time limit ×%d (soak_common.Timeouts, the chaos phase's too); RSS is reported "
                             "but not judged (freed memory sits in quarantine)" % SANITIZED_SLOWDOWN)
    args = parser.parse_args()
    if args.sanitized:
        Timeouts.scale(SANITIZED_SLOWDOWN)

    work = tempfile.mkdtemp(prefix="stopsheet-soak-")
    path = os.path.join(work, "d.sock")
    upstream = Upstream(work)
    upstream.set("alerts", fixture="alerts-a.json")
    upstream.set("stations", fixture="stops.csv")
    stuck_timeout = 2
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOPSHEETD_") and k not in ("NOTIFY_SOCKET", "LISTEN_FDS", "WATCHDOG_USEC")}
    # The daemon says when both caches have loaded (STATUS=), as it tells systemd.
    notify = unread_clients.notify_socket(work, env)
    stderr = open(os.path.join(work, "stderr.log"), "wb")
    daemon = subprocess.Popen(
        [args.binary, "--socket", path, "--alerts-url", upstream.url("alerts"), "--stations-url", upstream.url("stations"),
         "--alerts-interval", "1", "--stations-interval", "1", "--http-timeout", "1", "--max-line-bytes", str(MAX_LINE),
         # The flapping upstream fails refreshes on purpose; with 1 s intervals the default
         # stale-after (3 × the interval) would turn `data.stale` true whenever a sanitized daemon
         # is slow, and the answers are compared with the fresh ones: staleness is tested elsewhere.
         "--alerts-stale-after", "3600", "--stations-stale-after", "3600",
         "--max-output-bytes", "262144", "--stuck-timeout", str(stuck_timeout), "--max-connections", "256"],
        env=env, stderr=stderr, stdout=subprocess.DEVNULL)
    problems = []
    stop_flaky = threading.Event()
    try:
        if unread_clients.wait_for_status(notify, daemon, unread_clients.both_loaded, Timeouts.loaded) is None:
            raise SystemExit("the daemon did not load its data (stderr in %s)" % work)
        # From here on nobody reads it: the daemon drops what it cannot send, as documented.
        notify.close()
        health = call(path, "health")["result"]
        if not (health["alerts"]["loaded"] and health["stations"]["loaded"]):
            raise SystemExit("STATUS= said loaded, health did not: %r" % health)

        tails = learn(path, upstream)

        def settle():
            """Both upstreams good, two refresh rounds: the state the fd counts compare in."""
            upstream.set("alerts", fixture="alerts-a.json")
            upstream.set("stations", fixture="stops.csv")
            # `refresh` answers once a round is done on each refresher's own thread, so right
            # after it no periodic fetch (interval 1 s) is holding a half-open connection.
            for _ in range(2):
                call(path, "refresh", {"what": "all"})
            # Every other client hung up before this probe's request was read, so the round that
            # answers it has handled their hang-ups; and it returns once the daemon closed the
            # probe's own connection too.
            open_connections = call(path, "health", until_closed=True)["result"]["connections"]
            if open_connections != 1:
                log("settle: %d other connections still open" % (open_connections - 1))

        settle()
        fds_before, rss_before = fd_count(daemon.pid), rss_kb(daemon.pid)
        log("daemon pid %d: %d fds, RSS %d kB before the load" % (daemon.pid, fds_before, rss_before))

        flaky_thread = threading.Thread(target=flaky, args=(upstream, stop_flaky, 0.5))
        flaky_thread.start()
        stop_readers = threading.Event()
        reader_outcome = []
        reader_thread = threading.Thread(target=never_readers, args=(path, stop_readers, stuck_timeout, reader_outcome))
        reader_thread.start()

        # Connections spread over processes, so the driver is not the bottleneck on one core.
        per = [args.requests // args.connections + (1 if i < args.requests % args.connections else 0) for i in range(args.connections)]
        results = multiprocessing.Queue()
        groups = [list(range(p, args.connections, args.processes)) for p in range(args.processes)]
        started = time.monotonic()
        workers = [multiprocessing.Process(target=process_main, args=(path, g, [per[i] for i in g], tails, results)) for g in groups if g]
        for w in workers:
            w.start()

        samples = []
        finished = []
        while len(finished) < args.connections:
            try:
                finished.append(results.get(timeout=1))
            except Exception:
                pass
            samples.append((time.monotonic() - started, rss_kb(daemon.pid)))
            if daemon.poll() is not None:
                problems.append("the daemon exited during the load with status %s" % daemon.returncode)
                break
        for w in workers:
            w.join(timeout=Timeouts.workers)
        elapsed = time.monotonic() - started
        stop_readers.set()
        reader_thread.join()
        stop_flaky.set()
        flaky_thread.join()

        sent = sum(r[1] for r in finished)
        checked = sum(r[2] for r in finished)
        vanished = sum(r[3] for r in finished)
        problems += [r[4] for r in finished if r[0] != "ok"]
        log("%d request lines on %d connections in %.1f s (%.0f/s); %d answers checked; %d vanishing clients"
            % (sent, args.connections, elapsed, sent / max(elapsed, 0.001), checked, vanished))
        readers = [o for o in reader_outcome if isinstance(o, tuple)]
        problems += [o for o in reader_outcome if isinstance(o, str)]
        if readers:
            log("never-reading clients: %d opened, %d cut off by the daemon" % readers[0])

        health = call(path, "health")["result"]
        refreshes = health["alerts"]
        log("after the load: status %s, alerts lastError %r" % (health["status"], refreshes["lastError"]))

        settle()
        fds_after, rss_after = fd_count(daemon.pid), rss_kb(daemon.pid)
        warm = [rss for t, rss in samples if t >= elapsed * 0.25] or [rss_before]
        rss_warm, rss_peak = warm[0], max([rss for _, rss in samples] or [rss_before])
        log("RSS: %d kB before, %d kB warm (25%% in), %d kB peak, %d kB after" % (rss_before, rss_warm, rss_peak, rss_after))
        log("fds: %d before, %d after" % (fds_before, fds_after))
        if fds_after != fds_before:
            problems.append("descriptor count changed: %d before, %d after: %s" % (fds_before, fds_after, sorted(os.listdir("/proc/%d/fd" % daemon.pid))))
        if rss_after - rss_warm > args.rss_growth_kb and not args.sanitized:
            problems.append("RSS grew by %d kB from warm to end (allowed %d)" % (rss_after - rss_warm, args.rss_growth_kb))
        if sent < args.requests:
            problems.append("only %d of %d requests were sent" % (sent, args.requests))
        if call(path, "version").get("result", {}).get("name") != "stopsheetd":
            problems.append("the daemon no longer answers")
    finally:
        stop_flaky.set()
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
            try:
                code = daemon.wait(timeout=Timeouts.exit)
                if code != 0:
                    problems.append("the daemon exited %d on SIGTERM" % code)
            except subprocess.TimeoutExpired:
                problems.append("the daemon did not exit within %d s of SIGTERM" % Timeouts.exit)
                daemon.kill()
        upstream.stop()
        stderr.close()

    unread_clients.raise_descriptor_limit(UNREAD_CLIENTS)
    worst = unread_clients.run(args.binary, UNREAD_CLIENTS, 4)
    log("memory worst case: " + unread_clients.describe(worst))
    if worst["rss_peak_kb"] > UNREAD_RSS_LIMIT_KB and not args.sanitized:
        problems.append("%d never-reading clients took the daemon to %d kB RSS (bound %d kB)"
                        % (UNREAD_CLIENTS, worst["rss_peak_kb"], UNREAD_RSS_LIMIT_KB))

    if args.chaos_seconds > 0:
        import soak_chaos
        problems += soak_chaos.run(args.binary, work, args.chaos_seconds, args.sanitized)

    with open(os.path.join(work, "stderr.log"), "rb") as f:
        journal = f.read().split(b"\n")
    failed_refreshes = sum(1 for line in journal if b"STOPSHEET_EVENT=refresh_failed" in line)
    log("%d failed refreshes logged with their reason (the last good data kept each time)" % failed_refreshes)
    if any(b"Sanitizer:" in line for line in journal):
        problems.append("the daemon's sanitizer reported: %s" % b"\n".join(journal)[-3000:].decode(errors="replace"))
    if any(line.startswith(b"<2>") or line.startswith(b"<3>") for line in journal):
        problems.append("the daemon logged errors: %s" % [l for l in journal if l[:3] in (b"<2>", b"<3>")][:3])
    if problems:
        for problem in problems[:20]:
            log("FAIL: " + problem)
        log("daemon stderr kept in %s" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    log("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
