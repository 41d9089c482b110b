#!/bin/sh
# make docs: the pictures of the docs, drawn by the daemon itself. docs/stationmap-deanwood.svg is
# Deanwood (STN_D10) on WMATA's real map (Tests/Fixtures/gtfs-pathways/wmata-2026-04) with a real
# outage: WMATA's whole-system ElevatorIncidents answer of 2019-04-05
# (Tests/Fixtures/facilities/wmata_elevator_incidents_2019-04-05.REAL.json), whose elevator
# D10X02 between mezzanine and platform takes both of the station's step-free ways. Drawn by
# `stopsheetctl map STN_D10 --dot` and Graphviz's `dot -Tsvg`.
#
#   scripts/docs.sh [BIN]      BIN: where stopsheetd and stopsheetctl are (default .build/debug)
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-.build/debug}
command -v dot >/dev/null || { echo "docs: Graphviz's dot is missing (scripts/install-deps.sh installs graphviz)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/stopsheet-docs.XXXXXX)
PID=""
cleanup() { [ -z "$PID" ] || kill "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

"$BIN/stopsheetd" --socket "$WORK/s.sock" --log-level warning \
    --stations-url "file://$PWD/Tests/Fixtures/gtfs-pathways/wmata-2026-04" \
    --facilities-url "file://$PWD/Tests/Fixtures/facilities/wmata_elevator_incidents_2019-04-05.REAL.json" \
    --stations-interval 3600 --facilities-interval 3600 2>"$WORK/log" &
PID=$!
"$BIN/stopsheetctl" --socket "$WORK/s.sock" --timeout 60 wait --for all >/dev/null
"$BIN/stopsheetctl" --socket "$WORK/s.sock" map STN_D10 --dot | dot -Tsvg > docs/stationmap-deanwood.svg
echo "docs: docs/stationmap-deanwood.svg"
