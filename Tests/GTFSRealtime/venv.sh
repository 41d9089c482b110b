#!/bin/sh
# Creates the test tools' virtual environment (default .build/venv) with the independent
# GTFS-realtime encoder the protobuf tests use as their oracle, and the JSON Schema validator
# the OpenRPC tests check answers with (Tests/OpenRPC/validate.py), unless they are already there.
# Prints the environment's python. Usage: Tests/GTFSRealtime/venv.sh [DIR]
set -eu
venv="${1:-$(dirname "$0")/../../.build/venv}"
# One maker at a time: `make test` calls this from stages that run at once (the integration run,
# the fuzz seeds), and a second pip install into the environment while a test imports from it
# leaves that test a half-installed protobuf. The lock is held until this script exits.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if ! "$venv/bin/python" -c 'import google.transit.gtfs_realtime_pb2, jsonschema' 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'protobuf>=7.34' gtfs-realtime-bindings 'jsonschema>=4.18' >&2
fi
echo "$venv/bin/python"
