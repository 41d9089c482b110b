#!/usr/bin/env python3
"""An independent reading of which platforms each CTA elevator alert touches at a station
without a map (issue 50), to compare stopsheetd's PlatformPlacement with: the L stops CSV
and a CTA alerts JSON body in, one JSON object out, keyed by AlertId:

    {"111489": {"station": "41480", "rule": "direction", "platforms": ["30284"], "exitOnly": false,
                "values": {"30284": [null, null], "30283": [true, true]}, "stepFree": "partial"}}

`rule` null and `platforms` null for an alert that names no platform (every platform's true is
then null). Read with regular expressions over the text, not word by word as the daemon does:
- a platform's directions: the `(…-bound)` part of its STOP_NAME, split at hyphens, slashes
  and spaces;
- an alert's directions: each run of text before "bound" (hyphens and spaces around it
  folded) back to "the", "from", "at" or the start of the text, split the same way, "and" and
  the station's name aside; a platform is named when it shares a word with them;
- else an alert's lines: the run before "Line platform(s)", each word a CTA line name;
- "exit-only" (or "exit only") anywhere: only the exit.

    elevator_platforms.py L_STOPS_CSV ALERTS_JSON [ALERTS_JSON ...]
"""
import csv
import json
import re
import sys

LINE_COLUMNS = {"red": "RED", "blue": "BLUE", "brown": "BRN", "green": "G", "orange": "O", "purple": "P", "pink": "Pnk", "yellow": "Y"}


def split_words(text):
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def platform_directions(stop_name):
    found = re.findall(r"\(([^()]*?)-\s*bound\)", stop_name, flags=re.IGNORECASE)
    return set(w for part in found for w in split_words(part))


def alert_directions(text, station_words):
    text = text.lower()
    words = set()
    for match in re.finditer(r"(?:^|\bthe\b|\bfrom\b|\bat\b)([^.()]*?)[-\s]*\bbound\b", text):
        phrase = match.group(1)
        # The last "the/from/at" before "bound" starts the phrase.
        phrase = re.split(r"\b(?:the|from|at)\b", phrase)[-1]
        words |= set(split_words(phrase)) - {"and", "platform", "elevator", "exit", "only"}
    return words - station_words


def alert_lines(text):
    names = set()
    for match in re.finditer(r"([a-z ,\-]*?)\s+lines?\s+platforms?\b", text.lower()):
        phrase = re.split(r"\b(?:the|from|at|elevator)\b", match.group(1))[-1]
        names |= {w for w in split_words(phrase) if w in LINE_COLUMNS}
    return names


def verdict(values):
    if all(v == [True, True] for v in values):
        return "available"
    if all(v == [False, False] for v in values):
        return "none"
    if not any(v == [True, True] for v in values) and any(None in v for v in values):
        return "unknown"
    return "partial"


def main():
    stops_path, alert_paths = sys.argv[1], sys.argv[2:]
    stations = {}
    with open(stops_path, newline="") as handle:
        for row in csv.DictReader(handle):
            stations.setdefault(row["MAP_ID"], []).append(row)
    out = {}
    for path in alert_paths:
        with open(path) as handle:
            alerts = json.load(handle)["CTAAlerts"].get("Alert", [])
        for alert in alerts if isinstance(alerts, list) else [alerts]:
            if (alert.get("Impact") or "").lower() != "elevator status":
                continue
            services = alert["ImpactedService"]["Service"]
            services = services if isinstance(services, list) else [services]
            station_id = next(s["ServiceId"] for s in services if s["ServiceType"] == "T")
            platforms = stations[station_id]
            station_words = set(split_words(platforms[0]["STATION_NAME"]))
            texts = [alert.get("Headline") or "", alert.get("ShortDescription") or ""]
            directions = set().union(*(alert_directions(t, station_words) for t in texts))
            named = [p["STOP_ID"] for p in platforms if platform_directions(p["STOP_NAME"]) & directions]
            rule = "direction" if named else None
            if not named:
                lines = set().union(*(alert_lines(t) for t in texts))
                named = [p["STOP_ID"] for p in platforms if any(p[LINE_COLUMNS[l]] == "true" for l in lines)]
                rule = "line" if named else None
            exit_only = any(re.search(r"exit[-\s]+only", t.lower()) for t in texts)
            values = {}
            for p in platforms:
                reported = {"true": True, "false": False}.get(p["ADA"].lower())
                touched = p["STOP_ID"] in named if named else True
                entry = None if touched and reported is True and not (named and exit_only) else reported
                exit_ = None if touched and reported is True else reported
                values[p["STOP_ID"]] = [entry, exit_]
            out[alert["AlertId"]] = {"station": station_id, "rule": rule, "platforms": named or None,
                                     "exitOnly": bool(named) and exit_only, "values": values,
                                     "stepFree": verdict(list(values.values()))}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
