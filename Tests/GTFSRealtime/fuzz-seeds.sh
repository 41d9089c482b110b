#!/bin/sh
# Seeds the GTFS-realtime fuzz target: the feeds make_feeds.py builds with the independent
# encoder (the capture re-expressed at its own moment, the rule cases, truncations, the small
# hostile bodies). Usage: Tests/GTFSRealtime/fuzz-seeds.sh DIR
set -eu
here=$(dirname "$0")
out=$1
python=$("$here/venv.sh")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 2015-02-14 14:35 Chicago: the fuzz targets' `now`, so the capture's alerts are live.
"$python" "$here/make_feeds.py" --out "$work" --now 1423946100 >/dev/null
mkdir -p "$out"
for file in "$work"/*.pb; do
    case $(basename "$file") in abuse-million.pb|abuse-over-cap.pb) continue ;; esac
    cp "$file" "$out/"
done
