#!/bin/sh
# Creates the test tools' virtual environment (default .build/venv) with the independent
# GTFS-realtime encoder the protobuf tests use as their oracle, and the JSON Schema validator
# the OpenRPC tests check answers with (Tests/OpenRPC/validate.py), unless they are already there.
# Prints the environment's python. Usage: Tests/GTFSRealtime/venv.sh [DIR]
set -eu
venv="${1:-$(dirname "$0")/../../.build/venv}"
if ! "$venv/bin/python" -c 'import google.transit.gtfs_realtime_pb2, jsonschema' 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'protobuf>=7.34' gtfs-realtime-bindings 'jsonschema>=4.18' >&2
fi
echo "$venv/bin/python"
