#!/usr/bin/env python3
"""An independent reading of issue 52's two joins: which station each lift-status unit is at,
by the deployer's station table (station_ref,stop_id) and by position (--facilities-radius),
over a real GTFS stops.txt.

It makes a few thousand units (seeded, so the run is the same every time) around the feed's
real stops: some naming a station reference the table it writes lists (one reference to two
stations among them, rows naming no stop), some one it does not list, positions near a
station, between two, far from any, or none. Then it says where each is, by brute force (every
unit against every stop, no index), with its own haversine:

- the table first: the stations of the rows of the unit's reference whose stop_id is a stop
  of a station (`joinedBy` table);
- else, with a position: each station's nearest stop (the station row, or any stop whose
  parent chain reaches it); the nearest station when within the radius, and every other
  station whose nearest stop is within 50 m of that distance (`joinedBy` position, with the
  distances);
- else at no station.

A station is a location_type 1 row with at least one platform (a location_type 0 or empty
child), as the daemon's station directory keeps them.

Usage: facility_joins.py STOPS_TXT OUT_DIR [--units N] [--seed S] [--radius METRES[,METRES…]]
Writes OUT_DIR/units.json, OUT_DIR/stations.csv and OUT_DIR/expected-METRES.json for each radius.
"""
import argparse
import csv
import json
import math
import os
import random

EARTH_RADIUS = 6371008.8  # metres, the IUGG mean radius
TIE = 50.0


def haversine(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


def offset(point, metres, bearing):
    """The point `metres` away along `bearing` (radians), on the same sphere."""
    lat, lon = map(math.radians, point)
    d = metres / EARTH_RADIUS
    lat2 = math.asin(math.sin(lat) * math.cos(d) + math.cos(lat) * math.sin(d) * math.cos(bearing))
    lon2 = lon + math.atan2(math.sin(bearing) * math.sin(d) * math.cos(lat), math.cos(d) - math.sin(lat) * math.sin(lat2))
    return (math.degrees(lat2), math.degrees(lon2))


def read_stops(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    by_id = {r["stop_id"]: r for r in rows}

    def station_of(stop_id, depth=0):
        row = by_id.get(stop_id)
        if row is None or depth > 3:
            return None
        if row["location_type"] == "1":
            return stop_id
        parent = row.get("parent_station", "")
        return station_of(parent, depth + 1) if parent else None

    with_platforms = {r["parent_station"] for r in rows
                      if r["location_type"] in ("", "0") and by_id.get(r["parent_station"], {}).get("location_type") == "1"}
    station = {}
    position = {}
    for r in rows:
        s = station_of(r["stop_id"])
        if s in with_platforms:
            station[r["stop_id"]] = s
            if r["stop_lat"] and r["stop_lon"]:
                position[r["stop_id"]] = (float(r["stop_lat"]), float(r["stop_lon"]))
    return station, position


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stops")
    parser.add_argument("out")
    parser.add_argument("--units", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--radius", default="300")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    station, position = read_stops(args.stops)
    stations = sorted(set(station.values()))
    stops_of = {s: sorted(stop for stop, st in station.items() if st == s) for s in stations}

    # The table: a reference per station, to one of its stops; every tenth also to a second
    # station's; a few rows naming a stop that does not exist.
    table = []
    refs = []
    for index, s in enumerate(stations):
        ref = "R%d" % index
        refs.append(ref)
        table.append((ref, rng.choice(stops_of[s])))
        if index % 10 == 0:
            table.append((ref, rng.choice(stops_of[rng.choice(stations)])))
    for index in range(5):
        table.append(("GONE%d" % index, "no-such-stop-%d" % index))
        refs.append("GONE%d" % index)

    positioned = sorted(position)
    units = []
    for index in range(args.units):
        unit = {"unitId": "U%05d" % index}
        roll = rng.random()
        if roll < 0.25:
            unit["stationRef"] = rng.choice(refs)
        elif roll < 0.35:
            unit["stationRef"] = "UNLISTED%d" % index
        roll = rng.random()
        if roll < 0.70:
            unit["position"] = offset(position[rng.choice(positioned)], rng.uniform(0, 700), rng.uniform(0, 2 * math.pi))
        elif roll < 0.85:
            a, b = position[rng.choice(positioned)], position[rng.choice(positioned)]
            # Between two stops, which are near each other only by chance: some ties.
            unit["position"] = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) if haversine(a, b) < 800 else offset(a, rng.uniform(0, 120), rng.uniform(0, 2 * math.pi))
        elif roll < 0.92:
            unit["position"] = offset(position[rng.choice(positioned)], rng.uniform(20_000, 60_000), rng.uniform(0, 2 * math.pi))
        units.append(unit)

    table_stations = {}
    for ref, stop in table:
        if stop in station:
            table_stations.setdefault(ref, [])
            if station[stop] not in table_stations[ref]:
                table_stations[ref].append(station[stop])

    # Each unit's distance to each station's nearest stop, by brute force, once for every radius.
    nearest_of = []
    for unit in units:
        nearest = {}
        if "position" in unit:
            for stop, point in position.items():
                d = haversine(unit["position"], point)
                s = station[stop]
                if d < nearest.get(s, math.inf):
                    nearest[s] = d
        nearest_of.append(nearest)

    radii = [float(r) for r in args.radius.split(",")]
    expected = {}
    for radius in radii:
        rows = []
        for unit, nearest in zip(units, nearest_of):
            ref = unit.get("stationRef")
            if ref in table_stations:
                rows.append({"unitId": unit["unitId"], "joinedBy": "table", "stations": {s: None for s in table_stations[ref]}})
                continue
            if nearest and min(nearest.values()) <= radius:
                best = min(nearest.values())
                rows.append({"unitId": unit["unitId"], "joinedBy": "position",
                             "stations": {s: d for s, d in nearest.items() if d <= best + TIE}})
                continue
            rows.append({"unitId": unit["unitId"], "joinedBy": None, "stations": {}})
        expected[radius] = rows

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "units.json"), "w") as f:
        json.dump(units, f)
    with open(os.path.join(args.out, "stations.csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\r\n")
        writer.writerow(["station_ref", "stop_id"])
        writer.writerows(table)
    for radius, rows in expected.items():
        with open(os.path.join(args.out, "expected-%d.json" % radius), "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
