#!/bin/sh
# The answer path before and after a change of the encoder (issue 44: answers as plain values,
# one encoder, no templates; issue 54: an encoder without unsafe pointers), in one run (make bench
# runs it last; BENCH_WIRE=0 skips it). Builds BASE (default e9e7c6b, main before issue 54's
# encoder; e87cf97 was main before issue 44's work, 195b794 before issue 33's answers encoded from
# their values, 14d3ebd before issue 20's loop and writer work) and the working tree in release,
# then measures both side by side:
#   * instructions per `stopSheet 40630` request under callgrind (C=1 P=16; repeatable under load);
#   * server CPU µs per request at C=16 P=16 for `stopSheet 40630` (a 7,677-byte answer), beside
#     loadgen's `refserver` answering a line of the same size, all driven by loadgen's
#     `ndjson-load -E -S` in alternating rounds (medians). LOADGEN_DIR names a copy of that
#     load generator's sources (C, libc only); without it this part is skipped;
#   * a fresh snapshot build (a stations load) at ×100 CTA's scale (`stopsheet-bench snapshot
#     --repeat 1`) and on a real GTFS feed (`stopsheet-bench fresh-build`; WIRE_FEED names its
#     folder, or folders, space-separated; default the Euskotren fixture), medians of alternating
#     runs, first, while the machine is still quiet (after the load runs its times scatter by
#     half), and the ×100 build's instructions under callgrind, which a slower or busier machine
#     does not change. BASE gets this tree's fresh-build bench, so both are measured alike.
#
#   scripts/bench-wire.sh [BASE]      LOADGEN_DIR=DIR WIRE_FEED=DIR WIRE_ROUNDS=3 WIRE_DURATION=2
set -eu
cd "$(dirname "$0")/.."
BASE=${1:-e9e7c6b}
FEED=${WIRE_FEED:-Tests/Fixtures/gtfs-static/euskotren-2025-11-27}
ROUNDS=${WIRE_ROUNDS:-3}
DURATION=${WIRE_DURATION:-2}
WORK=$(mktemp -d /tmp/stopsheet-wire.XXXXXX)
PIDS=""
cleanup() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

build() { swift build -c release --package-path "$1" --product "$2" 2>&1 | grep -E "error|Build" | tail -1; }
echo "building $BASE and the working tree in release…"
mkdir -p "$WORK/src" "$WORK/bin"
git archive "$BASE" | tar -x -C "$WORK/src"
if ! grep -q '"fresh-build"' "$WORK/src/Benchmarks/StopSheetBench/main.swift"; then
    cp Benchmarks/StopSheetBench/FreshBuildBench.swift "$WORK/src/Benchmarks/StopSheetBench/"
    sed -i 's/^case "snapshot": runSnapshotBench(options)$/&\ncase "fresh-build": runFreshBuildBench(options)/' "$WORK/src/Benchmarks/StopSheetBench/main.swift"
fi
for product in stopsheetd stopsheet-bench; do
    # Without their DWARF (symbols stay): valgrind 3.19 gives up on the toolchain's debug info.
    build "$WORK/src" "$product"; strip --strip-debug -o "$WORK/bin/before-$product" "$WORK/src/.build/release/$product"
    build . "$product"; strip --strip-debug -o "$WORK/bin/after-$product" ".build/release/$product"
done
BENCH=$WORK/bin/after-stopsheet-bench
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
totals() { sed -n 's/^totals: *//p' "$1" | head -1; }  # a callgrind output's instruction count
start() {  # start NAME [wrapper…]: the NAME daemon on the demo data at $WORK/NAME.sock; sets PID
    name=$1; shift
    "$@" "$WORK/bin/$name-stopsheetd" --demo --socket "$WORK/$name.sock" --log-level warning 2>>"$WORK/$name.log" &
    PID=$!; PIDS="$PIDS $PID"
    for _ in $(seq 1 300); do [ -S "$WORK/$name.sock" ] && return; sleep 0.1; done
    echo "$name did not start" >&2; exit 1
}

echo
echo "== fresh snapshot build ×100 (14,300 stations, 1,700 alerts; pinned to one core; medians of 9 alternating runs)"
FIXTURES=$(pwd)/Tests/Fixtures
# Pinned to one core: unpinned, the one-threaded build takes either ~45 or ~75 ms on a two-core
# machine, as the scheduler moves it or not, and the median of a few runs flips between the two.
PIN=$(($(nproc) - 1))
for _ in 1 2 3 4 5 6 7 8 9; do
    for name in before after; do
        taskset -c "$PIN" "$WORK/bin/$name-stopsheet-bench" snapshot --alerts "$FIXTURES/alerts_2015-02-14.DERIVED.json" --stations "$FIXTURES/L_stops_2021.csv" \
            --scales 100 --repeat 1 | sed -n 's/.*build_ms=\([0-9.]*\).*/\1/p' >> "$WORK/snap.$name"
    done
