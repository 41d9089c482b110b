"""The soak's chaos phase (issue 45): alerts, stations and lift status all live from the
misbehaving local upstream at once, the configuration reloaded under load, refresh floods, 200
subscribers and never-reading clients. Run by scripts/soak.py after its mixed load
(--chaos-seconds); standard library only.

The upstream (Tests/Upstream/upstream.py) changes every answer every half second: alerts as in the
mixed load (good sets, 5xx, garbage, a million alerts, hangs); stations a GTFS zip changing under
the daemon (two real-format feeds, one with data descriptors, one cut short, garbage, 5xx, slow);
lift status SIRI-FM, WMATA and NYCT bodies and hostile XML (entity expansion, an external entity,
100,000 levels deep, cut short, not UTF-8). Every 1.5 s the config file (sources and intervals,
the only place they are set) is rewritten and the daemon gets SIGHUP: the facilities source moves
between the three formats, the stations source to a transfer the upstream cuts off midway, the
intervals between 1 and 3 s.

It holds that:
- no answer is lost: every request of the refresh floods and of the subscribers gets its answer,
  in order, by id, among the pushed notifications (whose `seq` only grows);
- memory is bounded: the daemon's peak RSS stays under CHAOS_RSS_LIMIT_KB (release and debug
  builds; a sanitized build's is reported, not judged: freed memory sits in quarantine), and
  every never-reading client is cut off;
- at the end, with every source good and one last reload, every stop's sheet, the alerts and the
  lift-status listing equal a fresh daemon's for the same data, byte for byte but the ages.
"""

import io
import json
import os
import random
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile

import soak_common as soak
from soak_common import Timeouts
import unread_clients

sys.path.insert(0, os.path.join(soak.REPO, "Tests", "GTFS"))
import make_feed  # noqa: E402  (its zip writer for streams that cannot seek)

LIFTS = os.path.join(soak.FIXTURES, "facilities")
# The chaos daemon's RSS bound. Its peak was 37 to 40 MB in the debug build over 10, 30 and 60 s
# of chaos (a million-alert body refused at the item cap, 200 subscribers, every source
# changing): the bound leaves room for a release build's different heap and a longer run, and
# stays under the mixed soak's bound for 1,000 never-reading clients (128 MiB).
CHAOS_RSS_LIMIT_KB = 96 * 1024
SUBSCRIBERS = 200
SUBSCRIBED_STOPS = ["STN_A03", "U1234", "A41", "R29"]


def feed_zip(stops_edit=None, descriptors=False):
    """The lift fixtures' GTFS feed (agency, stops, pathways) as a zip; `stops_edit` changes its
    stops.txt, `descriptors` writes it to a stream that cannot seek (data descriptors)."""
    out = io.BytesIO()
    stream = make_feed.Unseekable(out) if descriptors else out
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(os.listdir(os.path.join(LIFTS, "gtfs"))):
            data = open(os.path.join(LIFTS, "gtfs", name), "rb").read()
            if name == "stops.txt" and stops_edit:
                data = stops_edit(data)
            archive.writestr(name, data)
    return out.getvalue()


