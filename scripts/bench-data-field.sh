#!/bin/sh
# What the train sheet's `data` member costs on the fast path (issue 12): the working tree's
# release stopsheetd beside the same tree built without the data splice, both serving the demo
# data, measured by scripts/bench-fastpath.sh in the same run: instructions per stopSheet request
# under callgrind (repeatable on a loaded machine; CALLGRIND=0 skips it) and req/s, medians of
# alternating rounds (rough unless the machine is quiet). The variant exists only in a temporary
# copy (python edits the splice out there), never as a product flag.
#
#   scripts/bench-data-field.sh          (make bench runs it last; BENCH_DATA_FIELD=0 skips it)
set -eu
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/stopsheet-datafield.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM

build() { swift build -c release --package-path "$1" --product "$2" 2>&1 | grep -E "error|Build" | tail -1; }
echo "building the working tree, and a copy without the data splice…"
build . stopsheetd; build . stopsheet-bench
mkdir -p "$WORK/bin" "$WORK/src"
cp .build/release/stopsheetd "$WORK/bin/data"
cp .build/release/stopsheet-bench "$WORK/bin/stopsheet-bench"
tar --exclude=./.build --exclude=./.git -cf - . | tar -xf - -C "$WORK/src"
python3 - "$WORK/src/Sources/StopSheetDaemon/" <<'PY'
import sys
root = sys.argv[1]
def edit(path, old, new):
    text = open(root + path).read()
    if old not in text:
        sys.exit("bench-data-field.sh: %s no longer has %r" % (path, old))
    open(root + path, "w").write(text.replace(old, new, 1))
# The answer as it was before `data`: one lock, the station's index, the snapshot's sheet.
edit("Data/Store.swift", """            let data = SheetData(alerts: state.alerts, stations: state.stations, now: now)
            guard let index = state.current.stationIndex(stopID: stopID) else {
                return .noStation(state.current, data: state.spliced.encodedData(data, of: state.current))
            }
            return .sheet(state.spliced.sheet(at: index, of: state.current, data: data))""",
     """            guard let index = state.current.stationIndex(stopID: stopID) else { return .noStation(state.current, data: []) }
            return .sheet(state.current.stopSheet(at: index))""")
edit("Methods/StopSheetService.swift", "store.stopSheet(stopID: query.stopID, now: now())",
     "store.stopSheet(stopID: query.stopID, now: Instant(secondsSince1970: 0))")
PY
build "$WORK/src" stopsheetd
cp "$WORK/src/.build/release/stopsheetd" "$WORK/bin/nodata"
echo "== stopSheet 40380 without and with the data member"
FASTPATH_WORK="$WORK" FASTPATH_VARIANTS="nodata data" CALLGRIND=${CALLGRIND:-1} scripts/bench-fastpath.sh
