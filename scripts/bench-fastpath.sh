#!/bin/sh
# What each request-line shortcut buys (issue 9, step 2). Builds stopsheetd in release from one
# revision three times — general parser only, + CompactRequest, + ExactRequest (the revision as
# it is) — plus the working tree's own stopsheetd, then for each binary serving the demo data:
#   * req/s and server CPU µs/request from the repo's load generator (medians of alternating
#     rounds; needs a quiet machine to mean anything),
#   * with CALLGRIND=1, instructions per request under callgrind (repeatable under load).
# The variants are made by deleting the shortcut calls from EventLoop.swift of REV with sed:
# they exist only in a temporary directory, never as a product flag.
#
#   scripts/bench-fastpath.sh [REV]        REV defaults to 5a98afc (the three-path design)
#   BENCH_ROUNDS=5 BENCH_DURATION=1.5 BENCH_CONFIGS="16:16 1:1" CALLGRIND=1 CALLGRIND_REQUESTS=20000
#   FASTPATH_WORK=DIR FASTPATH_VARIANTS="a b": measure DIR/bin/a and DIR/bin/b with DIR/bin/stopsheet-bench
set -eu
cd "$(dirname "$0")/.."
REV=${1:-5a98afc}
ROUNDS=${BENCH_ROUNDS:-5}
DURATION=${BENCH_DURATION:-1.5}
WARMUP=${BENCH_WARMUP:-0.3}
CONFIGS=${BENCH_CONFIGS-"1:1 16:16"}
CG_REQUESTS=${CALLGRIND_REQUESTS:-20000}
WORK=${FASTPATH_WORK:-$(mktemp -d /tmp/stopsheet-fastpath.XXXXXX)}
PIDS=""
cleanup() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

build() { swift build -c release --package-path "$1" --product "$2" 2>&1 | grep -E "error|Compiling|Build" | tail -2; }

VARIANTS=${FASTPATH_VARIANTS:-"general compact exact session"}
mkdir -p "$WORK/bin"
case " $VARIANTS " in *" session "*)
    echo "building the working tree's release stopsheetd…"
    build . stopsheetd; cp .build/release/stopsheetd "$WORK/bin/session" ;;
esac

# REV's three builds only when one of them is asked for (another script may bring its own binaries).
case " $VARIANTS " in *" general "*|*" compact "*|*" exact "*) NEED_REV=1 ;; *) NEED_REV=0 ;; esac
if [ "$NEED_REV" = 1 ] && [ ! -x "$WORK/bin/exact" ]; then
    echo "building $REV three ways in $WORK/src…"
    mkdir -p "$WORK/src"
    git archive "$REV" | tar -x -C "$WORK/src"
    LOOP="$WORK/src/Sources/StopSheetDaemon/Server/EventLoop.swift"
    cp "$LOOP" "$LOOP.orig"
    build "$WORK/src" stopsheetd; cp "$WORK/src/.build/release/stopsheetd" "$WORK/bin/exact"
    build "$WORK/src" stopsheet-bench; cp "$WORK/src/.build/release/stopsheet-bench" "$WORK/bin/stopsheet-bench"
    sed -i '/if answerExact(range, on: connection) { continue }/d' "$LOOP"
    build "$WORK/src" stopsheetd; cp "$WORK/src/.build/release/stopsheetd" "$WORK/bin/compact"
    sed -i 's/if let compact = compactRequest(in: range, of: connection) {/if let compact = Optional<CompactRequest>.none {/' "$LOOP"
    grep -q 'Optional<CompactRequest>.none' "$LOOP" || { echo "the sed patches no longer apply to $REV" >&2; exit 1; }
    build "$WORK/src" stopsheetd; cp "$WORK/src/.build/release/stopsheetd" "$WORK/bin/general"
fi
BENCH=$WORK/bin/stopsheet-bench  # the load generator of REV: the same for every variant

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

if [ "${CALLGRIND:-0}" = 1 ]; then
    echo
    echo "== instructions per stopSheet request under callgrind ($CG_REQUESTS requests, C=1 P=16, after 2000 warm-up)"
    for name in $VARIANTS; do
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
echo "== load (medians of $ROUNDS alternating rounds of ${DURATION} s; cpu = server CPU µs/request)"
echo "   load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for name in $VARIANTS; do start "$name"; eval "PID_$name=$PID"; done
for config in $CONFIGS; do
    C=${config%:*}; P=${config#*:}; T=$(( C < 2 ? 1 : 2 ))
    for name in $VARIANTS; do : > "$WORK/$name.txt"; done
    round=0
    while [ $round -lt "$ROUNDS" ]; do
        for name in $VARIANTS; do
            eval "pid=\$PID_$name"
            $BENCH loadgen --socket "$WORK/$name.sock" --pid "$pid" --connections "$C" --pipeline "$P" --threads "$T" \
                --duration "$DURATION" --warmup "$WARMUP" >> "$WORK/$name.txt"
        done
        round=$((round + 1))
    done
    for name in $VARIANTS; do
        printf 'C=%-3s P=%-3s %-8s %9s req/s %6s cpu µs/req  errors %s\n' "$C" "$P" "$name" \
            "$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' "$WORK/$name.txt" | median)" \
            "$(sed -n 's/.*server_cpu_us=\([0-9.]*\).*/\1/p' "$WORK/$name.txt" | median)" \
            "$(sed -n 's/.*errors=\([0-9]*\).*/\1/p' "$WORK/$name.txt" | awk '{ s += $1 } END { print s + 0 }')"
    done
done
echo "(binaries kept in $WORK/bin; FASTPATH_WORK=$WORK reuses them)"
