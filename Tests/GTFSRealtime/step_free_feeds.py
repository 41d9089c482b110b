#!/usr/bin/env python3
"""Elevator and escalator outages for the real stations of Tests/Fixtures/gtfs-pathways, built
with the independent GTFS-realtime encoder (PyPI gtfs-realtime-bindings), with the step-free
verdicts they should give beside them: the oracle of the step-free-now tests.

    python step_free_feeds.py --out DIR --now EPOCH [--static]

Writes into DIR, for each FEED (prague-pid-2020-07-02, euskotren-2025-11-27):
  FEED.pb             the feed's outage alerts (MADE FOR THE TEST, naming the feed's real
                      generic nodes at the ends of its real elevator pathways, and stations)
  FEED.expected.json  {"moments": {"now": EPOCH, "later": EPOCH + 7200},
                       "verdicts": {"now": {station_id: now}, "later": {...}}} — every station
                      with pathways, as protocol.md's `now`, derived by Tests/GTFS/step_free.py
                      from this script's own reading of the encoded feed
  FEED.units.json     lift-status units MADE FOR THE TEST, [{"unitId", "stationId", "status"}]:
                      every real elevator pathway in pathways.txt order, by its pathway_id, its
                      status in turn unknown, notAvailable, available, partiallyAvailable; the
                      moment "units" of FEED.expected.json is "now" with these beside the alerts
and `ALERT_ID.pb` for each alert alone, and `empty.pb` (no alert at all), for tests that switch
outages on and off. With --static, also `FEED/`: the feed's fixture tables with routes.txt,
trips.txt and stop_times.txt MADE FOR THE TEST (one metro route `M`, one trip per station calling
at each of its platforms: the fixtures keep no trips), a static feed the daemon can load.
What the alerts say (the real elevators, and what the oracle finds they do):
  Prague: Nemocnice Motol's elevator at node U306N1 (ACCESSIBILITY_ISSUE, Czech and English
  headlines) — one platform loses step-free access; Bořislavka's two elevators at U157N1 and
  U157N8 (OTHER_EFFECT, only the words say elevator) — both out, every platform still step-free;
  an escalator at Muzeum (node U400N25) — no elevator taken out; Anděl's elevator at U1040N1,
  planned to start at "later" — no outage now, none step-free then; Dejvická's elevator at U321N4
  "back in service" — no outage; "Elevator 7" at Můstek (station U1072S1), effect_detail
  ELEVATOR_CLOSURE — placed on no pathway: incomplete.
  Euskotren: Euba-Amorebieta's elevator at 2606_Area_A1, told only by effect_detail
  ELEVATOR_CLOSURE with Basque and Spanish headlines — partial; Zurbaranbarri-Bilbao's two
  elevators at 2617_Vestibulo_H1 — still available.
"""

import argparse
import csv
import json
import os
import shutil
import sys

from google.transit import gtfs_realtime_pb2 as rt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "GTFS"))
import step_free  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "Fixtures", "gtfs-pathways")
LATER = 7200


def outages(now):
    """FEED -> [(id, stops, headlines [(text, language)], fields, periods)]."""
    later = now + LATER
    eus = "ES:Euskotren:Place:"
    return {
        "prague-pid-2020-07-02": [
            ("prg-motol", ["U306N1"], [("Výtah mimo provoz", "cs"), ("Elevator out of service", "en")],
             {"effect": rt.Alert.ACCESSIBILITY_ISSUE}, [(now - 3600, None)]),
            ("prg-borislavka-1", ["U157N1"], [("Elevator to the street out of service", None)], {"effect": rt.Alert.OTHER_EFFECT}, []),
            ("prg-borislavka-2", ["U157N8"], [("Elevators not in service", None)], {"effect": rt.Alert.OTHER_EFFECT}, []),
            ("prg-muzeum-escalator", ["U400N25"], [("Escalator out of service", "en")], {"effect": rt.Alert.OTHER_EFFECT}, []),
            ("prg-andel-planned", ["U1040N1"], [("Elevator closed for maintenance", "en")], {"effect": rt.Alert.ACCESSIBILITY_ISSUE},
             [(later, later + 3600)]),
            ("prg-dejvicka-back", ["U321N4"], [("Elevator back in service", "en")], {"effect": rt.Alert.ACCESSIBILITY_ISSUE}, []),
            ("prg-mustek-7", ["U1072S1"], [("Elevator 7 unavailable", "en")],
             {"effect": rt.Alert.ACCESSIBILITY_ISSUE, "effect_detail": "ELEVATOR_CLOSURE"}, []),
        ],
        "euskotren-2025-11-27": [
            ("eus-euba", [eus + "2606_Area_A1:"], [("Igogailua ez dabil", "eu"), ("Ascensor fuera de servicio", "es")],
             {"effect": rt.Alert.ACCESSIBILITY_ISSUE, "effect_detail": "ELEVATOR_CLOSURE"}, []),
            ("eus-zurbaranbarri", [eus + "2617_Vestibulo_H1:"], [("Elevators out of service", "en")], {"effect": rt.Alert.OTHER_EFFECT}, []),
        ],
    }


