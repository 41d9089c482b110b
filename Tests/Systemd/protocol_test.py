#!/usr/bin/env python3
"""Test 2: the daemon's side of the systemd protocols, against real systemd tools.

Runs in a private mount namespace with tmpfs on /run/systemd and /run/log (and /var/log/journal),
where a real systemd-journald listens; the real daemon is started by systemd-socket-activate (the
real LISTEN_FDS handoff, exec on the first connection) with NOTIFY_SOCKET pointing at a receiver
owned by this test. Nothing reaches the host's journal.

Checks: no systemd at all -> works and logs to stderr; READY=1 only once serving; exec -> READY
time; STATUS; WATCHDOG=1 spacing, and no pings while the process is stopped; SIGHUP -> RELOADING=1
with MONOTONIC_USEC, configuration re-read, READY=1; SIGTERM -> STOPPING=1 and exit 0; the journal
entries and their fields read back with `journalctl -o json`; refresh_failed with UPSTREAM,
UPSTREAM_URL, HTTP_STATUS, DURATION_MS; a non-stream socket refused."""

import http.server
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtest
from sdtest import field

MARKER = "STOPSHEETD_PROTOCOL_TEST_NAMESPACE"
WATCHDOG_USEC = 2_000_000
HEALTH = {"jsonrpc": "2.0", "id": 1, "method": "health"}
STATUS_RE = re.compile(r"serving \d+ stations, \d+ train alerts")


class Daemon:
    """One daemon process with its output kept in files for failure reports."""

    def __init__(self, tmp, name, command, env):
        self.name = name
        self.out_path = os.path.join(tmp, f"{name}.out")
        self.out = open(self.out_path, "w")
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=self.out,
                                        stderr=subprocess.STDOUT)
        self.pid = self.process.pid

    def output(self):
        with open(self.out_path, errors="replace") as f:
            return f.read()

    def wait_for_output(self, text, timeout):
        """True once the process has written `text` (inotify on its output file)."""
        return sdtest.wait_for_file(self.out_path, lambda written: text in written, timeout)

    def tail(self, lines=15):
        return " | ".join(self.output().strip().splitlines()[-lines:])

    def signal(self, number):
        if self.process.poll() is None:
            os.kill(self.pid, number)

    def stop(self, timeout=15):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.out.close()
        return self.process.returncode


def base_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("STOPSHEETD_", "STOPSHEET_INSTANCE", "NOTIFY_SOCKET", "WATCHDOG_", "LISTEN_", "JOURNAL_STREAM"))}
    env.update(extra)
    return env


def try_rpc(path, message=HEALTH, timeout=5.0):
    try:
        return sdtest.rpc(path, message["method"], message.get("params"), timeout=timeout)
    except (OSError, ValueError) as error:
        return {"error": repr(error)}


def raw_line(path, line, timeout=5.0):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall(line)
        return sdtest.read_line(s).decode(errors="replace")


def entries_of(pid, *matches, wait=3.0, predicate=None):
    """The daemon's journal entries (optionally those matching), waiting for journald to catch
    up: for the first of them, told by `journalctl --follow`."""
    return sdtest.journal_wait(f"_PID={pid}", *matches, predicate=predicate, timeout=wait)


def event(pid, name, wait=3.0):
    found = entries_of(pid, f"STOPSHEET_EVENT={name}", wait=wait)
    return found[0] if found else None


def has_fields(entry, names):
    missing = [n for n in names if field(entry or {}, n) in (None, "")]
    return not missing, f"missing {missing}" if missing else ""


# ------------------------------------------------------------------------------------ the phases

def phase_plain(results, binary, tmp):
    """No NOTIFY_SOCKET, no journal socket: the daemon must still serve, logging to stderr."""
    sock = os.path.join(tmp, "plain.sock")
    daemon = Daemon(tmp, "plain", [binary, "--demo", "--socket", sock], base_env())
    answer = sdtest.wait_until_loaded(sock, 20) and try_rpc(sock)
    results.check("without systemd: serves on --socket", bool(answer), daemon.tail())
    text = daemon.output()
    results.check("without a journal socket: logs go to stderr",
                  "STOPSHEET_EVENT=start" in text or re.search(r"^<[0-7]>", text, re.M), daemon.tail())
    running = daemon.process.poll() is None
    code = daemon.stop()
    results.check("without systemd: SIGTERM -> exit 0", running and code == 0,
                  f"{'exit' if running else 'had already exited with'} {code}: {daemon.tail()}")


