#!/usr/bin/env python3
"""An independent reading of issue 52's two lift feeds, for stopsheetd's decoders. Standard library only.

    python3 lift_feeds.py FILE...

Prints one JSON object a line per unit, in feed order: {"file", "unitId", "status", "stationRef",
"latitude", "longitude" (decimal text), "serving", "description", "since"}, read as the issue's mapping says:
- DB FaSta (a JSON array whose first element has `equipmentnumber`): `state` ACTIVE available,
  INACTIVE notAvailable, anything else unknown; `stateExplanation` the description, FaSta's
  `description` what it serves; `geocoordY` latitude, `geocoordX` longitude; no times.
- IDFM's CSV export (`;`, utf-8-sig) and API JSON ({"total_count", "results"}, lower-case names):
  `liftStatus` available, notavailable (any case) notAvailable, anything else (empty too)
  unknown; `liftReason` the description; `liftSituation` and `liftDirection`, the non-empty ones
  joined by ", ", what it serves; `ZdcCentroid` "lat,lon" (or a {"lat", "lon"} object);
  `liftStateUpdate` since, as epoch seconds when it has an offset (else null: the zone is the daemon's).
A record without an id, a coordinate out of range or not a number, is left as the decoders leave it:
skipped, or no position. Texts are made plain as the daemon's rule says (control, format,
separator, private-use and unassigned characters become spaces, runs of spaces one, trimmed, at
most 300 characters).
"""

import csv
import datetime
import io
import json
import sys
import unicodedata


def plain(text):
    out = []
    for ch in text or "":
        cat = unicodedata.category(ch)
        out.append(" " if cat in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn") or ch.isspace() else ch)
    text = " ".join("".join(out).split())
    if len(text) > 300:
        text = text[:300].rstrip()
    return text


def scalar(value):
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    return str(value).strip() if not isinstance(value, str) else value.strip()


def position(lat, lon):
    try:
        lat, lon = float(lat), float(lon)
    except (TypeError, ValueError):
        return None, None
    if lat != lat or lon != lon or not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None, None
    # As text (the shortest that reads back as the same double): a JSON reader's own number
    # parsing is no part of the comparison.
    return repr(lat), repr(lon)


def fasta(rows):
    for row in rows:
        if not isinstance(row, dict) or not scalar(row.get("equipmentnumber")):
            continue
        state = (scalar(row.get("state")) or "").upper()
        lat, lon = position(scalar(row.get("geocoordY")), scalar(row.get("geocoordX")))
        yield {"unitId": scalar(row["equipmentnumber"]),
               "status": {"ACTIVE": "available", "INACTIVE": "notAvailable"}.get(state, "unknown"),
               "stationRef": scalar(row.get("stationnumber")) or None, "latitude": lat, "longitude": lon,
               "serving": plain(scalar(row.get("description"))), "description": plain(scalar(row.get("stateExplanation"))),
               "since": None}


def idfm(records):
    for record in records:
        field = lambda name: scalar(record.get(name)) or ""
        if not field("liftid"):
            continue
        centroid = record.get("zdccentroid")
        if isinstance(centroid, dict):
            lat, lon = position(centroid.get("lat"), centroid.get("lon"))
        else:
            parts = (scalar(centroid) or "").split(",")
            lat, lon = position(*parts) if len(parts) == 2 else (None, None)
        since = None
        if field("liftstateupdate"):
            moment = datetime.datetime.fromisoformat(field("liftstateupdate"))
            since = int(moment.timestamp()) if moment.tzinfo else None
        status = field("liftstatus").lower()
        yield {"unitId": field("liftid"),
               "status": {"available": "available", "notavailable": "notAvailable"}.get(status, "unknown"),
               "stationRef": field("zdcid") or None, "latitude": lat, "longitude": lon,
               "serving": plain(", ".join(t for t in (field("liftsituation"), field("liftdirection")) if t)),
               "description": plain(field("liftreason")), "since": since}


def read(path):
    data = open(path, "rb").read()
    text = data.decode("utf-8-sig")
    if text.lstrip()[:1] in ("[", "{"):
        document = json.loads(text)
        if isinstance(document, list):
            return fasta(document)
        return idfm(document["results"])
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    names = [name.strip().lower() for name in rows[0]]
    return idfm({name: (row[i] if i < len(row) else None) for i, name in reversed(list(enumerate(names)))} for row in rows[1:] if row)


def main():
    for path in sys.argv[1:]:
        for unit in read(path):
            print(json.dumps(dict(file=path.rsplit("/", 1)[-1], **unit), ensure_ascii=False))


if __name__ == "__main__":
    main()
