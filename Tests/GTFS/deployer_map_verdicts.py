#!/usr/bin/env python3
"""An independent reading of a deployer's map (issue 50, `--topology-url`) over CTA's 'L' stops,
for the tests to compare stopsheetd's verdicts with. Standard library only.

    deployer_map_verdicts.py L_STOPS_CSV MAP_DIRECTORY ALERTS_JSON

The map's stops.txt hangs under the 'L' stops' own ids: the station (MAP_ID) and platform
(STOP_ID) rows are made from the CSV first, and the map's rows repeating them are matched by id.
A station whose map does not reach, both ways from the street, each platform the CSV does not
call stepped (ADA false) has no map. Each alert (CTA's alerts.aspx JSON) is read alone at each
station it names (a `T` service): prints {alertId: {stationId: verdict}}, the verdict as
step_free.Feed.verdict gives it, or "no map".
"""

import csv
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import step_free  # noqa: E402


def main(l_stops, directory, alerts_path):
    with open(l_stops, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    work = tempfile.mkdtemp()
    try:
        with open(os.path.join(work, "stops.txt"), "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["stop_id", "stop_name", "location_type", "parent_station", "wheelchair_boarding"])
            stations = set()
            for row in rows:
                if row["MAP_ID"] not in stations:
                    stations.add(row["MAP_ID"])
                    writer.writerow([row["MAP_ID"], row["STATION_NAME"], "1", "", ""])
            for row in rows:
                writer.writerow([row["STOP_ID"], row["STOP_NAME"], "0", row["MAP_ID"], ""])
            with open(os.path.join(directory, "stops.txt"), encoding="utf-8-sig", newline="") as handle:
                reader = csv.reader(handle)
                header = [name.strip() for name in next(reader)]
                for line in reader:
                    found = dict(zip(header, line))
                    # Stations and platforms are the CSV's: a map's row of either is a repeat, or
                    # one the station data lacks (no location).
                    if found.get("location_type", "").strip() in ("", "0", "1"):
                        continue
                    writer.writerow([found.get(name, "") for name in ["stop_id", "stop_name", "location_type", "parent_station", "wheelchair_boarding"]])
        for table in ("pathways.txt", "levels.txt"):
            if os.path.exists(os.path.join(directory, table)):
                shutil.copy(os.path.join(directory, table), os.path.join(work, table))
        feed = step_free.Feed(work)
    finally:
        shutil.rmtree(work)
    stepped = {row["STOP_ID"] for row in rows if row["ADA"].lower() == "false"}

    def mapped(station):
        if not feed.pathways.get(station):
            return False
        entered, left = feed.reach(station, set(), False), feed.reach(station, set(), True)
        return all(platform in entered and platform in left
                   for platform in (row["STOP_ID"] for row in rows if row["MAP_ID"] == station) if platform not in stepped)

    with open(alerts_path, encoding="utf-8") as handle:
        alerts = json.load(handle)["CTAAlerts"]["Alert"]
    verdicts = {}
    for alert in alerts:
        services = alert["ImpactedService"]["Service"]
        services = services if isinstance(services, list) else [services]
        for station in (service["ServiceId"] for service in services if service["ServiceType"] == "T"):
            outage = {"alertId": alert["AlertId"], "headline": alert["Headline"], "description": alert.get("ShortDescription") or "",
                      "effect": "ACCESSIBILITY_ISSUE", "stops": [station]}
            verdicts.setdefault(alert["AlertId"], {})[station] = feed.verdict(station, [outage]) if mapped(station) else "no map"
    json.dump(verdicts, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