def start_journald(results, tmp):
    journald = next((p for p in ("/lib/systemd/systemd-journald", "/usr/lib/systemd/systemd-journald") if os.path.exists(p)), None)
    if not journald:
        results.check("systemd-journald is installed", False, "no /lib/systemd/systemd-journald")
        return None
    process = subprocess.Popen([journald], stdin=subprocess.DEVNULL, stdout=open(os.path.join(tmp, "journald.out"), "w"),
                               stderr=subprocess.STDOUT)
    up = sdtest.wait_for_path("/run/systemd/journal/socket", 10)
    results.check("private systemd-journald is listening", up, "no /run/systemd/journal/socket after 10 s")
    return process if up else None


def phase_activated(results, binary, tmp):
    """systemd-socket-activate + NOTIFY_SOCKET: readiness, status, watchdog, reload, stop, journal."""
    sock = os.path.join(tmp, "activated.sock")
    conf = os.path.join(tmp, "stopsheetd.conf")
    with open(conf, "w") as f:
        f.write("# written by protocol_test.py\nSTOPSHEETD_DEMO=true\nSTOPSHEETD_LOG_LEVEL=notice\n")
    notify = sdtest.NotifyReceiver(os.path.join(tmp, "notify.sock"))
    command = ["systemd-socket-activate", "-l", sock, "--fdname=stopsheetd.socket",
               "-E", f"NOTIFY_SOCKET={notify.path}", "-E", f"WATCHDOG_USEC={WATCHDOG_USEC}",
               binary, "--config", conf]
    daemon = Daemon(tmp, "activated", command, base_env())
    try:
        _activated(results, daemon, notify, sock, conf)
    finally:
        code = daemon.stop()
        notify.close()
    return daemon, code


