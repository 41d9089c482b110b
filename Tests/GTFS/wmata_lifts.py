#!/usr/bin/env python3
"""An independent reading of WMATA's lift topology (Tests/Fixtures/gtfs-pathways/wmata-2026-04)
for the lift-placement tests: which elevator pathway a WMATA-shaped `ElevatorIncidents` row names,
and each platform's step-free entry and exit with it out. Standard library only; written from
the issue's words and WMATA's files, sharing no code with the daemon (reachability is
Tests/GTFS/step_free.py's).

    python3 wmata_lifts.py FEED_DIR OUT_DIR [--body BODY.json]
    python3 wmata_lifts.py FEED_DIR --access STATION [PATHWAY…]   # platforms with those out, JSON

Writes OUT_DIR/incidents.json, a WMATA-shaped body MADE FOR THE TEST: one elevator incident for
each level pair that an elevator's end node names at each station ("Elevator between street and
platform", `StationCode` the station's first code, its second for every other pair of a transfer
complex), and OUT_DIR/expected.json, for that body (or for BODY, a body of one's own):

    [{"unitId", "stationId" (null: no such station), "unitType",
      "placed": [pathway ids] | null, "unplaced": null | "ambiguous" | "offTheMap" | "other",
      "candidates": [pathway ids], "platforms": [{"stopId", "entry", "exit"}] (the unit alone out)}]

The rules, as the issue states them:
- a station is the one whose id (`STN_A01_C01`) holds the row's `StationCode` among its codes;
- a node's levels are the two phrases of "between X and Y" in its `stop_desc` or `stop_name`,
  read lowercase with runs of anything but letters and digits as one space, and a remark after
  the first of `(,;.` cut off, the word "level" not counted; an elevator row names the same two
  levels, in either order; if no elevator's node does, two levels that could be them (each the
  other's words or a part of them: "platform", "silver line platform");
- one elevator pathway with an end node naming those levels: placed on it; several: ambiguous,
  and a platform is null where any one of them out changes its entry (or exit);
- a place the row names that no level name (levels.txt) or location of the station names (as a
  phrase, or within one, or holding one, "level" aside) is off the map: nothing changes;
- otherwise (no elevator between its levels) any elevator of the station may be the one out.
  Escalators change nothing.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import step_free  # noqa: E402


def phrase(text):
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


def levels(text):
    """The two levels of "between X and Y", or one place otherwise, or none."""
    cut = re.split(r"[(,;.]", text, maxsplit=1)[0]
    words = phrase(cut)
    match = re.search(r"(?:^| )between (.+?) and (.+)$", words)
    if match:
        return [match.group(1), match.group(2)]
    if " between " in f" {words} ":
        return []
    rest = " ".join(w for w in words.split() if w not in ("elevator", "elevators", "escalator", "escalators", "lift", "lifts", "unit"))
    return [rest] if rest else []


def bare(level):
    """A level's words without "level": "Mezzanine Level" is the mezzanine."""
    return set(level.split()) - {"level"}


def near(x, y):
    """Two levels that could be one: the words of one are all among the other's."""
    return bool(x) and bool(y) and (x <= y or y <= x)


