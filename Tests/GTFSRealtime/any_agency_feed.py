#!/usr/bin/env python3
"""The real MBTA Service Alerts capture (Tests/Fixtures/gtfs-realtime/mbta-2017-12-23_alerts.pb),
live now, for the any-agency tests. Needs the reference bindings (gtfs-realtime-bindings, in the
test virtual environment that venv.sh makes).

    any_agency_feed.py --out FILE.pb --now EPOCH

Every active period is shifted by (now - the capture's header timestamp), so each alert is what
it was at the capture's moment. Alerts MADE FOR THE TEST are appended, each marked `test-`: a
ferry route alert and a ferry route_type alone (trains never), a bus route alert at a rail
station's stop (dropped by its route_type), and light rail's route_type alone (every light-rail
station).
"""

import argparse
import os

from google.transit import gtfs_realtime_pb2 as rt

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(HERE, "..", "Fixtures", "gtfs-realtime", "mbta-2017-12-23_alerts.pb")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--now", type=int, required=True)
    args = parser.parse_args()
    feed = rt.FeedMessage()
    with open(CAPTURE, "rb") as f:
        feed.ParseFromString(f.read())
    shift = args.now - feed.header.timestamp
    feed.header.timestamp = args.now
    for entity in feed.entity:
        for period in entity.alert.active_period:
            if period.HasField("start"):
                period.start += shift
            if period.HasField("end"):
                period.end += shift

    def alert(ident, header, **selector):
        entity = feed.entity.add()
        entity.id = ident
        entity.alert.header_text.translation.add(text=header, language="en")
        informed = entity.alert.informed_entity.add()
        for name, value in selector.items():
            setattr(informed, name, value)

    alert("test-ferry-route", "Hingham ferry delayed", agency_id="1", route_id="Boat-F1", route_type=4)
    alert("test-ferry-mode", "All ferries suspended", agency_id="1", route_type=4)
    alert("test-bus-at-rail-stop", "Route 15 stop moved", agency_id="1", route_id="15", route_type=3, stop_id="70027")
    alert("test-light-rail-mode", "Green Line: shuttle buses", route_type=0)
    with open(args.out, "wb") as f:
        f.write(feed.SerializeToString())


if __name__ == "__main__":
    main()