def _activated(results, daemon, notify, sock, conf):
    # Its own word, written once it listens (the socket file exists from bind, a moment before).
    if not daemon.wait_for_output("Listening on", 10):
        results.check("systemd-socket-activate is listening", False, daemon.tail())
        return

    # Socket activation: the first connection makes systemd-socket-activate exec the daemon (same
    # pid); the request waits in the backlog until the daemon serves it.
    first = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    first.settimeout(30)
    exec_at = time.monotonic()
    first.connect(sock)
    first.sendall(b'{"jsonrpc":"2.0","id":7,"method":"health"}\n')

    ready = notify.wait(lambda f: f.get("READY") == "1", 30)
    if not results.check("READY=1 sent", ready is not None, daemon.tail()):
        return
    ready_index, ready_at, ready_pid, ready_fields = ready
    results.check("READY=1 comes from the daemon's own pid", ready_pid == daemon.pid, f"pid {ready_pid}, daemon {daemon.pid}")
    results.note(f"exec -> READY=1: {(ready_at - exec_at) * 1000:.0f} ms")
    try:
        answer = sdtest.read_line(first)
        answered_at = time.monotonic()
        ok = b'"id":7' in answer and b'"result"' in answer
        results.check("the connection that activated the daemon is answered", ok, answer[:200])
    except OSError as error:
        results.check("the connection that activated the daemon is answered", False, repr(error))
    finally:
        first.close()
    fresh = try_rpc(sock, timeout=2)
    results.check("at READY=1 a new client is served", "result" in fresh, str(fresh)[:200])
    before = [m for m in notify.snapshot()[:ready_index] if "READY" in m[2]]
    results.check("READY=1 sent exactly once at start-up", not before, f"earlier: {before}")

    status = notify.wait(lambda f: STATUS_RE.search(f.get("STATUS", "")), 30)
    text = status[3]["STATUS"] if status else (ready_fields.get("STATUS") or "")
    results.check("STATUS= tells the cache counts", status is not None and len(text) <= 200, repr(text), info=repr(text))

    # Watchdog: pings every WATCHDOG_USEC/2 from the serving loop; five of them, awaited.
    start = next((i for i, (when, _, _) in enumerate(notify.snapshot()) if when > ready_at), len(notify.snapshot()))
    for _ in range(5):
        ping = notify.wait(lambda f: f.get("WATCHDOG") == "1", 2 * WATCHDOG_USEC / 1e6, start=start)
        if ping is None:
            break
        start = ping[0] + 1
    pings = [when for when, pid, f in notify.snapshot() if f.get("WATCHDOG") == "1" and when > ready_at]
    gaps = [b - a for a, b in zip(pings, pings[1:])]
    expected = WATCHDOG_USEC / 1e6 / 2
    if len(gaps) >= 2:
        median = statistics.median(gaps)
        ok = 0.7 * expected <= median <= 1.3 * expected and max(gaps) < WATCHDOG_USEC / 1e6 and min(gaps) > 0.4 * expected
        results.check(f"WATCHDOG=1 about every WATCHDOG_USEC/2 ({expected:.1f}s)", ok,
                      f"gaps {[round(g, 2) for g in gaps]}", info=f"median {median:.2f}s, max {max(gaps):.2f}s")
    else:
        results.check(f"WATCHDOG=1 about every WATCHDOG_USEC/2 ({expected:.1f}s)", False, f"only {len(pings)} pings")

    # A wedged server must stop pinging (SIGSTOP freezes the serving loop along with the rest).
    daemon.signal(signal.SIGSTOP)
    stopped_at = time.monotonic()
    # A wait that must see nothing: two ping intervals and a half of real time, no event to end it.
    time.sleep(2 * expected + 0.5)
    # 0.3 s of grace for a ping sent just before the stop and received late on a busy machine;
    # a loop that kept running would still ping at least once in the rest of the window.
    late = [when for when, pid, f in notify.snapshot() if f.get("WATCHDOG") == "1" and when > stopped_at + 0.3]
    results.check("no WATCHDOG=1 while the serving loop is wedged", not late, f"{len(late)} pings while stopped")
    daemon.signal(signal.SIGCONT)
    resumed_at = time.monotonic()
    again = notify.wait(lambda f: f.get("WATCHDOG") == "1", 2 * expected + 1, start=len(notify.snapshot()))
    results.check("pings resume once the loop runs again", again is not None and again[1] - resumed_at < WATCHDOG_USEC / 1e6,
                  "no ping after SIGCONT")

    # Quiet when healthy: at the default level, requests and even bad requests leave no entry.
    for _ in range(20):
        try_rpc(sock, timeout=2)
    raw_line(sock, b"{not json\n")
    # Then a reload with the file unchanged: its entry (notice) is sent after anything those
    # requests logged, and journald stores one sender's entries in the order sent, so once the
    # reload's entry is in the journal (the event), so is any entry of theirs.
    mark = len(notify.snapshot())
    daemon.signal(signal.SIGHUP)
    barrier = notify.wait(lambda f: f.get("READY") == "1", 30, start=mark) and entries_of(daemon.pid, "STOPSHEET_EVENT=reload", wait=10)
    results.check("a reload with the file unchanged is logged (the barrier for the next check)", bool(barrier), daemon.tail())
    chatty = [e for e in sdtest.journal_entries(f"_PID={daemon.pid}") if int(field(e, "PRIORITY") or 0) >= 6]
    results.check("at the default level a healthy daemon logs nothing per request", not chatty,
                  f"{len(chatty)} info/debug entries, e.g. {field(chatty[0], 'MESSAGE') if chatty else ''!r}")

    # SIGHUP: RELOADING=1 + MONOTONIC_USEC, the config file re-read (log level -> debug), READY=1.
    with open(conf, "w") as f:
        f.write("# written by protocol_test.py\nSTOPSHEETD_DEMO=true\nSTOPSHEETD_LOG_LEVEL=debug\n")
    mark = len(notify.snapshot())
    before_usec = sdtest.monotonic_usec()
    daemon.signal(signal.SIGHUP)
    reloading = notify.wait(lambda f: f.get("RELOADING") == "1", 10, start=mark)
    after_usec = sdtest.monotonic_usec()
    if results.check("SIGHUP -> RELOADING=1", reloading is not None, daemon.tail()):
        stamp = reloading[3].get("MONOTONIC_USEC", "")
        results.check("RELOADING=1 carries MONOTONIC_USEC= of CLOCK_MONOTONIC",
                      stamp.isdigit() and before_usec <= int(stamp) <= after_usec,
                      f"MONOTONIC_USEC={stamp!r}, expected between {before_usec} and {after_usec}")
        reready = notify.wait(lambda f: f.get("READY") == "1", 30, start=reloading[0] + 1)
        results.check("then READY=1 once reloaded", reready is not None, daemon.tail(),
                      info=f"{(reready[1] - reloading[1]) * 1000:.0f} ms" if reready else "")
    results.check("journal: reload event", event(daemon.pid, "reload") is not None, "no STOPSHEET_EVENT=reload")

    # The re-read log level shows: refreshes (info) and client errors (debug) are now logged.
    refreshes = entries_of(daemon.pid, "STOPSHEET_EVENT=refresh", wait=10,
                           predicate=lambda e: field(e, "UPSTREAM") == "stations")
    refresh = refreshes[0] if refreshes else None
    results.check("reload re-read the config file (info-level refresh entries appear)", refresh is not None,
                  "no STOPSHEET_EVENT=refresh UPSTREAM=stations entry after switching the file to debug")
    if refresh:
        ok, why = has_fields(refresh, ["UPSTREAM_URL", "DURATION_MS", "STATION_COUNT"])
        results.check("journal: refresh entry has UPSTREAM, UPSTREAM_URL, DURATION_MS, STATION_COUNT", ok, why)
    alerts = entries_of(daemon.pid, "STOPSHEET_EVENT=refresh", "UPSTREAM=alerts", wait=5)
    ok, why = has_fields(alerts[0] if alerts else None, ["ALERT_COUNT", "DURATION_MS"])
    results.check("journal: alerts refresh entry has ALERT_COUNT", ok, why)

    raw_line(sock, b"{not json\n")
    errors = entries_of(daemon.pid, "STOPSHEET_EVENT=client_error", wait=5)
    if results.check("journal: client_error logged (at debug)", bool(errors), "no STOPSHEET_EVENT=client_error"):
        entry = errors[-1]
        results.check("client_error carries PEER_UID/PEER_PID of the client",
                      field(entry, "PEER_UID") == str(os.getuid()) and field(entry, "PEER_PID") == str(os.getpid()),
                      f"PEER_UID={field(entry, 'PEER_UID')} PEER_PID={field(entry, 'PEER_PID')}, "
                      f"expected {os.getuid()}/{os.getpid()}")
    try_rpc(sock, {"method": "stopSheet", "params": {"stopId": "49999"}})
    station = entries_of(daemon.pid, "STATION_ID=49999", wait=3)
    results.check("journal: a request about a station carries STATION_ID", bool(station),
                  "no entry with STATION_ID=49999 after stopSheet of an unknown station")

    # The binary under test is what ships (the release build, in `make test`), and only these
    # tests run it: its answers must be whole, not only its process alive. 200 pipelined requests
    # take the exact-request path and the sheet cache, as a client in a hurry does.
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(sock)
        line = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "stopSheet", "params": {"stopId": "40380"}}).encode() + b"\n"
        s.sendall(line * 200)
        answers = []
        try:
            with s.makefile("rb") as lines:
                for _ in range(200):
                    answers.append(json.loads(lines.readline()))
        except (OSError, ValueError) as error:
            answers.append({"error": repr(error)})
    whole = [a for a in answers if isinstance(a.get("result"), dict) and a["result"].get("stationName") == "Clark/Lake"
             and "accessibilityButton" in a["result"] and "data" in a["result"]]
    results.check("200 pipelined stopSheet requests each get the whole sheet of Clark/Lake", len(whole) == 200,
                  f"{len(whole)} of 200 whole; the first other: {next((a for a in answers if a not in whole), None)!r:.300}")

    # SIGTERM: STOPPING=1, then exit 0.
    mark = len(notify.snapshot())
    daemon.signal(signal.SIGTERM)
    stopping = notify.wait(lambda f: f.get("STOPPING") == "1", 10, start=mark)
    results.check("SIGTERM -> STOPPING=1", stopping is not None, daemon.tail())
    try:
        code = daemon.process.wait(15)
    except subprocess.TimeoutExpired:
        code = None
    results.check("SIGTERM -> exit 0", code == 0, f"exit {code}: {daemon.tail()}")