class WMATA:
    def __init__(self, directory):
        self.feed = step_free.Feed(directory)
        level_names = {row["level_id"]: row.get("level_name", "") for row in step_free.read_table(os.path.join(directory, "levels.txt"))}
        self.stop_level = {stop_id: level_names.get(stop.get("level_id", ""), "") for stop_id, stop in self.feed.stops.items()}
        self.codes = {}
        for stop_id in self.feed.order:
            if self.feed._type(stop_id) == 1 and stop_id.startswith("STN_"):
                for code in stop_id[4:].split("_"):
                    self.codes.setdefault(code, []).append(stop_id)

    def station(self, code):
        found = self.codes.get(code, [])
        return found[0] if len(found) == 1 else None

    def node_levels(self, stop_id):
        """The node's level pairs, each level as its set of words ("level" dropped)."""
        stop = self.feed.stops[stop_id]
        return [[bare(level) for level in pair] for pair in (levels(stop.get("stop_desc", "")), levels(stop.get("stop_name", "")))
                if len(pair) == 2 and pair[0] != pair[1]]

    def elevators(self, station):
        return self.feed.elevator_pathways(station)

    def places(self, station):
        """Every phrase a level of the station (levels.txt) or a location of it names as a level
        or place (words, "level" aside)."""
        found = []
        for stop_id in self.feed.order:
            level = self.stop_level.get(stop_id)
            if self.feed.station_of.get(stop_id) == station and level:
                found.append(set(phrase(level).split()) - {"level"})
            if self.feed.station_of.get(stop_id) == station:
                for text in (self.feed.stops[stop_id].get("stop_desc", ""), self.feed.stops[stop_id].get("stop_name", "")):
                    for place in levels(text):
                        words = set(place.split()) - {"level"}
                        if words:
                            found.append(words)
        return found

    def on_map(self, station, place):
        words = set(place.split()) - {"level"}
        sides = {"north", "south", "east", "west", "side", "center", "central", "upper", "lower", "main"}
        if not words or words <= sides:
            return True
        return any(words <= known or known <= words for known in self.places(station))

    def access(self, station, closed):
        entered = self.feed.reach(station, set(closed), backwards=False)
        left = self.feed.reach(station, set(closed), backwards=True)
        result = []
        for platform in self.feed.platforms(station):
            area = {platform} | {s for s in self.feed.order if self.feed._type(s) == 4 and self.feed.stops[s].get("parent_station") == platform}
            result.append({"stopId": platform, "entry": bool(area & entered), "exit": bool(area & left)})
        return result

    def expect(self, row):
        station = self.station(row.get("StationCode", ""))
        kind = (row.get("UnitType") or "").upper()
        named = levels(row.get("LocationDescription", ""))
        out = {"unitId": row["UnitName"], "stationId": station, "unitType": kind, "placed": None, "unplaced": None, "candidates": [],
               "platforms": []}
        if station is None:
            return out
        base = self.access(station, [])
        out["platforms"] = base
        if kind != "ELEVATOR":
            return out
        matching = []
        if len(set(named)) == 2:
            a, b = bare(named[0]), bare(named[1])

            def pairs(r):
                return self.node_levels(r["from_stop_id"]) + self.node_levels(r["to_stop_id"])
            matching = [r["pathway_id"] for r in self.elevators(station) if any({frozenset(x), frozenset(y)} == {frozenset(a), frozenset(b)}
                                                                            for x, y in pairs(r))]
            if not matching:
                matching = [r["pathway_id"] for r in self.elevators(station)
                            if any((near(x, a) and near(y, b)) or (near(x, b) and near(y, a)) for x, y in pairs(r))]
        if len(matching) == 1:
            out["placed"] = matching
            out["platforms"] = self.access(station, matching)
        elif len(matching) > 1:
            out["unplaced"], out["candidates"] = "ambiguous", matching
        elif named and not all(self.on_map(station, place) for place in named):
            out["unplaced"] = "offTheMap"
        else:
            out["unplaced"], out["candidates"] = "other", [r["pathway_id"] for r in self.elevators(station)]
        if out["candidates"]:
            variants = [self.access(station, [candidate]) for candidate in out["candidates"]]
            out["platforms"] = [{"stopId": p["stopId"],
                                 "entry": p["entry"] if all(v[i]["entry"] == p["entry"] for v in variants) else None,
                                 "exit": p["exit"] if all(v[i]["exit"] == p["exit"] for v in variants) else None}
                                for i, p in enumerate(base)]
        return out

    def body(self):
        rows = []
        for station in self.feed.stations_with_pathways():
            codes = station[4:].split("_")
            pairs = []
            for r in self.elevators(station):
                for end in (r["from_stop_id"], r["to_stop_id"]):
                    for text in (self.feed.stops[end].get("stop_desc", ""), self.feed.stops[end].get("stop_name", "")):
                        pair = levels(text)
                        if len(pair) == 2 and pair[0] != pair[1] and frozenset(pair) not in [frozenset(p) for p in pairs]:
                            pairs.append(pair)
            for n, pair in enumerate(pairs, start=1):
                code = codes[n % 2] if len(codes) > 1 else codes[0]
                rows.append({"UnitName": f"{codes[0]}X{n:02d}", "UnitType": "ELEVATOR", "UnitStatus": None, "StationCode": code,
                             "StationName": self.feed.stops[station].get("stop_name", ""),
                             "LocationDescription": f"Elevator between {pair[0]} and {pair[1]}",
                             "SymptomCode": None, "TimeOutOfService": "0600", "SymptomDescription": "Service Call",
                             "DisplayOrder": 0, "DateOutOfServ": "2026-04-30T06:00:00", "DateUpdated": "2026-04-30T06:05:00",
                             "EstimatedReturnToService": "2026-05-02T23:59:59"})
        return {"ElevatorIncidents": rows}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("feed")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--body")
    parser.add_argument("--access", nargs="+", metavar=("STATION", "PATHWAY"))
    args = parser.parse_args()
    wmata = WMATA(args.feed)
    if args.access:
        print(json.dumps(wmata.access(args.access[0], args.access[1:])))
        return
    generated = wmata.body()
    with open(os.path.join(args.out, "incidents.json"), "w", encoding="utf-8") as handle:
        json.dump(generated, handle, indent=1)
    body = generated
    if args.body:
        with open(args.body, encoding="utf-8") as handle:
            body = json.load(handle)
    with open(os.path.join(args.out, "expected.json"), "w", encoding="utf-8") as handle:
        json.dump([wmata.expect(row) for row in body["ElevatorIncidents"]], handle, indent=1)


if __name__ == "__main__":
    main()
