#!/usr/bin/env python3
"""An independent reading of TfL's step-free map and live lift disruptions, for the London tests
to compare stopsheetd with: Tests/GTFS/step_free.py's reachability over TfL's GTFS tables
(its street, `<station>-Outside`, is step_free.Feed.streets), and TfL's `Disruptions/Lifts/v2`
bodies read here with the json module, sharing no code with the daemon. Standard library only.

    python3 tfl_lifts.py FEED_DIR [BODY.json ...]

Prints one JSON object:
  {"mapStatus": {station: "available"|"partial"|"none"|null},   the button's status from the map
   "verdicts": {BODY: {station: now}}}                           protocol.md's `now` for every
                                                                  station with pathways, with the
                                                                  body's lifts out (BODY "open":
                                                                  none out)
A body's units: each distinct lift id, stripped of spaces, out, at every station that lists it.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import step_free  # noqa: E402


def units_by_station(path):
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    order, stations = [], {}
    for entry in entries:
        for lift in entry.get("disruptedLiftUniqueIds") or []:
            lift = lift.strip()
            if not lift:
                continue
            if lift not in stations:
                order.append(lift)
                stations[lift] = []
            station = (entry.get("stationUniqueId") or "").strip()
            if station and station not in stations[lift]:
                stations[lift].append(station)
    found = {}
    for lift in order:
        for station in stations[lift]:
            found.setdefault(station, []).append({"unitId": lift, "status": "notAvailable"})
    return found


def main():
    feed = step_free.Feed(sys.argv[1])
    stations = [stop for stop in feed.order if feed._type(stop) == 1]
    result = {"mapStatus": {station: feed.map_status(station) for station in stations}, "verdicts": {}}
    bodies = [("open", {})] + [(os.path.basename(path), units_by_station(path)) for path in sys.argv[2:]]
    for name, units in bodies:
        result["verdicts"][name] = {station: feed.verdict(station, [], units.get(station, []))
                                    for station in feed.stations_with_pathways()}
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
