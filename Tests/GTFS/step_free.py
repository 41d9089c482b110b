#!/usr/bin/env python3
"""An independent reading of the step-free rules (docs/stop-sheet.md, step-free now) over a GTFS
feed's stops.txt and pathways.txt, for the tests to compare stopsheetd's verdicts with. Standard
library only; written from the GTFS reference and the issue's words, sharing no code with the
daemon.

    import step_free
    feed = step_free.Feed("Tests/Fixtures/gtfs-pathways/prague-pid-2020-07-02")
    feed.verdict(station_id, outages)   # outages: [{"alertId", "headline", "effect",
                                        #            "effectDetail", "stops": [stop ids]}]
    feed.verdict(station_id, outages, units)  # and lift-status units: [{"unitId", "status"}]

An elevator alert that takes out no pathway may be any one of the station's elevators: a
platform whose entry or exit changes with any one of them out has it None.

Fields are read with Python's csv module and stripped of surrounding whitespace, as the daemon's
GTFS tables are (Prague's pathways.txt names `U921N2 ` with a trailing space).
"""

import csv
import os
import re

STEP_FREE_MODES = {1, 3, 5, 6, 7}   # walkway, moving sidewalk, elevator, fare gate, exit gate
ELEVATOR = 5


def read_table(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [{key.strip().lower(): (value or "").strip() for key, value in row.items() if key is not None}
                for row in csv.DictReader(handle)]


def words(text):
    return re.findall(r"[^\W_]+", text.lower())


class Feed:
    def __init__(self, directory):
        self.stops = {}
        self.order = []
        for row in read_table(os.path.join(directory, "stops.txt")):
            if row["stop_id"] and row["stop_id"] not in self.stops:
                self.stops[row["stop_id"]] = row
                self.order.append(row["stop_id"])
        self.station_of = {}
        for stop_id in self.order:
            station = self._station(stop_id)
            if station is not None:
                self.station_of[stop_id] = station
        # Each station's locations, and each platform's boarding areas, in stops.txt order.
        self.members, self.boarding = {}, {}
        for stop_id in self.order:
            if stop_id in self.station_of:
                self.members.setdefault(self.station_of[stop_id], []).append(stop_id)
                if self._type(stop_id) == 4:
                    self.boarding.setdefault(self.stops[stop_id].get("parent_station"), []).append(stop_id)
        self.pathways = {}   # station -> [pathway row]
        seen = set()
        for row in read_table(os.path.join(directory, "pathways.txt")):
            ends = [self.station_of.get(row["from_stop_id"]), self.station_of.get(row["to_stop_id"])]
            if (not row["pathway_id"] or row["pathway_id"] in seen or None in ends or ends[0] != ends[1]
                    or row["pathway_mode"] not in {str(mode) for mode in range(1, 8)} or row["is_bidirectional"] not in {"0", "1"}):
                continue
            seen.add(row["pathway_id"])
            self.pathways.setdefault(ends[0], []).append(row)

    def _type(self, stop_id):
        text = self.stops[stop_id].get("location_type", "")
        return int(text) if text else 0

    def _station(self, stop_id):
        """The station of an entrance, platform, generic node or boarding area; None otherwise."""
        kind = self._type(stop_id)
        parent = self.stops[stop_id].get("parent_station", "")
        if kind == 4:
            if parent not in self.stops or self._type(parent) != 0:
                return None
            parent = self.stops[parent].get("parent_station", "")
        elif kind not in (0, 2, 3):
            return None
        return parent if parent in self.stops and self._type(parent) == 1 else None

    def stations_with_pathways(self):
        return sorted(self.pathways)

    def platforms(self, station):
        return [stop for stop in self.members.get(station, []) if self._type(stop) == 0]

    def elevator_pathways(self, station):
        return [row for row in self.pathways.get(station, []) if int(row["pathway_mode"]) == ELEVATOR]

    # -- the outage rules --

    @staticmethod
    def facility(outage):
        """'elevator' / 'escalator' / 'other', or None when the alert is no facility outage."""
        headline = words(outage.get("headline", ""))
        text = " " + " ".join(headline) + " "
        if " back in service " in text or " returned to service " in text:
            if " out of service " not in text:
                return None
        detail = "_".join(words(outage.get("effectDetail", ""))).upper()
        elevator = "elevator" in headline or "elevators" in headline
        escalator = "escalator" in headline or "escalators" in headline
        says_out = any(f" {phrase} " in text for phrase in ("unavailable", "out of service", "closed", "not in service"))
        if not (outage.get("effect") == "ACCESSIBILITY_ISSUE" or detail in ("ELEVATOR_CLOSURE", "ESCALATOR_CLOSURE")
                or ((elevator or escalator) and says_out)):
            return None
        if elevator or detail == "ELEVATOR_CLOSURE" and not escalator:
            return "elevator"
        if escalator or detail == "ESCALATOR_CLOSURE":
            return "escalator"
        return "other"

    def taken_out(self, station, outage, facility):
        if facility == "escalator":
            return []
        headline = words(outage.get("headline", ""))
        numbers = {after for word, after in zip(headline, headline[1:]) if word == "elevator" and after.isdigit()}
        named = {stop for stop in outage.get("stops", []) if stop in self.stops and self._type(stop) in (3, 4)}
        found = [row["pathway_id"] for row in self.elevator_pathways(station)
                 if row["from_stop_id"] in named or row["to_stop_id"] in named
                 or numbers & {row.get("facility_id", ""), row.get("pathway_code", ""), row.get("signposted_as", "")}]
        return found or self.named_by_phrase(station, outage)

    def named_by_phrase(self, station, outage):
        """Issue 50: the elevators whose signposted_as or reversed_signposted_as the headline or
        the description holds as a run of words (case aside, a hyphen a space); of two phrases
        held where one is part of the other, only the longer counts."""
        texts = [words(outage.get("headline", "")), words(outage.get("description", ""))]

        def holds(text, phrase):
            return any(text[start:start + len(phrase)] == phrase for start in range(len(text) - len(phrase) + 1))

        named = {}
        for row in self.elevator_pathways(station):
            for column in ("signposted_as", "reversed_signposted_as"):
                phrase = words(row.get(column, ""))
                if phrase and any(holds(text, phrase) for text in texts):
                    named.setdefault(row["pathway_id"], []).append(phrase)
        phrases = [phrase for found in named.values() for phrase in found]
        longest = [phrase for phrase in phrases if not any(len(other) > len(phrase) and holds(other, phrase) for other in phrases)]
        return [pathway for pathway, found in named.items() if any(phrase in longest for phrase in found)]

    def applies(self, station, outage):
        return any(stop == station or self.station_of.get(stop) == station for stop in outage.get("stops", []))

    # -- reachability --

    def reach(self, station, closed, backwards):
        edges = {}
        for row in self.pathways.get(station, []):
            if int(row["pathway_mode"]) not in STEP_FREE_MODES or row["pathway_id"] in closed:
                continue
            a, b = row["from_stop_id"], row["to_stop_id"]
            pairs = [(a, b)] + ([(b, a)] if row["is_bidirectional"] == "1" else [])
            for start, end in pairs:
                if backwards:
                    start, end = end, start
                edges.setdefault(start, []).append(end)
        starts = self.streets(station, step_free=True)
        reached = set(starts)
        queue = list(starts)
        while queue:
            for nxt in edges.get(queue.pop(), []):
                if nxt not in reached:
                    reached.add(nxt)
                    queue.append(nxt)
        return reached

    def streets(self, station, step_free):
        """Where the street is: the station's entrances (those not marked stepped, when
        `step_free`), and TfL's street, the generic node named `<station>-Outside` (TfL's map has
        no entrances; Stations.csv's OutsideStationUniqueId)."""
        entrances = [stop for stop in self.members.get(station, []) if self._type(stop) == 2
                     and not (step_free and self.stops[stop].get("wheelchair_boarding", "") == "2")]
        outside = station + "-Outside"
        tfl = [outside] if outside in self.stops and self._type(outside) == 3 and self.station_of.get(outside) == station else []
        return entrances + tfl

    def map_status(self, station):
        """The button's status from the map, for a station whose data gives none: 'available'
        when every platform can be entered and left from the street, 'partial' when some can,
        'none' when none can; None when the station has no pathways or its map no street."""
        if not self.pathways.get(station) or not self.streets(station, step_free=False):
            return None
        entered, left = self.reach(station, set(), False), self.reach(station, set(), True)
        platforms = self.platforms(station)
        both = sum(1 for platform in platforms if platform in entered and platform in left)
        return "none" if both == 0 else "available" if both == len(platforms) else "partial"

    def unit_pathways(self, station, unit_id):
        """A lift-status unit's pathways: those whose facility_id, pathway_code, signposted_as or
        pathway_id is its id, else the elevators ending at the stop whose id it is."""
        rows = self.pathways.get(station, [])
        named = [row["pathway_id"] for row in rows
                 if unit_id in (row.get("facility_id", ""), row.get("pathway_code", ""), row.get("signposted_as", ""), row["pathway_id"])]
        if named:
            return named
        # TfL names each lift's pathways `<from>-<to>-lift-<LiftUniqueId>`.
        tfl = [row["pathway_id"] for row in self.elevator_pathways(station) if row["pathway_id"].endswith("-lift-" + unit_id)]
        if tfl:
            return tfl
        return [row["pathway_id"] for row in self.elevator_pathways(station) if unit_id in (row["from_stop_id"], row["to_stop_id"])]

    def verdict(self, station, outages, units=()):
        """The station's verdict as a dict shaped like protocol.md's `now` (basis pathways only).
        `units`: lift-status units at the station, [{"unitId", "status"}]; `notAvailable` closes
        its pathways, `unknown` leaves them neither open nor closed (a platform whose entry or exit
        differs either way has None), `partiallyAvailable` is listed, `available` is not."""
        placed = []
        listed = [dict(unit, pathways=self.unit_pathways(station, unit["unitId"])) for unit in units if unit["status"] != "available"]
        for wanted in ("elevator", "escalator", "other"):
            for outage in outages:
                facility = self.facility(outage)
                if facility == wanted and self.applies(station, outage):
                    numbers = [after for word, after in zip(words(outage["headline"]), words(outage["headline"])[1:])
                               if word == "elevator" and after.isdigit()]
                    placed.append({"alertId": outage["alertId"], "facility": facility, "facilityId": numbers[0] if numbers else None,
                                   "pathways": self.taken_out(station, outage, facility), "source": "alerts", "status": "notAvailable"})
            for unit in listed:
                modes = {int(row["pathway_mode"]) for row in self.pathways.get(station, []) if row["pathway_id"] in unit["pathways"][:1]}
                facility = "elevator" if modes == {ELEVATOR} or not modes else "escalator" if modes == {4} else "other"
                if facility == wanted:
                    placed.append({"alertId": "", "facility": facility, "facilityId": unit["unitId"], "pathways": unit["pathways"],
                                   "source": "facilities", "status": unit["status"]})
        if not self.streets(station, step_free=False):
            # No street on the map: nothing said of any platform, never "none".
            return {"stepFree": "unknown", "basis": "pathways", "complete": False,
                    "platforms": [{"stopId": platform, "entry": None, "exit": None} for platform in self.platforms(station)],
                    "outages": placed}
        closed = {pathway for outage in placed if outage["status"] == "notAvailable" for pathway in outage["pathways"]}
        unsure = {pathway for outage in placed if outage["status"] == "unknown" for pathway in outage["pathways"]}
        # An elevator alert on no pathway may be any one of the station's elevators (issue 42).
        anyone = {row["pathway_id"] for row in self.elevator_pathways(station)} if any(
            o["source"] == "alerts" and o["facility"] == "elevator" and not o["pathways"] for o in placed) else set()
        best = (self.reach(station, closed, backwards=False), self.reach(station, closed, backwards=True))
        # What may be out as well: the units of unknown status, and any one elevator of the
        # station for an elevator alert or unit placed on none (issue 42: never taken as up).
        doubts = []
        if unsure - closed:
            doubts.append(closed | unsure)
        if anyone or any(o["source"] == "facilities" and o["facility"] == "elevator" and not o["pathways"]
                         and o["status"] != "partiallyAvailable" for o in placed):
            doubts += [closed | {row["pathway_id"]} for row in self.elevator_pathways(station) if row["pathway_id"] not in closed]
        doubts = [(self.reach(station, out, backwards=False), self.reach(station, out, backwards=True)) for out in doubts]
        platforms = []
        for platform in self.platforms(station):
            area = {platform} | set(self.boarding.get(platform, []))
            said = [bool(area & best[i]) if all(bool(area & best[i]) == bool(area & doubt[i]) for doubt in doubts) else None
                    for i in (0, 1)]
            platforms.append({"stopId": platform, "entry": said[0], "exit": said[1]})
        both = sum(1 for p in platforms if p["entry"] and p["exit"])
        undecided = sum(1 for p in platforms if None in (p["entry"], p["exit"]) and False not in (p["entry"], p["exit"]))
        if not platforms:
            word = "unknown"
        elif both == len(platforms):
            word = "available"
        elif both == 0 and undecided == 0:
            word = "none"
        elif both == 0 and undecided == len(platforms):
            word = "unknown"
        else:
            word = "partial"
        unresolved = any(o["facility"] == "elevator" and not o["pathways"] and o["status"] != "partiallyAvailable" for o in placed)
        return {"stepFree": word, "basis": "pathways",
                "complete": not unresolved and all(p["entry"] is not None and p["exit"] is not None for p in platforms),
                "platforms": platforms, "outages": placed}
