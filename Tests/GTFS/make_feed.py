#!/usr/bin/env python3
"""A small GTFS feed for stopsheetd's tests. Standard library only.

    python3 make_feed.py --out DIR [--stored] [--folder NAME] [--dir]

stops.txt is the REAL CTA rows of 2022-01 (Tests/Fixtures/gtfs_stops_2022-01.RAIL_SUBSET.txt),
verbatim. routes.txt, trips.txt and stop_times.txt are MADE FOR THE TEST: one trip per line per
platform, the lines taken from the real 'L' stops export of 2021 (Tests/Fixtures/L_stops_2021.csv,
its route flags; Purple Express trips run as route P, as in CTA's GTFS, whose route ids are
CTA's canonical ones), and bus trips serving the bus bays CTA parents to rail stations.

Writes DIR/feed.zip (deflated, or stored with --stored; entries inside NAME/ with --folder), or
with --dir the unpacked tables in DIR/feed/.
"""

import argparse
import csv
import io
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures")
FLAGS = {"RED": "Red", "BLUE": "Blue", "G": "G", "BRN": "Brn", "P": "P", "Pexp": "P", "Y": "Y", "Pnk": "Pink", "O": "Org"}


def tables():
    with open(os.path.join(FIXTURES, "gtfs_stops_2022-01.RAIL_SUBSET.txt"), "rb") as f:
        stops = f.read()
    gtfs_ids = {row["stop_id"] for row in csv.DictReader(io.StringIO(stops.decode("utf-8-sig")))}
    routes = ["route_id,route_short_name,route_long_name,route_type"]
    routes += [f"{route},,{route} (made for the test),1" for route in sorted(set(FLAGS.values()))]
    routes += ["22,22,Clark (made for the test),3", "95,95,95th (made for the test),3"]
    trips = ["route_id,service_id,trip_id,direction_id"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    with open(os.path.join(FIXTURES, "L_stops_2021.csv"), encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["STOP_ID"] not in gtfs_ids:
                continue
            for flag, route in FLAGS.items():
                if row[flag].strip().lower() == "true":
                    trip = f"{route}-{row['STOP_ID']}-{flag}"
                    trips.append(f"{route},wk,{trip},0")
                    times.append(f"{trip},08:00:00,08:00:00,{row['STOP_ID']},1")
    for bay in sorted(i for i in gtfs_ids if i.startswith(("14", "17"))):
        trips.append(f"95,wk,bus-{bay},0")
        times.append(f"bus-{bay},09:00:00,09:00:00,{bay},1")
    text = lambda lines: ("\r\n".join(lines) + "\r\n").encode()
    return {"stops.txt": stops, "routes.txt": text(routes), "trips.txt": text(trips), "stop_times.txt": text(times),
            "agency.txt": b"agency_id,agency_name,agency_url,agency_timezone\r\nCTA,Chicago Transit Authority,https://www.transitchicago.com,America/Chicago\r\n"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--stored", action="store_true")
    parser.add_argument("--folder", default="")
    parser.add_argument("--dir", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.dir:
        os.makedirs(os.path.join(args.out, "feed"), exist_ok=True)
        for name, data in tables().items():
            with open(os.path.join(args.out, "feed", name), "wb") as f:
                f.write(data)
        return
    method = zipfile.ZIP_STORED if args.stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(os.path.join(args.out, "feed.zip"), "w", method) as archive:
        for name, data in tables().items():
            archive.writestr((args.folder + "/" if args.folder else "") + name, data)


if __name__ == "__main__":
    main()