def check_journal(results, pid):
    """The entries of one run, as journalctl returns them."""
    everything = sdtest.journal_entries(f"_PID={pid}")
    results.check("journal: entries readable with journalctl -o json", bool(everything), "none")
    results.check("journal: the default instance's entries carry no STOPSHEET_INSTANCE",
                  not [e for e in everything if field(e, "STOPSHEET_INSTANCE") is not None], "some do")
    for name in ("start", "ready", "stop"):
        entry = event(pid, name)
        if not results.check(f"journal: {name} event", entry is not None, f"no STOPSHEET_EVENT={name}"):
            continue
        ok, why = has_fields(entry, ["MESSAGE", "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC"])
        ok = ok and field(entry, "SYSLOG_IDENTIFIER") == "stopsheetd" and field(entry, "PRIORITY") == "5"
        results.check(f"journal: {name} has MESSAGE, PRIORITY=5, SYSLOG_IDENTIFIER=stopsheetd, CODE_*", ok,
                      why or f"PRIORITY={field(entry, 'PRIORITY')} SYSLOG_IDENTIFIER={field(entry, 'SYSLOG_IDENTIFIER')}")


class FailingUpstream(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"upstream down for the test\n")

    def log_message(self, *args):
        pass


def phase_failing_upstream(results, binary, tmp):
    """Self-bound socket (no activation): READY=1 not before the socket answers; a failing HTTP
    upstream gives refresh_failed with its fields, and STATUS names the failing source."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FailingUpstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/api/v1/alerts?route_type=train"
    stops = os.path.join(sdtest.REPO, "Sources", "StopSheetDaemon", "Demo", "stops.csv")
    sock = os.path.join(tmp, "bound.sock")
    notify = sdtest.NotifyReceiver(os.path.join(tmp, "notify2.sock"))
    daemon = Daemon(tmp, "failing", [binary, "--socket", sock, "--alerts-url", url, "--stations-url", f"file://{stops}",
                                     "--http-timeout", "2"], base_env(NOTIFY_SOCKET=notify.path, STOPSHEET_INSTANCE="north"))
    try:
        ready = notify.wait(lambda f: f.get("READY") == "1", 30)
        # No retry: if READY=1 came before bind()/listen(), this connect fails.
        answer = try_rpc(sock, timeout=5) if ready else {}
        results.check("self-bound socket: serving the moment READY=1 arrives", "result" in answer,
                      f"{answer} {daemon.tail()}")
        failed = entries_of(daemon.pid, "STOPSHEET_EVENT=refresh_failed", "UPSTREAM=alerts", wait=15)
        entry = failed[0] if failed else None
        if results.check("journal: refresh_failed for a failing upstream (journalctl STOPSHEET_EVENT=refresh_failed)",
                         entry is not None, daemon.tail()):
            ok, why = has_fields(entry, ["UPSTREAM_URL", "HTTP_STATUS", "DURATION_MS", "MESSAGE"])
            ok = ok and field(entry, "HTTP_STATUS") == "503" and field(entry, "UPSTREAM_URL") == url \
                and field(entry, "PRIORITY") == "4"
            results.check("refresh_failed: PRIORITY=4, UPSTREAM_URL, HTTP_STATUS=503, DURATION_MS", ok,
                          why or f"PRIORITY={field(entry, 'PRIORITY')} HTTP_STATUS={field(entry, 'HTTP_STATUS')} "
                                 f"UPSTREAM_URL={field(entry, 'UPSTREAM_URL')}")
        # As stopsheetd@north.service starts it (Environment=STOPSHEET_INSTANCE=%i): every entry says so.
        # Every entry read, then the tagged ones read after it: each of the first is among them
        # (the failing upstream's retries go on writing entries meanwhile).
        entries_of(daemon.pid, "STOPSHEET_INSTANCE=north")
        every = sdtest.journal_entries(f"_PID={daemon.pid}")
        tagged = {e.get("__CURSOR") for e in sdtest.journal_entries(f"_PID={daemon.pid}", "STOPSHEET_INSTANCE=north")}
        untagged = [e for e in every if e.get("__CURSOR") not in tagged]
        results.check("journal: every entry of an instance carries STOPSHEET_INSTANCE (journalctl STOPSHEET_INSTANCE=north)",
                      bool(every) and not untagged, f"{len(untagged)} of {len(every)} entries untagged")
        degraded = notify.wait(lambda f: "alerts" in f.get("STATUS", "") and "fail" in f.get("STATUS", ""), 10)
        results.check("STATUS= names the failing source", degraded is not None,
                      f"statuses: {[f.get('STATUS') for _, _, f in notify.snapshot() if 'STATUS' in f]}",
                      info=repr(degraded[3]["STATUS"]) if degraded else "")
        # SIGINT (Ctrl-C in a terminal) stops the same way as SIGTERM.
        mark = len(notify.snapshot())
        daemon.signal(signal.SIGINT)
        stopping = notify.wait(lambda f: f.get("STOPPING") == "1", 10, start=mark)
        try:
            code = daemon.process.wait(15)
        except subprocess.TimeoutExpired:
            code = None
        results.check("SIGINT -> STOPPING=1 and exit 0", stopping is not None and code == 0,
                      f"STOPPING={'yes' if stopping else 'no'}, exit {code}")
    finally:
        daemon.stop()
        notify.close()
        server.shutdown()


def phase_restart(results, binary, tmp):
    """A restart under socket activation loses no client. systemd-socket-activate holds the
    listening socket as systemd does, and hands it to a shell that runs the daemon twice in a row
    (each with its own LISTEN_PID): the second starts on the same socket once the first exits."""
    sock = os.path.join(tmp, "restart.sock")
    notify = sdtest.NotifyReceiver(os.path.join(tmp, "notify3.sock"))
    twice = 'for run in 1 2; do /bin/sh -c \'export LISTEN_PID=$$; exec "$@"\' sh "$@" || exit; done'
    command = ["systemd-socket-activate", "-l", sock, "--fdname=stopsheetd.socket", "-E", f"NOTIFY_SOCKET={notify.path}",
               "/bin/sh", "-c", twice, "sh", binary, "--demo"]
    daemon = Daemon(tmp, "restart", command, base_env())
    pids = []
    try:
        _restart(results, daemon, notify, sock, pids)
    finally:
        # Cut short: end the runs the shell has left, or it would start the next one.
        while daemon.process.poll() is None and pids:
            try:
                os.kill(pids.pop(), signal.SIGTERM)
            except ProcessLookupError:
                pass
        daemon.stop()
        notify.close()


def _restart(results, daemon, notify, sock, pids):
    if not daemon.wait_for_output("Listening on", 10):
        results.check("restart: systemd-socket-activate is listening", False, daemon.tail())
        return
    first = try_rpc(sock, timeout=30)
    ready = notify.wait(lambda f: f.get("READY") == "1", 30)
    if not results.check("restart: the first daemon serves", "result" in first and ready is not None, f"{first} {daemon.tail()}"):
        return
    old = ready[2]
    pids.append(old)

    stop, outcomes = threading.Event(), []
    workers = [threading.Thread(target=sdtest.hammer, args=(sock, stop, outcomes)) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        # `early` is accepted before the stop and writes its request after it. The listener hands
        # out connections in the order they were made: once `witness` is answered, `early` was
        # accepted by the old daemon. Its STATUS= of the drain says its loop took the stop.
        early = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        early.settimeout(30)
        early.connect(sock)
        witness = try_rpc(sock, timeout=30)
        mark = len(notify.snapshot())
        os.kill(old, signal.SIGTERM)
        drain = notify.wait(lambda f: f.get("STATUS", "").startswith("stopping: finishing "), 30, start=mark)
        results.check("restart: the old daemon's loop takes the stop (STATUS= of the drain)",
                      "result" in witness and drain is not None and drain[2] == old, f"{witness} {daemon.tail()}",
                      info=drain[3]["STATUS"] if drain else "")
        try:
            early.sendall(b'{"jsonrpc":"2.0","id":"early","method":"version"}\n')
            answer = sdtest.read_line(early).decode(errors="replace")
        except OSError as error:
            answer = repr(error)
        finally:
            early.close()
        results.check("restart: a client accepted before SIGTERM, writing after it, is answered",
                      '"id":"early"' in answer and '"result"' in answer, answer[:200])
        # Made after the old daemon stopped accepting: it waits in the backlog for the new one.
        late = try_rpc(sock, timeout=30)
        again = notify.wait(lambda f: f.get("READY") == "1", 30, start=mark)
        if again:
            pids[:] = [again[2]]  # the old one has exited
        results.check("restart: a client connecting meanwhile is answered by the next daemon",
                      "result" in late and again is not None and again[2] != old, f"{late} {daemon.tail()}")
    finally:
        stop.set()
        for worker in workers:
            worker.join(30)
    failures = [o for o in outcomes if o != "ok"]
    results.check("restart: no client connecting during the restart is lost", outcomes and not failures,
                  f"{len(failures)} of {len(outcomes)} failed, e.g. {failures[:2]}", info=f"{len(outcomes)} requests")
    if len(pids) < 2:
        return
    os.kill(pids.pop(), signal.SIGTERM)
    try:
        code = daemon.process.wait(15)
    except subprocess.TimeoutExpired:
        code = None
    results.check("restart: both daemons exit 0 on SIGTERM, the shell after the second", code == 0, f"exit {code}: {daemon.tail()}")


def phase_wrong_socket(results, binary, tmp):
    """A datagram socket passed by socket activation is refused with a clear message."""
    sock = os.path.join(tmp, "dgram.sock")
    daemon = Daemon(tmp, "dgram", ["systemd-socket-activate", "--datagram", "-l", sock, binary, "--demo"], base_env())
    daemon.wait_for_output("Listening on", 10)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.sendto(b"wake up", sock)
    try:
        code = daemon.process.wait(20)
    except subprocess.TimeoutExpired:
        code = None
    text = daemon.output() + " ".join(field(e, "MESSAGE") or "" for e in entries_of(daemon.pid, wait=2))
    results.check("a datagram socket from socket activation is refused (non-zero exit, clear message)",
                  code not in (0, None) and "not a listening Unix stream socket" in text,
                  f"exit {code}: {text.strip()[-300:]}")
    daemon.stop()


# -------------------------------------------------------------------------------------- harness

def in_namespace():
    results = sdtest.Results("protocol")
    binary = sdtest.daemon_binary()
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    tmp = tempfile.mkdtemp(prefix="stopsheetd-protocol-")
    journald = None
    try:
        for path in ("/run/systemd", "/run/log", "/var/log/journal"):
            if path != "/var/log/journal" or os.path.isdir(path):
                os.makedirs(path, exist_ok=True)
                subprocess.run(["mount", "-t", "tmpfs", "tmpfs", path], check=True)
        phase_plain(results, binary, tmp)
        journald = start_journald(results, tmp)
        if journald:
            daemon, _ = phase_activated(results, binary, tmp)
            check_journal(results, daemon.pid)
            phase_failing_upstream(results, binary, tmp)
            phase_restart(results, binary, tmp)
            phase_wrong_socket(results, binary, tmp)
    finally:
        if journald:
            journald.terminate()
            journald.wait(10)
        subprocess.run(["rm", "-rf", tmp])
    results.finish()


def main():
    if os.environ.get(MARKER):
        return in_namespace()
    results = sdtest.Results("protocol")
    if os.geteuid() != 0:
        sdtest.loud_skip(results, "systemd protocol test", "needs root (a private mount namespace with its own journald)")
        results.finish()
    for tool in ("unshare", "systemd-socket-activate", "journalctl"):
        if not sdtest.ensure_commands([tool], ["systemd", "util-linux"]):
            results.check(f"{tool} is installed", False, "missing")
            results.finish()
    sdtest.daemon_binary()  # build before entering the namespace
    # The namespace's mount points are made on the host's /run (on disk on some machines):
    # remove the ones this test had to create.
    created = [p for p in ("/run/systemd", "/run/log") if not os.path.exists(p)]
    try:
        code = subprocess.run(["unshare", "--mount", sys.executable, os.path.abspath(__file__)],
                              env=dict(os.environ, **{MARKER: "1"})).returncode
    finally:
        for path in created:
            try:
                os.rmdir(path)
            except OSError:
                pass
    sys.exit(code)


if __name__ == "__main__":
    main()