def encode(alerts, now):
    feed = rt.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.timestamp = now
    for ident, stops, headlines, fields, periods in alerts:
        entity = feed.entity.add()
        entity.id = ident
        alert = entity.alert
        for stop in stops:
            alert.informed_entity.add().stop_id = stop
        for start, end in periods:
            period = alert.active_period.add()
            if start is not None:
                period.start = start
            if end is not None:
                period.end = end
        for text, language in headlines:
            translation = alert.header_text.translation.add()
            translation.text = text
            if language:
                translation.language = language
        alert.effect = fields["effect"]
        if "effect_detail" in fields:
            alert.effect_detail.translation.add().text = fields["effect_detail"]
    return feed.SerializeToString()


def choose(translated, language="en"):
    """The wanted language, then its primary language, then the untagged, then the first."""
    items = [(t.text, t.language) for t in translated.translation]
    for test in (lambda tag: tag.lower() == language, lambda tag: tag.lower().split("-")[0] == language):
        for text, tag in items:
            if tag and test(tag):
                return text
    for text, tag in items:
        if not tag:
            return text
    return items[0][0] if items else ""


def read_back(body, moment):
    """The outages the encoded feed states, active at `moment`, in the oracle's terms."""
    feed = rt.FeedMessage()
    feed.ParseFromString(body)
    found = []
    for entity in feed.entity:
        alert = entity.alert
        periods = [(p.start if p.HasField("start") else None, p.end if p.HasField("end") else None) for p in alert.active_period]
        active = not periods or any((s is None or s <= moment) and (e is None or moment < e) for s, e in periods)
        if not active:
            continue
        found.append({"alertId": entity.id, "headline": choose(alert.header_text),
                      "effect": rt.Alert.Effect.Name(alert.effect) if alert.HasField("effect") else "",
                      "effectDetail": choose(alert.effect_detail) if alert.HasField("effect_detail") else "",
                      "stops": [selector.stop_id for selector in alert.informed_entity]})
    return found


def static_feed(name, out):
    """The fixture's tables, and one made metro route whose trips call at every platform."""
    source = os.path.join(FIXTURES, name)
    os.makedirs(out)
    for table in os.listdir(source):
        if table.endswith(".txt") and table != "routes.txt":
            shutil.copyfile(os.path.join(source, table), os.path.join(out, table))
    feed = step_free.Feed(source)
    stations = sorted({feed.station_of[stop] for stop in feed.order if stop in feed.station_of})
    with open(os.path.join(out, "routes.txt"), "w", encoding="utf-8") as handle:
        handle.write("route_id,route_short_name,route_long_name,route_type\nM,M,Metro (made for the test),1\n")
    with open(os.path.join(out, "trips.txt"), "w", encoding="utf-8") as handle:
        handle.write("route_id,service_id,trip_id\n" + "".join(f"M,all,T{index}\n" for index in range(len(stations))))
    with open(os.path.join(out, "stop_times.txt"), "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"])
        for index, station in enumerate(stations):
            for sequence, platform in enumerate(feed.platforms(station)):
                writer.writerow([f"T{index}", "08:00:00", "08:00:00", platform, sequence + 1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--now", type=int, required=True)
    parser.add_argument("--static", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(args.out, "empty.pb"), "wb") as handle:
        handle.write(encode([], args.now))
    for name, alerts in outages(args.now).items():
        for alert in alerts:
            with open(os.path.join(args.out, alert[0] + ".pb"), "wb") as handle:
                handle.write(encode([alert], args.now))
        if args.static:
            static_feed(name, os.path.join(args.out, name))
        body = encode(alerts, args.now)
        with open(os.path.join(args.out, name + ".pb"), "wb") as handle:
            handle.write(body)
        feed = step_free.Feed(os.path.join(FIXTURES, name))
        moments = {"now": args.now, "later": args.now + LATER}
        verdicts = {}
        for label, moment in moments.items():
            active = read_back(body, moment)
            verdicts[label] = {station: feed.verdict(station, active) for station in feed.stations_with_pathways()}
        statuses = ["unknown", "notAvailable", "available", "partiallyAvailable"]
        units = [{"unitId": row["pathway_id"], "stationId": station, "status": statuses[index % 4]}
                 for index, (station, row) in enumerate((station, row) for station in feed.stations_with_pathways()
                                                        for row in feed.elevator_pathways(station))]
        with open(os.path.join(args.out, name + ".units.json"), "w", encoding="utf-8") as handle:
            json.dump(units, handle, ensure_ascii=False, indent=1)
        moments["units"] = args.now
        active = read_back(body, args.now)
        verdicts["units"] = {station: feed.verdict(station, active, [u for u in units if u["stationId"] == station])
                             for station in feed.stations_with_pathways()}
        with open(os.path.join(args.out, name + ".expected.json"), "w", encoding="utf-8") as handle:
            json.dump({"moments": moments, "verdicts": verdicts}, handle, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
