#!/usr/bin/env python3
"""A fleet behind one cache (issue 43): Debian's real nginx, loaded with the shipped
docs/examples/nginx-feed-cache.conf, in front of the local test upstream, and 20 daemons polling
alerts through it every second for 30 s.

    python3 Tests/Fleet/nginx_fleet.py [--bin DIR] [--daemons 20] [--seconds 30]

What is changed in the shipped file, and nothing else: its addresses (the listen address, the
agency's host and port), the agency's scheme (the test upstream speaks plain HTTP, so `https://`
becomes `http://`; the proxy_ssl_* lines then do nothing) and its two paths (the cache directory
and the key include, under a temporary directory, so the test needs no root).

Checks, each printed as `ok` or `FAILED`, then `N passed, M failed`:
  - `nginx -t` accepts the configuration;
  - every daemon loads its alerts through the cache, and the upstream sees the key the cache adds
    (it answers 401 without it);
  - over the polling window the upstream's hits are bounded by the cache's expiry (at most one per
    expiry, plus the first fill), not by the number of daemons, while the cache answered the
    daemons hundreds of times;
  - with the upstream down, each daemon's `refresh` still loads (the cache serves its stale copy),
    and the data shows its age by the feed's own time, `producedAt`.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO, "docs", "examples", "nginx-feed-cache.conf")
FIXTURES = os.path.join(REPO, "Tests", "Fixtures")
# The feed's own time (CTA's TimeStamp) and the daemons' clock, pinned a minute after it.
FEED_TIME = "2015-02-14T14:35:00-06:00"
NOW = "2015-02-14T14:36:00-06:00"

results = []


def check(name, passed, detail=""):
    results.append(passed)
    print(f"{'ok' if passed else 'FAILED':6} {name}" + (f": {detail}" if detail and not passed else ""), flush=True)
    return passed


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def expiry_seconds(conf):
    return int(re.search(r"^\s*proxy_cache_valid 200 (\d+)s;", conf, re.M).group(1))


def localised(conf, work, listen_port, upstream_port):
    """The shipped file with its addresses, the agency's scheme and its two paths changed."""
    replacements = [
        ("/var/cache/nginx/stopsheetd", f"{work}/cache"),
        ("/etc/nginx/stopsheetd-agency-key.conf", f"{work}/agency-key.conf"),
        ("server api.example-agency.org:443;", f"server 127.0.0.1:{upstream_port};"),
        ("listen 10.0.0.2:8080;", f"listen 127.0.0.1:{listen_port};"),
        ("api.example-agency.org", "127.0.0.1"),
        ("proxy_pass https://", "proxy_pass http://"),
    ]
    for old, new in replacements:
        if old not in conf:
            raise SystemExit(f"the shipped example no longer holds {old!r}; update this test with it")
        conf = conf.replace(old, new)
    return conf


