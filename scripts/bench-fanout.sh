#!/bin/sh
# Push fan-out (issue 11), the `make bench` section on its own: `scripts/bench-fanout.sh [BIN]`
# (BIN: the folder with release stopsheetd and stopsheet-bench; built when not given).
#   1,000 connections each subscribed to one station, then per round one refresh whose new
#   systemwide alert changes every station's sheet: time from the refresh request until the last
#   subscriber has read its notification (and p50/p99/max over every notification), the daemon's
#   RSS with the subscribers, and stopSheet req/s (C=16, P=16) without and with them.
set -eu
cd "$(dirname "$0")/.."

CONNECTIONS=${BENCH_FANOUT_CONNECTIONS:-1000}
ROUNDS=${BENCH_FANOUT_ROUNDS:-5}
BIN=${1:-}
if [ -z "$BIN" ]; then
    swift build -c release --product stopsheetd >/dev/null && swift build -c release --product stopsheet-bench >/dev/null
    BIN=.build/release
fi
BENCH=$BIN/stopsheet-bench
FIXTURES=$(pwd)/Tests/Fixtures
WORK=$(mktemp -d /tmp/stopsheet-fanout.XXXXXX)
DAEMON_PID=""; FANOUT_PID=""
cleanup() {
    for pid in $FANOUT_PID $DAEMON_PID; do kill "$pid" 2>/dev/null || true; done
    sleep 0.2
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

printf '{"alerts":[]}' > "$WORK/alerts.json"
# --refresh-spacing 0: what is timed is the fan-out, not the second the daemon would otherwise
# leave between two asked-for fetches (issue 10's coalescing), which back-to-back refreshes hit.
LAUNCH=$($BENCH launch --samples 1 --log "$WORK/daemon.log" -- "$(pwd)/$BIN/stopsheetd" --socket "$WORK/fanout.sock" \
    --alerts-url "file://$WORK/alerts.json" --stations-url "file://$FIXTURES/L_stops_2021.csv" \
    --max-connections $((CONNECTIONS + 64)) --alerts-interval 3600 --refresh-spacing 0 --log-level notice)
DAEMON_PID=$(field "$LAUNCH" pid)
sleep 0.5
RSS_BEFORE=$(rss "$DAEMON_PID")
load() { $BENCH loadgen --socket "$WORK/fanout.sock" --pid "$DAEMON_PID" --connections 16 --pipeline 16 --threads 2 --duration 1.5 --warmup 0.3; }
BASE=$(load)

$BENCH fanout --socket "$WORK/fanout.sock" --pid "$DAEMON_PID" --connections "$CONNECTIONS" --rounds "$ROUNDS" \
    --stations "$FIXTURES/L_stops_2021.csv" --alerts-file "$WORK/alerts.json" --hold 15 > "$WORK/fanout.txt" &
FANOUT_PID=$!
while ! grep -q '^holding' "$WORK/fanout.txt" 2>/dev/null; do
    kill -0 "$FANOUT_PID" 2>/dev/null || { cat "$WORK/fanout.txt"; echo "fanout failed" >&2; exit 1; }
    sleep 0.2
done
FANOUT=$(head -1 "$WORK/fanout.txt")
WITH=$(load)
kill "$FANOUT_PID" 2>/dev/null || true; wait "$FANOUT_PID" 2>/dev/null || true; FANOUT_PID=""

echo "   $CONNECTIONS subscribers over 143 stations, $ROUNDS refreshes each changing every sheet"
echo "   time to the last subscriber's notification: median $(field "$FANOUT" last_ms_p50) ms, max $(field "$FANOUT" last_ms_max) ms"
echo "   per notification (refresh request → read): p50 $(field "$FANOUT" p50_ms) ms, p99 $(field "$FANOUT" p99_ms) ms, max $(field "$FANOUT" max_ms) ms"
echo "   RSS: $(mib "$RSS_BEFORE") before, $(mib "$(field "$FANOUT" rss_kib)") with $CONNECTIONS subscribers"
echo "   stopSheet C=16 P=16: $(field "$BASE" rps) req/s without subscribers, $(field "$WITH" rps) req/s with them (errors $(field "$WITH" errors))"