done
for name in before after; do
    SNAP=$(median < "$WORK/snap.$name" | tr -d '\n'); eval "SNAP_$name=$SNAP"
    printf '   %-6s %6s ms  (runs: %s)\n' "$name" "$SNAP" "$(tr '\n' ' ' < "$WORK/snap.$name")"
done
echo
for FEED in $FEED; do
echo "== fresh snapshot build of a real feed, $(basename "$FEED") (pinned to one core; medians of 5 alternating runs of median-of-9)"
rm -f "$WORK/feed.before" "$WORK/feed.after"
for _ in 1 2 3 4 5; do
    for name in before after; do
        taskset -c "$PIN" "$WORK/bin/$name-stopsheet-bench" fresh-build --gtfs "$FEED" >> "$WORK/feed.$name"
    done
done
for name in before after; do
    FEEDMS=$(sed -n 's/.*build_ms=\([0-9.]*\).*/\1/p' "$WORK/feed.$name" | median | tr -d '\n'); eval "FEED_$name=$FEEDMS"
    printf '   %-6s %6s ms  (%s stations)\n' "$name" "$FEEDMS" "$(sed -n 's/.*stations=\([0-9]*\).*/\1/p' "$WORK/feed.$name" | head -1)"
done
done
# Instructions do not depend on the machine's speed or its neighbours: one build's are the
# difference between a run that builds twice and one that builds once (decoding and the
# synthetic set cost both the same).
for name in before after; do
    for repeat in 1 2; do
        valgrind --tool=callgrind --callgrind-out-file="$WORK/snapcg.$name.$repeat" "$WORK/bin/$name-stopsheet-bench" snapshot \
            --alerts "$FIXTURES/alerts_2015-02-14.DERIVED.json" --stations "$FIXTURES/L_stops_2021.csv" --scales 100 --repeat $repeat >/dev/null 2>&1
    done
    SNAPIR=$(awk -v a="$(totals "$WORK/snapcg.$name.1")" -v b="$(totals "$WORK/snapcg.$name.2")" 'BEGIN { printf "%.0f", (b - a) / 1e6 }')
    eval "SNAPIR_$name=$SNAPIR"
    printf '   %-6s %6s M instructions per build (callgrind)\n' "$name" "$SNAPIR"
done
# The builds after the first are alert refreshes given the snapshot they replace: before, it kept
# what did not change; after issue 51's item 4, it keeps the `now` of each station where nothing
# is out (EncodedSnapshot's quietNows), so "per build" above is a refresh's, not a fresh build's. A fresh build (a stations load) has
# none before it: the run that builds once, decoding and the synthetic set included, shows it.
for name in before after; do
    printf '   %-6s %6s M instructions for a run with one fresh build, decoding included (callgrind)\n' "$name" \
        "$(awk -v a="$(totals "$WORK/snapcg.$name.1")" 'BEGIN { printf "%.0f", a / 1e6 }')"
done
# The fresh build alone: `Snapshot.build` and `EncodedSnapshot.init` of that run, inclusive.
for name in before after; do
    FRESH=$(callgrind_annotate --inclusive=yes "$WORK/snapcg.$name.1" 2>/dev/null \
        | grep -E 'EncodedSnapshotC_4zone8previous[A-Za-z0-9_]*tcfc |SnapshotV5build8stations' | awk '{ gsub(",", "", $1); s += $1 } END { printf "%.0f", s / 1e6 }')
    eval "FRESH_$name=$FRESH"
    printf '   %-6s %6s M instructions per fresh build (Snapshot.build and EncodedSnapshot.init, callgrind)\n' "$name" "$FRESH"
done

echo
echo "== instructions per stopSheet 40630 under callgrind (20,000 requests, C=1 P=16, after 2,000)"
for name in before after; do
    start "$name" valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.$name" --instr-atstart=no
    $BENCH loadgen --socket "$WORK/$name.sock" --connections 1 --pipeline 16 --requests 2000 --stop-id 40630 >/dev/null
    callgrind_control -i on "$PID" >/dev/null 2>&1
    OUT=$($BENCH loadgen --socket "$WORK/$name.sock" --connections 1 --pipeline 16 --requests 20000 --stop-id 40630)
    callgrind_control -i off "$PID" >/dev/null 2>&1
    kill "$PID"; wait "$PID" 2>/dev/null || true
    IR=$(awk -v i="$(totals "$WORK/cg.$name")" -v n="$(field "$OUT" requests)" 'BEGIN { printf "%.0f", i / n }')
    eval "IR_$name=$IR"
    printf '   %-6s %6s instructions/request  (errors %s)\n' "$name" "$IR" "$(field "$OUT" errors)"