def ctl(bindir, sock, *arguments, timeout=60):
    out = subprocess.run([os.path.join(bindir, "stopsheetctl"), "--socket", sock, "--timeout", str(timeout), *arguments],
                         capture_output=True, text=True, timeout=timeout + 10)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build", "debug"), help="directory of stopsheetd and stopsheetctl")
    parser.add_argument("--daemons", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        print("nginx is not installed (scripts/install-deps.sh installs nginx-core)", file=sys.stderr)
        return 1

    work = tempfile.mkdtemp(prefix="stopsheetd-fleet-")
    # nginx's workers run as nobody when started by root: they must reach the cache.
    os.chmod(work, 0o755)
    os.mkdir(os.path.join(work, "cache"), 0o777)
    os.chmod(os.path.join(work, "cache"), 0o777)
    children = []
    stop_nginx = []
    try:
        upstream = subprocess.Popen([sys.executable, os.path.join(REPO, "Tests", "Upstream", "upstream.py"), "--port", "0",
                                     "--root", os.path.join(FIXTURES, "upstream"), "--exit-on-stdin-eof"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        children.append(upstream)
        upstream_port = int(upstream.stdout.readline().split()[1])
        base = f"http://127.0.0.1:{upstream_port}"
        secret = os.urandom(16).hex()
        with open(os.path.join(FIXTURES, "alerts_2015-02-14.DERIVED.json"), encoding="utf-8") as f:
            body = f.read()
        spec = json.dumps({"body": body, "requireHeaders": {"Ocp-Apim-Subscription-Key": secret}}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{base}/set/fleet", data=spec, method="PUT"), timeout=10).read()

        key_file = os.path.join(work, "agency-key.conf")
        with open(os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(f'proxy_set_header Ocp-Apim-Subscription-Key "{secret}";\n')
        with open(EXAMPLE, encoding="utf-8") as f:
            shipped = f.read()
        expiry = expiry_seconds(shipped)
        listen_port = free_port()
        with open(os.path.join(work, "nginx-feed-cache.conf"), "w") as f:
            f.write(localised(shipped, work, listen_port, upstream_port))
        with open(os.path.join(work, "nginx.conf"), "w") as f:
            f.write(f"""worker_processes 1;
error_log {work}/error.log;
pid {work}/nginx.pid;
events {{ worker_connections 512; }}
http {{
    log_format cache '$upstream_cache_status $status $request_uri';
    access_log {work}/access.log cache;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    include {work}/nginx-feed-cache.conf;
}}
""")
        tested = subprocess.run([nginx, "-e", f"{work}/error.log", "-t", "-p", work, "-c", f"{work}/nginx.conf"], capture_output=True, text=True)
        if not check("nginx -t accepts the shipped example", tested.returncode == 0, tested.stderr):
            return 1
        # Not `daemon off`: nginx's first process exits once its master has bound the port, which
        # is the event the daemons need.
        nginx_args = [nginx, "-e", f"{work}/error.log", "-p", work, "-c", f"{work}/nginx.conf"]
        started_nginx = subprocess.run(nginx_args, capture_output=True, text=True)
        if not check("nginx starts with it", started_nginx.returncode == 0, started_nginx.stderr):
            return 1
        stop_nginx.append(nginx_args + ["-s", "stop"])
        url = f"http://127.0.0.1:{listen_port}/dyn/fleet"

        stops = f"file://{FIXTURES}/L_stops_2021.csv"
        sockets = []
        for index in range(args.daemons):
            sock = os.path.join(work, f"d{index}.sock")
            sockets.append(sock)
            children.append(subprocess.Popen(
                [os.path.join(args.bin, "stopsheetd"), "--socket", sock, "--alerts-url", url, "--stations-url", stops,
                 "--alerts-interval", "1", "--alerts-stale-after", "20", "--now", NOW, "--log-level", "warning"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"d{index}.log"), "w"),
                env={k: v for k, v in os.environ.items() if not k.startswith("STOPSHEETD_") and k not in ("NOTIFY_SOCKET", "LISTEN_FDS")}))
        started = time.monotonic()
        loaded = [ctl(args.bin, sock, "wait", "--for", "alerts").returncode == 0 for sock in sockets]
        check(f"all {args.daemons} daemons load their alerts through the cache", all(loaded),
              f"{loaded.count(False)} did not; {open(os.path.join(work, 'd0.log')).read()[-1500:]}")

        def hits():
            return int(urllib.request.urlopen(f"{base}/hits/fleet", timeout=10).read())

        def served():
            with open(os.path.join(work, "access.log")) as f:
                return sum(1 for line in f if " /dyn/fleet" in line)

        # The polling window: the daemons' own 1 s intervals, for the time asked; what is counted
        # is requests, not time.
        hits_before, served_before = hits(), served()
        window_started = time.monotonic()
        time.sleep(args.seconds)  # the window the fleet polls in; nothing to wait for but time
        window = time.monotonic() - window_started
        hits_in_window, served_in_window = hits() - hits_before, served() - served_before
        bound = int(window // expiry) + 2
        print(f"measured: {args.daemons} daemons polling every 1 s for {window:.1f} s: the cache answered "
              f"{served_in_window} requests, the upstream saw {hits_in_window} (expiry {expiry} s; "
              f"{hits() } in all since the first daemon started {time.monotonic() - started:.0f} s ago)", flush=True)
        check(f"the upstream saw at most one fetch per {expiry} s expiry ({hits_in_window} <= {bound})", hits_in_window <= bound)
        check(f"the daemons asked the cache far more often than the upstream was asked ({served_in_window} requests)",
              served_in_window >= args.daemons * args.seconds // 4 and served_in_window > 4 * max(1, hits_in_window))

        # The agency down: the cache serves its stale copy, and each daemon keeps loading it.
        upstream.stdin.close()
        upstream.wait(timeout=10)
        served_before_down = served()
        for sock in sockets:
            ctl(args.bin, sock, "refresh", "alerts")
        keep = []
        for sock in sockets:
            answer = ctl(args.bin, sock, "--json", "refresh", "alerts")
            alerts = json.loads(answer.stdout)["alerts"] if answer.returncode == 0 else {}
            keep.append(alerts)
        good = [a.get("loaded") is True and a.get("lastError") is None and a.get("producedAt") == FEED_TIME and a.get("stale") is True
                for a in keep]
        check("with the upstream down every daemon still loads from the cache, stale by producedAt", all(good),
              json.dumps(next((a for a, g in zip(keep, good) if not g), {})))
        with open(os.path.join(work, "access.log")) as f:
            stale = sum(1 for line in f.readlines()[served_before_down:] if line.startswith(("STALE", "UPDATING", "HIT", "REVALIDATED")))
        check("the cache answered the refreshes from its copy", stale >= len(sockets), f"{stale} answers from the cache")
    finally:
        for command in stop_nginx:
            subprocess.run(command, capture_output=True)
        for child in reversed(children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(work, ignore_errors=True)
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