def write_bodies(root):
    """The good and the hostile bodies, as files under the upstream's root."""
    def put(name, data):
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    feed_a = feed_zip()
    put("feed-a.zip", feed_a)
    put("feed-b.zip", feed_zip(lambda data: data.replace(b"Dupont Circle", b"Dupont Circle B")))
    put("feed-a-descriptors.zip", feed_zip(descriptors=True))
    put("feed-cut.zip", feed_a[:len(feed_a) // 2])
    for name in ("siri_fm.HANDMADE.xml", "wmata_elevator_incidents.HANDMADE.json", "nyct_ene.HANDMADE.json",
                 "nyct_ene_equipments.HANDMADE.json", "inventory.HANDMADE.csv"):
        put(name, open(os.path.join(LIFTS, name), "rb").read())
    siri = open(os.path.join(LIFTS, "siri_fm.HANDMADE.xml"), "rb").read()
    body = siri.split(b"?>", 1)[1]
    laughs = b"".join(b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10 if i else b"lol") for i in range(10))
    put("laughs.xml", b'<?xml version="1.0"?><!DOCTYPE Siri [' + laughs + b"]>"
        + body.replace(b"<ProducerRef>STATIONS</ProducerRef>", b"<ProducerRef>&l9;</ProducerRef>"))
    put("external.xml", b'<?xml version="1.0"?><!DOCTYPE Siri [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        + body.replace(b"Lift street to concourse", b"&x;"))
    put("deep.xml", b"<Siri>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</Siri>")
    put("cut.xml", siri[:len(siri) // 2])
    put("latin1.xml", siri.replace("außer".encode(), b"au\xdfer"))


ALERTS = soak.ALERT_FAULTS
STATIONS = [dict(fixture="feed-a.zip"), dict(fixture="feed-b.zip"), dict(fixture="feed-a-descriptors.zip"),
            dict(fixture="feed-cut.zip"), dict(body="PK\x03\x04 not a zip"), dict(status=500),
            dict(fixture="feed-b.zip", delayMs=1500)]
LIFT_FAULTS = [dict(fixture=name) for name in ("laughs.xml", "external.xml", "deep.xml", "cut.xml", "latin1.xml")] + [
    dict(status=503, body="busy"), dict(body="<html>502</html>", contentType="text/html"), dict(fixture="siri_fm.HANDMADE.xml", delayMs=1500)]
# Each facilities key's good body; the reload moves the source between them.
LIFT_SOURCES = {"lifts-siri": "siri_fm.HANDMADE.xml", "lifts-wmata": "wmata_elevator_incidents.HANDMADE.json",
                "lifts-nyct": "nyct_ene.HANDMADE.json"}


def write_config(path, settings):
    with open(path + ".new", "w") as f:
        for key, value in settings.items():
            f.write("STOPSHEETD_%s=%s\n" % (key, value))
    os.replace(path + ".new", path)


def final_config(upstream):
    return {"ALERTS_URL": upstream.url("alerts"), "STATIONS_URL": upstream.url("stations"),
            "FACILITIES_URL": upstream.url("lifts-siri"), "FACILITIES_INVENTORY_URL": upstream.url("inventory"),
            "ALERTS_INTERVAL": 1, "STATIONS_INTERVAL": 1, "FACILITIES_INTERVAL": 1}


def set_final(upstream):
    """Every source good: the data both daemons are compared on."""
    upstream.set("alerts", fixture="alerts-b.json")
    upstream.set("stations", fixture="feed-b.zip")
    for key, name in LIFT_SOURCES.items():
        upstream.set(key, fixture=name)
    upstream.set("inventory", fixture="inventory.HANDMADE.csv")


def start_daemon(binary, work, name, config):
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOPSHEETD_") and k not in ("NOTIFY_SOCKET", "LISTEN_FDS", "WATCHDOG_USEC")}
    os.makedirs(os.path.join(work, name), exist_ok=True)
    notify = unread_clients.notify_socket(os.path.join(work, name), env)
    path = os.path.join(work, name, "d.sock")
    stderr = open(os.path.join(work, name, "stderr.log"), "wb")
    daemon = subprocess.Popen(
        [binary, "--socket", path, "--config", config, "--http-timeout", "1",
         # Staleness is not under test here; the sheets are compared with a fresh daemon's.
         "--alerts-stale-after", "3600", "--stations-stale-after", "3600", "--facilities-stale-after", "3600",
         "--max-output-bytes", "262144", "--stuck-timeout", "2", "--max-connections", "512", "--max-connections-per-uid", "512"],
        env=env, stderr=stderr, stdout=subprocess.DEVNULL)
    stderr.close()
    return daemon, path, notify


def loaded(path):
    """Waits for nothing: `refresh` of everything answers once each refresher's round is done."""
    answer = soak.call(path, "refresh", {"what": "all"})
    return answer.get("result", {})


def snapshot(path):
    """Everything compared at the end: each stop's sheet (of every row of the feed's stops.txt),
    the alerts and the lift-status listing, ages left out."""
    stops = [line.split(b",")[0].decode() for line in open(os.path.join(LIFTS, "gtfs", "stops.txt"), "rb").read().splitlines()[1:] if line]
    answers = {}
    with soak.connect(path) as s:
        for index, (method, params) in enumerate([("stopSheet", {"stopId": stop}) for stop in stops]
                                                 + [("alerts", None), ("facilities", None), ("stations", None)]):
            message = {"jsonrpc": "2.0", "id": index, "method": method}
            if params is not None:
                message["params"] = params
            s.sendall(json.dumps(message).encode() + b"\n")
            answers["%s %s" % (method, json.dumps(params))] = soak.ageless(soak.read_line(s))
    return answers


class Subscribers:
    """SUBSCRIBERS connections subscribed to the lift stations' sheets and health, on one thread:
    each reads its pushes and now and then asks for a sheet, whose answer must come, by id, in
    order, among the notifications."""

    def __init__(self, path, problems):
        self.path, self.problems = path, problems
        self.selector = selectors.DefaultSelector()
        self.conns = []
        self.stop = threading.Event()
        self.pushed = self.asked = self.answered = 0
        for index in range(SUBSCRIBERS):
            s = soak.connect(path)
            s.sendall(b'{"jsonrpc":"2.0","id":0,"method":"subscribe","params":{"stopIds":%s,"health":true}}\n'
                      % json.dumps(SUBSCRIBED_STOPS[index % 2:]).encode())
            state = {"socket": s, "buffer": b"", "pending": [0], "seq": {}, "next": 1}
            self.asked += 1
            s.setblocking(False)
            self.selector.register(s, selectors.EVENT_READ, state)
            self.conns.append(state)
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def ask(self, state):
        ident = state["next"]
        state["next"] += 1
        state["pending"].append(ident)
        self.asked += 1
        stop = SUBSCRIBED_STOPS[ident % len(SUBSCRIBED_STOPS)]
        state["socket"].setblocking(True)
        state["socket"].sendall(b'{"jsonrpc":"2.0","id":%d,"method":"stopSheet","params":{"stopId":"%s"}}\n' % (ident, stop.encode()))
        state["socket"].setblocking(False)

    def take(self, state, line):
        message = json.loads(line)
        if "method" in message:
            params = message["params"]
            key = params.get("subscription")
            if params["seq"] <= state["seq"].get(key, 0):
                self.problems.append("a notification's seq went back: %r" % line[:200])
            state["seq"][key] = params["seq"]
            self.pushed += 1
        elif not state["pending"] or message.get("id") != state["pending"][0]:
            self.problems.append("a subscriber's answer is not the one awaited (%r): %r" % (state["pending"][:1], line[:200]))
        else:
            state["pending"].pop(0)
            if "result" not in message:
                self.problems.append("a subscriber's request failed: %r" % line[:300])
            self.answered += 1

    def run(self):
        rng = random.Random(45)
        while not self.stop.is_set() or any(state["pending"] for state in self.conns):
            for key, _ in self.selector.select(timeout=0.05):
                state = key.data
                try:
                    chunk = state["socket"].recv(1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.problems.append("the daemon closed a subscriber with %d answers owed" % len(state["pending"]))
                    self.selector.unregister(state["socket"])
                    state["pending"] = []
                    continue
                state["buffer"] += chunk
                while b"\n" in state["buffer"]:
                    line, state["buffer"] = state["buffer"].split(b"\n", 1)
                    self.take(state, line)
            # A few hundred requests in flight among the pushes, not a flood of their own.
            if not self.stop.is_set() and self.asked - self.answered < 2 * SUBSCRIBERS:
                self.ask(rng.choice(self.conns))

    def finish(self, timeout):
        """Stops asking; returns once every answer owed has come (False after `timeout`)."""
        self.stop.set()
        self.thread.join(timeout)
        ok = not self.thread.is_alive()
        for state in self.conns:
            state["socket"].close()
        return ok


def refresh_flood(path, stop, problems, counts):
    """Pipelined `refresh` requests on one connection, four at a time (a connection's deferred
    answers come one after another, each after a refresh round): each gets its answer, by id,
    in order, within Timeouts.answer."""
    rng = random.Random(id(stop) % 1000)
    ident = 0
    buffer = b""

    def next_line(s):
        nonlocal buffer
        while b"\n" not in buffer:
            chunk = s.recv(1 << 16)
            if not chunk:
                raise RuntimeError("the daemon closed the connection")
            buffer += chunk
        line, buffer = buffer.split(b"\n", 1)
        return line

    try:
        with soak.connect(path) as s:
            while not stop.is_set():
                idents = []
                for _ in range(4):
                    ident += 1
                    idents.append(ident)
                    what = rng.choice(["alerts", "stations", "facilities", "all"])
                    s.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"refresh","params":{"what":"%s"}}\n' % (ident, what.encode()))
                for expected in idents:
                    answer = json.loads(next_line(s))
                    if answer.get("id") != expected or ("result" not in answer and "error" not in answer):
                        problems.append("refresh %d got %r" % (expected, answer))
                        return
                    counts.append(1)
    except Exception as error:  # a lost answer is a problem to report, not a crash of the soak
        problems.append("refresh flood: %s: %s (after %d answers)" % (type(error).__name__, error, ident - 4))


def reloads(daemon, config, upstream, stop, count):
    rng = random.Random(1)
    while not stop.wait(1.5):
        settings = final_config(upstream)
        settings["FACILITIES_URL"] = upstream.url(rng.choice(sorted(LIFT_SOURCES)))
        if rng.random() < 0.3:
            settings["STATIONS_URL"] = "http://127.0.0.1:%d/truncated/feed-a.zip" % upstream.port
        for key in ("ALERTS_INTERVAL", "STATIONS_INTERVAL", "FACILITIES_INTERVAL"):
            settings[key] = rng.randint(1, 3)
        write_config(config, settings)
        daemon.send_signal(signal.SIGHUP)
        count.append(1)


def drain(notify, stop):
    """Reads the daemon's datagrams while nobody waits on them, so that its reloads' READY=1,
    which waits for room in the queue, finds some."""
    notify.settimeout(0.2)
    while not stop.is_set():
        try:
            notify.recv(65536)
        except socket.timeout:
            pass


def chaotic_upstream(upstream, stop):
    rng = random.Random(45)
    while not stop.wait(0.5):
        upstream.set("alerts", **rng.choice(ALERTS))
        upstream.set("stations", **rng.choice(STATIONS))
        for key, name in LIFT_SOURCES.items():
            upstream.set(key, **rng.choice(LIFT_FAULTS + [dict(fixture=name)] * 3))
        upstream.set("inventory", **rng.choice([dict(fixture="inventory.HANDMADE.csv"), dict(fixture="nyct_ene_equipments.HANDMADE.json"),
                                                 dict(status=500), dict(body="facility_id\n\x00\xff")]))


def run(binary, work, seconds, sanitized):
    """The chaos phase; returns its problems (empty when everything held)."""
    problems = []
    write_bodies(work)
    upstream = soak.Upstream(work)
    config = os.path.join(work, "chaos.env")
    set_final(upstream)
    write_config(config, final_config(upstream))
    daemon, path, notify = start_daemon(binary, work, "chaos", config)
    fresh = None
    try:
        if unread_clients.wait_for_status(notify, daemon, unread_clients.both_loaded, Timeouts.loaded) is None:
            return ["the chaos daemon did not load its data (stderr in %s)" % work]
        loaded(path)
        stop = threading.Event()
        subscribers = Subscribers(path, problems)
        refreshed, reloaded, reader_outcome = [], [], []
        threads = [threading.Thread(target=chaotic_upstream, args=(upstream, stop)),
                   threading.Thread(target=reloads, args=(daemon, config, upstream, stop, reloaded)),
                   threading.Thread(target=soak.never_readers, args=(path, stop, 2, reader_outcome)),
                   threading.Thread(target=drain, args=(notify, stop))]
        threads += [threading.Thread(target=refresh_flood, args=(path, stop, problems, refreshed)) for _ in range(8)]
        for thread in threads:
            thread.start()
        started, peak = time.monotonic(), 0
        while time.monotonic() - started < seconds and daemon.poll() is None:
            peak = max(peak, soak.rss_kb(daemon.pid))
            stop.wait(0.2)
        stop.set()
        for thread in threads:
            thread.join()
        if not subscribers.finish(Timeouts.answer):
            problems.append("subscribers still owed answers %d s after the chaos ended" % Timeouts.answer)
        if daemon.poll() is not None:
            return problems + ["the chaos daemon exited with status %s" % daemon.returncode]
        readers = [o for o in reader_outcome if isinstance(o, tuple)]
        problems += [o for o in reader_outcome if isinstance(o, str)]
        soak.log("chaos: %d s, %d reloads, %d refreshes answered, %d subscribers: %d sheets asked and answered, %d pushes; "
                 "never-reading clients %s; peak RSS %d kB (bound %d kB%s)"
                 % (seconds, len(reloaded), len(refreshed), SUBSCRIBERS, subscribers.answered, subscribers.pushed,
                    "%d opened, %d cut off" % readers[0] if readers else "none", peak, CHAOS_RSS_LIMIT_KB,
                    ", not judged: sanitized" if sanitized else ""))
        if subscribers.answered != subscribers.asked:
            problems.append("%d subscriber requests asked, %d answered" % (subscribers.asked, subscribers.answered))
        if peak > CHAOS_RSS_LIMIT_KB and not sanitized:
            problems.append("the chaos took the daemon to %d kB RSS (bound %d kB)" % (peak, CHAOS_RSS_LIMIT_KB))

        # The end: every source good, one last reload to the final config, each refresher's round done.
        set_final(upstream)
        write_config(config, final_config(upstream))
        daemon.send_signal(signal.SIGHUP)
        expected = final_config(upstream)
        final = (expected["ALERTS_URL"], expected["STATIONS_URL"], expected["FACILITIES_URL"])
        # The reload is done once health names the final sources: looked at on each STATUS= the
        # daemon sends (READY=1 after a reload comes with one). Datagrams it could not send while
        # nobody read are dropped, which is the daemon's documented way.
        def reloaded_to_final(_):
            health = soak.call(path, "health")["result"]
            return (health["alerts"]["source"], health["stations"]["source"], health["facilities"]["source"]) == final
        if unread_clients.wait_for_status(notify, daemon, reloaded_to_final, Timeouts.answer) is None:
            problems.append("the final reload did not take within %d s" % Timeouts.answer)
        for _ in range(2):
            loaded(path)
        after = snapshot(path)

        fresh, fresh_path, fresh_notify = start_daemon(binary, work, "fresh", config)
        if unread_clients.wait_for_status(fresh_notify, fresh, unread_clients.both_loaded, Timeouts.loaded) is None:
            return problems + ["the fresh daemon did not load its data"]
        fresh_notify.close()
        for _ in range(2):
            loaded(fresh_path)
        reference = snapshot(fresh_path)
        differing = [key for key in reference if reference[key] != after.get(key)]
        soak.log("chaos: %d answers compared with a fresh daemon's, %d differ" % (len(reference), len(differing)))
        for key in differing[:3]:
            problems.append("after the chaos %s differs from a fresh daemon's:\n  chaos %s\n  fresh %s"
                            % (key, after.get(key, b"")[:400], reference[key][:400]))
    finally:
        for process in (daemon, fresh):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    if process.wait(timeout=Timeouts.exit) != 0:
                        problems.append("a chaos daemon exited %d on SIGTERM" % process.returncode)
                except subprocess.TimeoutExpired:
                    problems.append("a chaos daemon did not exit within %d s of SIGTERM" % Timeouts.exit)
                    process.kill()
        upstream.stop()
    for name in ("chaos", "fresh"):
        log_path = os.path.join(work, name, "stderr.log")
        if os.path.exists(log_path):
            journal = open(log_path, "rb").read().split(b"\n")
            if any(b"Sanitizer:" in line for line in journal):
                problems.append("the %s daemon's sanitizer reported: %s" % (name, b"\n".join(journal)[-3000:].decode(errors="replace")))
    return problems
