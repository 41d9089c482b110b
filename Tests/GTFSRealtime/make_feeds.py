#!/usr/bin/env python3
"""GTFS-realtime feeds for stopsheetd's tests, built with the independent encoder
(PyPI gtfs-realtime-bindings), with what each feed says as JSON beside it: the oracle.

    python make_feeds.py --out DIR --now EPOCH

Writes into DIR:
  feed.pb             the real 2015-02-14 CTA capture's alerts (Tests/Fixtures/
                      alerts_2015-02-14.DERIVED.json) re-expressed as GTFS-realtime, their times
                      shifted so the capture's moment is --now; plus entities MADE FOR THE TEST
                      (ids "test-…"): several translations, unknown fields, extensions, a negative
                      route_type, a bus-only selector, period gaps, a deleted entity, a trip update
  feed.expected.json  {"alerts": [...]} — every live train alert the feed carries, in feed order,
                      as protocol.md's alert shape (id, kind, headline, description, scopes, and
                      the detail members), derived from the parsed feed by this script's own reading of the
                      GTFS-realtime reference; "captureTrainIds": the capture's alerts that touch
                      trains
  truncated-N.pb      feed.pb cut at points where the encoder itself refuses to parse
  abuse-*.pb          hostile bodies: a group, a length past the end, an overlong varint, a
                      headline that is not UTF-8, a known field of the wrong wire type, a million
                      entities, a body over 16 MiB
  seed-*.pb           small feeds for the fuzzer's corpus
"""

import argparse
import datetime
import json
import os
import sys
import zoneinfo

from google.transit import gtfs_realtime_pb2 as rt

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(HERE, "..", "Fixtures", "alerts_2015-02-14.DERIVED.json")
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")


def chicago_epoch(text):
    """CTA's wall-clock times (no offset): `2015-02-14T14:35:00` or a bare date."""
    if "T" not in text:
        text += "T00:00:00"
    return int(datetime.datetime.fromisoformat(text).replace(tzinfo=CHICAGO).timestamp())


def cdata(value):
    if isinstance(value, dict):
        return value.get("#cdata-section")
    return value


# -- raw wire pieces, for what the encoder cannot express (unknown fields, extensions, groups) --

def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(number, wire_type):
    return varint(number << 3 | wire_type)


def length_delimited(number, payload):
    return key(number, 2) + varint(len(payload)) + payload


UNKNOWN_FIELDS = (key(99, 0) + varint(123456789) + length_delimited(98, b"unknown bytes")
                  + key(97, 5) + b"\x01\x02\x03\x04" + key(96, 1) + b"\x01\x02\x03\x04\x05\x06\x07\x08")
# An extension as an agency would add one (1000-1999 are reserved for them, 9000-9999 for tests).
EXTENSION = length_delimited(1001, length_delimited(1, b"agency extension") + key(2, 0) + varint(7))
TEST_EXTENSION = length_delimited(9001, b"\x08\x01")


def translated(target, texts):
    for text, language in texts:
        translation = target.translation.add()
        translation.text = text
        if language is not None:
            translation.language = language


IMPACT_EFFECTS = {
    "Accessiblity Note": rt.Alert.ACCESSIBILITY_ISSUE,
    "Elevator Status": rt.Alert.ACCESSIBILITY_ISSUE,
    "Significant Delays": rt.Alert.SIGNIFICANT_DELAYS,
    "Planned Work w/Reroute": rt.Alert.DETOUR,
    "Planned Work w/Station(s) Bypassed": rt.Alert.MODIFIED_SERVICE,
}


