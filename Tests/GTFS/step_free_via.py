#!/usr/bin/env python3
"""An independent reading of each platform's ways (issue 51, protocol.md's `via`) over a GTFS
feed's stops.txt and pathways.txt, walking from each street end alone. Standard library only;
written from the issue's words, sharing no code with the daemon (the tables are read, and each
station's street ends found, by Tests/GTFS/step_free.py).

    python3 step_free_via.py FEED_DIR > expected.json

For every station with pathways and a street, and each of these moments:

    "open"          nothing out
    "out P"         the elevator pathway P out (each elevator of the station in turn)
    "unknown P"     the station's first elevator pathway P of unknown status
    "unplaced"      an elevator out that is placed on no pathway: any one of the station's
                    elevators may be it (only at a station with an elevator)

it writes `{station: {moment: [{"stopId", "entry", "exit", "via": [{"id", "name", "entry",
"exit"}]}]}}`, platforms in stops.txt order. The rules, as the issue states them:
- a way is a street end (an entrance not marked `wheelchair_boarding` 2, or the station's
  `<station>-Outside` node) from which the platform (or one of its boarding areas) is reached,
  or to which it leads, over step-free pathways with every pathway open; in stops.txt order;
- its entry and exit say whether it does so now: False when the outage takes it, None when the
  value differs between the pathways out and those out together with what may be out (an unknown
  unit's, or any one elevator for the unplaced one);
- the platform's entry is True when some street end reaches it now and does so whichever outage
  in doubt is out, False when none does now, else None; the same for exit. So it is True when
  some way's is, False when every way's is False, and where none is True and some is None, True
  only if every outage in doubt leaves some way (two ambiguous lifts, each on another way).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import step_free  # noqa: E402


def edges(rows, closed, backwards):
    out = {}
    for row in rows:
        if int(row["pathway_mode"]) not in step_free.STEP_FREE_MODES or row["pathway_id"] in closed:
            continue
        a, b = row["from_stop_id"], row["to_stop_id"]
        for start, end in [(a, b)] + ([(b, a)] if row["is_bidirectional"] == "1" else []):
            if backwards:
                start, end = end, start
            out.setdefault(start, []).append(end)
    return out


def walk(graph, start):
    """Every node reached from `start` alone."""
    seen, stack = {start}, [start]
    while stack:
        for node in graph.get(stack.pop(), []):
            if node not in seen:
                seen.add(node)
                stack.append(node)
    return seen


def reading(feed, station, closed):
    """{street end: (nodes it reaches, nodes that reach it)} with `closed` out."""
    rows = feed.pathways[station]
    forward, backward = edges(rows, closed, False), edges(rows, closed, True)
    return {end: (walk(forward, end), walk(backward, end)) for end in feed.streets(station, step_free=True)}


def moment(feed, station, closed, doubts, everything):
    best = reading(feed, station, closed)
    doubted = [reading(feed, station, more) for more in doubts]
    platforms = []
    for platform in feed.platforms(station):
        area = {platform} | set(feed.boarding.get(platform, []))
        via = []
        for end in feed.streets(station, step_free=True):
            if not (area & everything[end][0] or area & everything[end][1]):
                continue
            said = []
            for side in (0, 1):
                now = bool(area & best[end][side])
                said.append(now if all(bool(area & other[end][side]) == now for other in doubted) else None)
            via.append({"id": end, "name": feed.stops[end].get("stop_name", ""), "entry": said[0], "exit": said[1]})

        def either(name):
            side = 0 if name == "entry" else 1
            # Some street end reaches the platform now, and does whichever outage in doubt is out.
            reached = [any(area & seen[end][side] for end in seen) for seen in [best] + doubted]
            return reached[0] if all(value == reached[0] for value in reached) else None

        platforms.append({"stopId": platform, "entry": either("entry"), "exit": either("exit"), "via": via})
    return platforms


def main():
    feed = step_free.Feed(sys.argv[1])
    result = {}
    for station in feed.stations_with_pathways():
        if not feed.streets(station, step_free=False):
            continue
        lifts = [row["pathway_id"] for row in feed.elevator_pathways(station)]
        everything = reading(feed, station, set())
        moments = {"open": moment(feed, station, set(), [], everything)}
        for lift in lifts:
            moments["out " + lift] = moment(feed, station, {lift}, [], everything)
        for lift in lifts[:1]:
            moments["unknown " + lift] = moment(feed, station, set(), [{lift}], everything)
        if lifts:
            moments["unplaced"] = moment(feed, station, set(), [{lift} for lift in lifts], everything)
        result[station] = moments
    json.dump(result, sys.stdout, indent=None, separators=(",", ":"))


if __name__ == "__main__":
    main()
