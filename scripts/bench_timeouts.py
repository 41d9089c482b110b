#!/usr/bin/env python3
"""How long the daemon takes to close an idle and a stuck client, and its RSS with a stuck one:
figures of `make bench`, not pass/fail tests (LimitsIntegrationTests checks the behaviour; a
bound on seconds or kB would fail on a slow or sanitized run for no fault of the daemon).

    scripts/bench_timeouts.py BIN_DIR

Starts BIN_DIR/stopsheetd --demo with --idle-timeout 1 --stuck-timeout 1 --max-output-bytes 65536,
waits for it with `stopsheetctl wait`, then: one client asks once and stays quiet (seconds until
the daemon closes it); one client floods `alerts` requests and reads nothing (the daemon's RSS
meanwhile, and seconds until it is closed). Prints key=value figures on one line.
"""

import os
import select
import socket
import subprocess
import sys
import tempfile
import time

REQUEST = b'{"jsonrpc":"2.0","id":1,"method":"alerts"}\n'


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)


def seconds_until_closed(s):
    started = time.monotonic()
    s.settimeout(60)
    try:
        while s.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def main():
    binaries = sys.argv[1]
    work = tempfile.mkdtemp(prefix="stopsheet-timeouts-")
    path = os.path.join(work, "d.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOPSHEETD_") and k not in ("NOTIFY_SOCKET", "LISTEN_FDS")}
    daemon = subprocess.Popen([os.path.join(binaries, "stopsheetd"), "--demo", "--socket", path, "--idle-timeout", "1",
                               "--stuck-timeout", "1", "--max-output-bytes", "65536", "--log-level", "error"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run([os.path.join(binaries, "stopsheetctl"), "--socket", path, "--timeout", "30", "wait"],
                       check=True, stdout=subprocess.DEVNULL)
        idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        idle.connect(path)
        idle.sendall(b'{"jsonrpc":"2.0","id":1,"method":"version"}\n')
        idle_seconds = seconds_until_closed(idle)

        stuck = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        stuck.connect(path)
        stuck.setblocking(False)
        flood, offered = REQUEST * 2000, 0
        for _ in range(50):
            try:
                offered += stuck.send(flood)
            except BlockingIOError:
                pass
            time.sleep(0.01)
        rss = rss_kb(daemon.pid)
        stuck.setblocking(True)
        stuck_started = time.monotonic()
        # Reading now would un-stick it: wait for the close without reading (POLLHUP).
        poller = select.poll()
        poller.register(stuck, select.POLLRDHUP if hasattr(select, "POLLRDHUP") else select.POLLHUP)
        poller.poll(60_000)
        stuck_seconds = time.monotonic() - stuck_started
        print("idle_close_s=%.2f stuck_close_s=%.2f stuck_rss_kb=%d stuck_offered_bytes=%d" % (idle_seconds, stuck_seconds, rss, offered))
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