def capture_entities(feed, shift):
    """The capture's alerts, each service one selector; a station with its line is one selector
    (the intersection), as GTFS-realtime says 'this stop, on this route'."""
    capture = json.load(open(CAPTURE, encoding="utf-8"))
    train_ids = []
    for position, alert in enumerate(capture["CTAAlerts"]["Alert"]):
        services = alert["ImpactedService"]["Service"]
        services = services if isinstance(services, list) else [services]
        entity = feed.entity.add()
        entity.id = alert["AlertId"]
        message = entity.alert
        stations = [s["ServiceId"] for s in services if s["ServiceType"] == "T"]
        lines = [s["ServiceId"] for s in services if s["ServiceType"] == "R"]
        touches_trains = bool(stations or lines)
        for service in services:
            kind, ident = service["ServiceType"], service["ServiceId"]
            if kind == "T":
                selector = message.informed_entity.add()
                selector.stop_id = ident
                if lines:
                    selector.route_id = lines[0]
                    selector.route_type = 1
            elif kind == "R" and not stations:
                selector = message.informed_entity.add()
                selector.route_id = ident
                selector.route_type = 1
            elif kind == "B":
                selector = message.informed_entity.add()
                selector.route_id = ident
                selector.route_type = 3
            elif kind == "X":
                selector = message.informed_entity.add()
                if ident.lower() == "bus":
                    selector.route_type = 3
                elif ident.lower() == "train":
                    selector.route_type = 1
                    touches_trains = True
                else:
                    selector.agency_id = "CTA"
                    touches_trains = True
        if touches_trains:
            train_ids.append(alert["AlertId"])
        period = message.active_period.add()
        period.start = chicago_epoch(alert["EventStart"]) + shift
        if alert.get("EventEnd"):
            period.end = chicago_epoch(alert["EventEnd"]) + shift
        # English first in the capture's own words; a Spanish line MADE FOR THE TEST goes first
        # on every other alert so "the first translation" is not always the right answer.
        headline = alert["Headline"]
        if position % 2:
            translated(message.header_text, [("(es) prueba: " + headline, "es"), (headline, "en")])
        else:
            translated(message.header_text, [(headline, "en"), ("(es) prueba: " + headline, "es")])
        description = (alert.get("ShortDescription") or "")
        if position % 3 == 0:
            translated(message.description_text, [(description, None)])
        else:
            translated(message.description_text, [("(fr) essai", "fr"), (description, "en-US")])
        url = cdata(alert.get("AlertURL"))
        if url:
            translated(message.url, [(url, None)])
        if alert["Impact"] in IMPACT_EFFECTS:
            message.effect = IMPACT_EFFECTS[alert["Impact"]]
        if "Planned" in alert["Impact"]:
            message.cause = rt.Alert.MAINTENANCE
        score = int(alert.get("SeverityScore") or 0)
        message.severity_level = rt.Alert.SEVERE if score >= 50 else rt.Alert.WARNING if score >= 30 else rt.Alert.INFO
    return train_ids


def test_entities(feed, now):
    """Entities MADE FOR THE TEST, each for one rule."""
    hour, day = 3600, 86400

    def alert(ident, *selectors, periods=(), header="Test alert", description="", **fields):
        entity = feed.entity.add()
        entity.id = ident
        for fields_of in selectors:
            selector = entity.alert.informed_entity.add()
            for name, value in fields_of.items():
                if name == "trip_route_id":
                    selector.trip.route_id = value
                    selector.trip.trip_id = "trip-made-for-test"
                else:
                    setattr(selector, name, value)
        for start, end in periods:
            period = entity.alert.active_period.add()
            if start is not None:
                period.start = start
            if end is not None:
                period.end = end
        translated(entity.alert.header_text, [(header + " " + ident, "en")])
        if description:
            translated(entity.alert.description_text, [(description, None)])
        for name, value in fields.items():
            setattr(entity.alert, name, value)
        return entity

    alert("test-rail-type-only", {"route_type": 1}, header="All trains")
    alert("test-agency-only", {"agency_id": "CTA"}, header="Systemwide")
    alert("test-intersection", {"stop_id": "40380", "route_id": "Blue", "route_type": 1}, header="Clark/Lake on Blue")
    alert("test-trip-route", {"trip_route_id": "Pink"}, header="A Pink Line trip")
    alert("test-unknown-rail-route", {"route_id": "Silver", "route_type": 1}, header="A rail route CTA does not run")
    alert("test-bus-only", {"route_id": "22", "route_type": 3}, header="Clark bus")
    alert("test-bus-route-at-rail-stop", {"stop_id": "40380", "route_type": 3}, header="Bus bay")
    alert("test-negative-route-type", {"route_id": "Red", "route_type": -1}, header="Negative route_type")
    alert("test-period-now", {"route_id": "G", "route_type": 1}, periods=[(now - day, now - hour), (now - hour, now + day)])
    alert("test-period-gap", {"route_id": "Org", "route_type": 1}, periods=[(now - day, now - hour), (now + hour, now + day)])
    alert("test-period-future", {"route_id": "Y", "route_type": 1}, periods=[(now + day, None)])
    alert("test-period-past", {"route_id": "Red", "route_type": 1}, periods=[(now - 2 * day, now - day)])
    alert("test-open-start", {"route_id": "P", "route_type": 1}, periods=[(None, now + day)])
    elevator = alert("test-accessibility", {"stop_id": "41700"}, header="Elevator out of service",
                     description="Made for the test.", cause=rt.Alert.CONSTRUCTION,
                     effect=rt.Alert.ACCESSIBILITY_ISSUE, severity_level=rt.Alert.WARNING)
    translated(elevator.alert.url, [("https://example.org/es", "es"), ("https://example.org/en", "en")])
    deleted = alert("test-deleted", {"route_type": 1}, header="Deleted")
    deleted.is_deleted = True
    trip_update = feed.entity.add()
    trip_update.id = "test-trip-update"
    trip_update.trip_update.trip.trip_id = "trip-made-for-test"