done

echo
echo "== server CPU per request, C=16 P=16, stopSheet 40630, beside refserver (medians of $ROUNDS alternating ${DURATION} s runs)"
if [ -n "${LOADGEN_DIR:-}" ] && [ -f "$LOADGEN_DIR/loadgen.c" ]; then
    cp -r "$LOADGEN_DIR" "$WORK/loadgen"
    make -s -C "$WORK/loadgen" >/dev/null
    start before; PID_before=$PID
    start after; PID_after=$PID
    echo '{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"40630"}}' > "$WORK/request.ndjson"
    BYTES=$(python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(open(sys.argv[2], "rb").read())
data = b""
while not data.endswith(b"\n"): data += s.recv(65536)
print(len(data))' "$WORK/after.sock" "$WORK/request.ndjson")
    "$WORK/loadgen/refserver" -s "$WORK/ref.sock" -b "$BYTES" >/dev/null 2>&1 & PID_ref=$!; PIDS="$PIDS $PID_ref"
    for _ in $(seq 1 100); do [ -S "$WORK/ref.sock" ] && break; sleep 0.05; done
    echo "   answer line: $BYTES bytes; load average at start $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
    round=0
    while [ $round -lt "$ROUNDS" ]; do
        for name in before after ref; do
            eval "pid=\$PID_$name"
            "$WORK/loadgen/ndjson-load" -s "$WORK/$name.sock" -f "$WORK/request.ndjson" -c 16 -P 16 -t 2 -d "$DURATION" -w 0.5 -E -S "$pid" -q \
                | sed -n 's/^RESULT //p' >> "$WORK/cpu.$name"
        done
        round=$((round + 1))
    done
    for name in before after ref; do
        CPU=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } printf "%.2f ", v["server_cpu_pct"] * 1e4 / v["rps"] }' "$WORK/cpu.$name" | median)
        RPS=$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' "$WORK/cpu.$name" | median)
        ERRORS=$(sed -n 's/.* errors=\([0-9]*\).*/\1/p' "$WORK/cpu.$name" | awk '{ s += $1 } END { print s + 0 }')
        eval "CPU_$name=$CPU"
        printf '   %-6s %5s µs/request  %8s req/s  errors %s\n' "$name" "$CPU" "$RPS" "$ERRORS"
    done
else
    echo "   skipped: LOADGEN_DIR does not name the load generator's sources (loadgen.c, refserver.c)"
fi

echo
# Issue 54 moved the instruction target from 1,300 to 1,430: an encoder without unsafe pointers may
# cost up to 10 % per answer, since answers are cached per generation and clarity is worth that.
echo "== targets (issues 20, 44, 54: ≤ 1,430 instructions per stopSheet, CPU ≤ 1.1× refserver, a fresh build ≤ 10 ms on a real feed and ≤ 150 ms at ×100)"
verdict() { if [ "$1" = 1 ]; then echo "met"; else echo "NOT met"; fi; }
echo "   instructions per stopSheet ≤ 1,430: before $IR_before, after $IR_after — $(verdict "$(awk -v v="$IR_after" 'BEGIN { print (v <= 1430) }')")"
if [ -n "${CPU_ref:-}" ]; then
    echo "   server CPU within 1.1× refserver: before $(awk -v a="$CPU_before" -v r="$CPU_ref" 'BEGIN { printf "%.2f", a / r }')×, after $(awk -v a="$CPU_after" -v r="$CPU_ref" 'BEGIN { printf "%.2f", a / r }')× — $(verdict "$(awk -v a="$CPU_after" -v r="$CPU_ref" 'BEGIN { print (a <= 1.1 * r) }')")"
fi
echo "   fresh build of $(basename "$FEED") ≤ 10 ms: before $FEED_before ms, after $FEED_after ms — $(verdict "$(awk -v v="$FEED_after" 'BEGIN { print (v <= 10) }')")"
echo "   fresh build ×100 ≤ 150 ms: before $SNAP_before ms, after $SNAP_after ms — $(verdict "$(awk -v v="$SNAP_after" 'BEGIN { print (v <= 150) }')")"
echo "     (instructions per fresh build: before ${FRESH_before} M, after ${FRESH_after} M; the milliseconds depend on the machine, the instructions do not)"
