#!/bin/sh
# What the train sheet's `data` member costs on the fast path (issue 12): the working tree's
# release stopsheetd beside the same tree built without the data splice, serving the demo data:
#   * instructions per stopSheet request under callgrind (repeatable on a loaded machine),
#     when valgrind is installed and CALLGRIND is not 0,
#   * req/s from the repo's load generator, medians of alternating rounds (rough unless quiet).
# The variant exists only in a temporary copy (python edits two lines there), never as a flag.
#
#   scripts/bench-data-field.sh          (make bench runs it last; BENCH_DATA_FIELD=0 skips it)
#   BENCH_ROUNDS=5 BENCH_DURATION=1.5 CALLGRIND=1 CALLGRIND_REQUESTS=20000
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${BENCH_ROUNDS:-5}
DURATION=${BENCH_DURATION:-1.5}
WARMUP=${BENCH_WARMUP:-0.3}
CG_REQUESTS=${CALLGRIND_REQUESTS:-20000}
WORK=$(mktemp -d /tmp/stopsheet-datafield.XXXXXX)
PIDS=""
cleanup() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

build() { swift build -c release --package-path "$1" --product "$2" 2>&1 | grep -E "error|Build" | tail -1; }
echo "building the working tree, and a copy without the data splice…"
build . stopsheetd; build . stopsheet-bench
mkdir -p "$WORK/bin" "$WORK/src"
cp .build/release/stopsheetd "$WORK/bin/data"
BENCH=.build/release/stopsheet-bench
tar --exclude=./.build --exclude=./.git -cf - . | tar -xf - -C "$WORK/src"
python3 - "$WORK/src" <<'PY'
import sys
root = sys.argv[1] + "/Sources/StopSheetDaemon/"
def edit(path, old, new):
    text = open(root + path).read()
    if old not in text:
        sys.exit("bench-data-field.sh: %s no longer has %r" % (path, old))
    open(root + path, "w").write(text.replace(old, new, 1))
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
cp "$WORK/src/.build/release/stopsheetd" "$WORK/bin/no-data"

start() {  # start VARIANT [wrapper…]: serves the demo data on $WORK/$1.sock, sets PID
    name=$1; shift
    rm -f "$WORK/$name.sock"
    "$@" "$WORK/bin/$name" --demo --socket "$WORK/$name.sock" --log-level warning 2>>"$WORK/$name.log" &
    PID=$!; PIDS="$PIDS $PID"
    for _ in $(seq 1 300); do [ -S "$WORK/$name.sock" ] && break; sleep 0.1; done
    [ -S "$WORK/$name.sock" ] || { echo "$name did not start" >&2; exit 1; }
}
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [ "${CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
    echo
    echo "== instructions per stopSheet 40380 request under callgrind ($CG_REQUESTS requests, C=1 P=16, after 2000 warm-up)"
    for name in no-data data; do
        start "$name" valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.$name.%p" --instr-atstart=no
        $BENCH loadgen --socket "$WORK/$name.sock" --connections 1 --pipeline 16 --requests 2000 >/dev/null
        callgrind_control -i on "$PID" >/dev/null 2>&1
        OUT=$($BENCH loadgen --socket "$WORK/$name.sock" --connections 1 --pipeline 16 --requests "$CG_REQUESTS")
        callgrind_control -i off "$PID" >/dev/null 2>&1
        kill "$PID"; wait "$PID" 2>/dev/null || true
        IR=$(sed -n 's/^totals: *//p' "$WORK"/cg."$name".* | head -1)
        printf '%-8s %6.0f instructions/request  (errors %s)\n' "$name" "$(awk -v i="$IR" -v n="$(field "$OUT" requests)" 'BEGIN { print i / n }')" "$(field "$OUT" errors)"
        rm -f "$WORK"/cg."$name".*
    done
fi

echo
echo "== stopSheet 40380 req/s, without and with data (medians of $ROUNDS alternating rounds of ${DURATION} s)"
echo "   load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for name in no-data data; do start "$name"; eval "PID_$(echo $name | tr - _)=$PID"; done
for config in "1:1" "16:16"; do
    C=${config%:*}; P=${config#*:}; T=$(( C < 2 ? 1 : 2 ))
    : > "$WORK/no-data.txt"; : > "$WORK/data.txt"
    round=0
    while [ $round -lt "$ROUNDS" ]; do
        for name in no-data data; do
            eval "pid=\$PID_$(echo $name | tr - _)"
            $BENCH loadgen --socket "$WORK/$name.sock" --pid "$pid" --connections "$C" --pipeline "$P" --threads "$T" \
                --duration "$DURATION" --warmup "$WARMUP" >> "$WORK/$name.txt"
        done
        round=$((round + 1))
    done
    for name in no-data data; do
        printf 'C=%-3s P=%-3s %-8s %9s req/s %6s cpu µs/req\n' "$C" "$P" "$name" \
            "$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' "$WORK/$name.txt" | median)" \
            "$(sed -n 's/.*server_cpu_us=\([0-9.]*\).*/\1/p' "$WORK/$name.txt" | median)"
    done
done