def kind_of(alert, now):
    """The reference's active_period, as the issue states it; None: not live."""
    periods = [(p.start if p.HasField("start") else None, p.end if p.HasField("end") else None) for p in alert.active_period]
    if not periods:
        return "active"
    inside = [p for p in periods if (p[0] is None or p[0] <= now) and (p[1] is None or now < p[1])]
    if inside:
        return "active"
    if all(p[1] is not None and p[1] <= now for p in periods):
        return None
    return "planned"


# Every rail route_type of the reference and of the extended types (the daemon's default).
def is_train(route_type):
    return route_type in (0, 1, 2, 5, 7, 12) or 100 <= route_type <= 199 or 400 <= route_type <= 499 or 900 <= route_type <= 999


def scope_of(selector):
    route = selector.route_id or (selector.trip.route_id if selector.HasField("trip") else "")
    if selector.HasField("route_type") and not is_train(selector.route_type):
        return None
    if selector.stop_id:
        return {"type": "station", "id": selector.stop_id}
    if route:
        return {"type": "route", "id": route}
    if selector.HasField("route_type"):
        return {"type": "routeType", "routeType": selector.route_type}
    if selector.agency_id:
        return {"type": "agency", "id": selector.agency_id}
    return None


def choose(translated_string, language="en"):
    options = list(translated_string.translation)
    for matches in (lambda t: t.language.lower() == language,
                    lambda t: t.language and t.language.lower().split("-")[0] == language,
                    lambda t: not t.language):
        for translation in options:
            if matches(translation):
                return translation.text
    return options[0].text if options else None


def chicago_text(epoch):
    return datetime.datetime.fromtimestamp(epoch, CHICAGO).isoformat()


def expected(feed, now):
    alerts = []
    for entity in feed.entity:
        if entity.is_deleted or not entity.HasField("alert"):
            continue
        alert = entity.alert
        scopes = []
        for selector in alert.informed_entity:
            scope = scope_of(selector)
            if scope is not None and scope not in scopes:
                scopes.append(scope)
        kind = kind_of(alert, now)
        if not scopes or kind is None:
            continue
        details = {}
        if choose(alert.url):
            details["url"] = choose(alert.url).strip()
        if alert.HasField("cause"):
            details["cause"] = rt.Alert.Cause.Name(alert.cause)
        if alert.HasField("effect"):
            details["effect"] = rt.Alert.Effect.Name(alert.effect)
        if alert.HasField("severity_level"):
            details["severityLevel"] = rt.Alert.SeverityLevel.Name(alert.severity_level)
        starts = [p.start if p.HasField("start") else None for p in alert.active_period]
        ends = [p.end if p.HasField("end") else None for p in alert.active_period]
        alerts.append({
            "id": entity.id,
            "kind": kind,
            "headline": (choose(alert.header_text) or "").strip(),
            "description": (choose(alert.description_text) or "").strip(),
            "start": None if not starts or None in starts else chicago_text(min(starts)),
            "end": None if not ends or None in ends else chicago_text(max(ends)),
            "scopes": scopes,
            # The daemon gives every alert each detail member, null where the format says nothing.
            **{name: details.get(name) for name in
               ("impact", "severity", "major", "url", "category", "cause", "effect", "severityLevel")},
        })
    return alerts


def with_unknown_fields(feed):
    """The serialized feed with unknown fields and extensions inside the header, every entity,
    every alert and every selector, spliced in as raw bytes (the encoder keeps them on re-parse)."""
    for entity in feed.entity:
        entity.MergeFromString(UNKNOWN_FIELDS + TEST_EXTENSION)
        if entity.HasField("alert"):
            entity.alert.MergeFromString(UNKNOWN_FIELDS + EXTENSION)
            for selector in entity.alert.informed_entity:
                selector.MergeFromString(UNKNOWN_FIELDS)
    feed.header.MergeFromString(EXTENSION)
    feed.MergeFromString(UNKNOWN_FIELDS)
    return feed.SerializeToString()


def parses(data):
    try:
        rt.FeedMessage().ParseFromString(data)
        return True
    except Exception:
        return False


def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--now", type=int, required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    capture = json.load(open(CAPTURE, encoding="utf-8"))
    shift = args.now - chicago_epoch(capture["CTAAlerts"]["TimeStamp"])

    feed = rt.FeedMessage()
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = rt.FeedHeader.FULL_DATASET
    feed.header.timestamp = args.now
    train_ids = capture_entities(feed, shift)
    test_entities(feed, args.now)
    data = with_unknown_fields(feed)
    parsed = rt.FeedMessage()
    parsed.ParseFromString(data)
    write(args.out, "feed.pb", data)
    with open(os.path.join(args.out, "feed.expected.json"), "w", encoding="utf-8") as f:
        json.dump({"alerts": expected(parsed, args.now), "captureTrainIds": train_ids}, f, ensure_ascii=False, indent=1)

    # Cuts the encoder itself refuses: inside a key, a length or a value, not between fields.
    cuts = [n for n in (1, 2, 3, len(data) // 3, len(data) // 2, len(data) - 1) if not parses(data[:n])]
    for n in cuts:
        write(args.out, f"truncated-{n}.pb", data[:n])

    header = length_delimited(1, length_delimited(1, b"2.0"))
    entity = length_delimited(2, length_delimited(1, b"x") + length_delimited(5, length_delimited(5, length_delimited(2, b"Red"))))
    write(args.out, "abuse-group.pb", header + key(2, 3) + key(1, 0) + varint(1) + key(2, 4))
    write(args.out, "abuse-length.pb", header + key(2, 2) + varint(1 << 20) + b"short")
    write(args.out, "abuse-varint.pb", header + key(2, 2) + b"\xff" * 11 + b"\x01")
    bad_text = length_delimited(5, length_delimited(5, length_delimited(2, b"Red")) + length_delimited(10, length_delimited(1, length_delimited(1, b"\xff\xfe"))))
    write(args.out, "abuse-utf8.pb", header + length_delimited(2, length_delimited(1, b"x") + bad_text))
    write(args.out, "abuse-wire-type.pb", header + length_delimited(2, length_delimited(1, b"x") + key(5, 0) + varint(5)))
    write(args.out, "abuse-million.pb", header + length_delimited(2, b"") * 1_000_000)
    # Over the 16 MiB cap, made of valid entities.
    write(args.out, "abuse-over-cap.pb", header + entity * ((17 << 20) // len(entity)))

    seeds = rt.FeedMessage()
    seeds.header.gtfs_realtime_version = "2.0"
    test_entities(seeds, args.now)
    write(args.out, "seed-tests.pb", with_unknown_fields(seeds))
    write(args.out, "seed-entity.pb", header + entity)
    print(json.dumps({"cuts": cuts, "alerts": len(expected(parsed, args.now)), "bytes": len(data)}))


if __name__ == "__main__":
    sys.exit(main())
