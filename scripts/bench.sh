#!/bin/sh
# `make bench`: stopsheetd side by side with Redis on this machine (issue 5). Builds release,
# serves the fixed real data from files, drives both servers over Unix sockets with the repo's
# load generator (Benchmarks/StopSheetBench), and prints every figure with the targets.
#
# Fairness: both servers answer on one thread (Redis 7 runs commands on one thread; its I/O
# threads are off by default), get the same load generator, the same connection counts and
# pipelining, and send the same bytes: Redis GETs the exact stopSheet answer line stopsheetd
# sent for a 7-digit id. Runs alternate between the two servers; figures are medians.
set -eu
cd "$(dirname "$0")/.."

ROUNDS=${BENCH_ROUNDS:-5}          # alternating runs per server and configuration
DURATION=${BENCH_DURATION:-1.5}    # measured seconds per run (after WARMUP)
WARMUP=${BENCH_WARMUP:-0.3}
CONFIGS=${BENCH_CONFIGS:-"1:1 1:16 16:1 16:16 64:1 64:16"}   # connections:pipeline
NOISE_LIMIT=10                     # % spread of a server's runs above which a figure is "noisy"

scripts/install-deps.sh redis-server unzip valgrind
echo "building release…"
swift build -c release 2>&1 | grep -E "error|warning: |Compiling|Build" | grep -v "^\[" | tail -3
BIN=.build/release
BENCH=$BIN/stopsheet-bench
FIXTURES=$(pwd)/Tests/Fixtures
WORK=$(mktemp -d /tmp/stopsheet-bench.XXXXXX)
DAEMON_PID=""; REDIS_PID=""; ECHO_PID=""
cleanup() {
    for pid in $DAEMON_PID $REDIS_PID $ECHO_PID; do kill "$pid" 2>/dev/null || true; done
    sleep 0.2
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# every value of one key in a file of key=value lines
stat() { awk -v k="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) printf "%s ", kv[2] } }' "$1"; }
# key=value lines → one value
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; if (m > 0) printf "%.0f", (v[NR] - v[1]) * 100 / m; else print 0 }'; }
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

echo
echo "== machine"
echo "$(nproc) cores, $(uname -r), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "stopsheetd $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(redis-server --version | cut -d' ' -f1-3)"
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)

echo
echo "== snapshot build from decoded data (Snapshot.build, median of 9; decoding not timed)"
echo "   real set: 143 stations; 44 upstream alerts, of which 17 train alerts after decoding."
echo "   ×k: k copies of the network with distinct ids, each copy's alerts naming its own stations."
$BENCH snapshot --alerts "$FIXTURES/alerts_2015-02-14.DERIVED.json" --stations "$FIXTURES/L_stops_2021.csv" --scales 1,10,100 \
    | tee "$WORK/snapshot.txt" | sed 's/^/   /'

echo
echo "== step-free now on a large metro (issue 27): 100 stations, 8,000 pathways; an alert refresh's build with"
echo "   and without the stations' pathways, instructions under callgrind (two builds minus one; deterministic hashing)"
# One build's instructions: a run that builds twice minus one that builds once (the second build
# is an alert refresh's, given the snapshot it replaces).
build_ir() {
    for repeat in 1 2; do
        SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$WORK/stepfree.$repeat" "$BENCH" step-free "$@" --repeat $repeat >/dev/null 2>&1
    done
    awk -v a="$(sed -n 's/^totals: *//p' "$WORK/stepfree.1" | head -1)" -v b="$(sed -n 's/^totals: *//p' "$WORK/stepfree.2" | head -1)" 'BEGIN { printf "%.0f", b - a }'
}
for outages in 0 10 20; do
    WITH=$(build_ir --outages $outages); WITHOUT=$(build_ir --outages $outages --without 1)
    echo "   $outages elevator outages: $WITH instructions with pathways, $WITHOUT without ($(awk -v w="$WITH" -v o="$WITHOUT" 'BEGIN { printf "%+.1f%%", (w / o - 1) * 100 }'))"
done

echo
echo "== lift status (issue 32): a SIRI-FM body of 4,000 conditions read and decoded (libxml2, then the core;"
echo "   target ≤ 50 ms), and a refresh that changes one unit of 4,000 over 100 stations with pathways: the"
echo "   stations whose step-free now is encoded again (target: the one it touches), median of 9"
$BENCH facilities --conditions 4000 --stations 100 | sed 's/^/   /'

echo
echo "== lift feeds that name no stop (issue 52): DB FaSta, 3,500 units at 1,166 stations over Germany, and IDFM,"
echo "   850 lifts at 283 zones around Paris (its CSV export and its API's JSON), generated in their real shapes;"
echo "   each decoded as the daemon does and joined to a station directory of those stations with coordinates"
echo "   (target ≤ 50 ms each), median of 9; held_kib: the resident memory one decoded feed holds (body_bytes beside it)"
for feed in fasta idfm-csv idfm-json; do $BENCH lift-feeds --feed $feed --fasta 3500 --idfm 850 | sed 's/^/   /'; done

echo
echo "== GTFS feed at CTA scale (150 stations, 10,000 stops, 100,000 trips, ~8 million stop_times rows)"
mkdir -p "$WORK/gtfs"
$BENCH gtfs-feed --out "$WORK/gtfs" | sed 's/^/   /'
python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    [z.write(os.path.join(sys.argv[2], n), n) for n in sorted(os.listdir(sys.argv[2]))]' "$WORK/gtfs.zip" "$WORK/gtfs"
# wc, not stat: this script's stat() reads key=value figures.
echo "   zip: $(mib $(($(wc -c <"$WORK/gtfs.zip") / 1024))) (decoding reads it into memory; a directory streams from disk)"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
GTFS_ZIP=$($BENCH gtfs-decode --feed "$WORK/gtfs.zip"); echo "   $GTFS_ZIP"
GTFS_DIR=$($BENCH gtfs-decode --feed "$WORK/gtfs"); echo "   $GTFS_DIR"
# The floor: inflating the table is one stream; the peer: Python's csv module reading it.
T0=$(date +%s%N); unzip -p "$WORK/gtfs.zip" stop_times.txt | wc -l >/dev/null; FLOOR_MS=$(ms "$T0")
T0=$(date +%s%N); python3 -c 'import csv, sys
print(sum(1 for _ in csv.reader(open(sys.argv[1], newline="", encoding="utf-8"))))' "$WORK/gtfs/stop_times.txt" >/dev/null; PEER_MS=$(ms "$T0")
echo "   floor (unzip -p feed.zip stop_times.txt | wc -l): $FLOOR_MS ms; peer (python3 csv.reader over stop_times.txt): $PEER_MS ms"
GTFS_ZIP_MS=$(field "$GTFS_ZIP" decode_ms); GTFS_DIR_MS=$(field "$GTFS_DIR" decode_ms)
GTFS_RSS_KB=$(printf '%s\n%s\n' "$(field "$GTFS_ZIP" peak_rss_kb)" "$(field "$GTFS_DIR" peak_rss_kb)" | sort -n | tail -1)
rm -f "$WORK/gtfs.zip"

echo
echo "== the same feed zipped with LZMA (zip method 14, as Spain's national rail operator publishes its feeds)"
# Python's ZIP_LZMA at its default preset (6) takes minutes for these bytes; preset 1 writes the
# same format in seconds (a stream that decodes no faster than preset 6's).
python3 -c 'import lzma, os, struct, sys, zipfile
class Preset1(zipfile.LZMACompressor):
    def _init(self):
        lzma1 = {"id": lzma.FILTER_LZMA1, "preset": 1}
        self._comp = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[lzma1])
        properties = lzma._encode_filter_properties(lzma1)
        return struct.pack("<BBH", 9, 4, len(properties)) + properties
zipfile.LZMACompressor = Preset1
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_LZMA) as z:
    [z.write(os.path.join(sys.argv[2], n), n) for n in sorted(os.listdir(sys.argv[2]))]' "$WORK/lzma.zip" "$WORK/gtfs"
echo "   $(du -sm "$WORK/gtfs" | cut -f1) MB unzipped; zip: $(mib $(($(wc -c <"$WORK/lzma.zip") / 1024)))"
GTFS_LZMA=$($BENCH gtfs-decode --feed "$WORK/lzma.zip"); echo "   $GTFS_LZMA"
# The floor: Python's zipfile decompressing stop_times.txt (liblzma, as libarchive uses).
T0=$(date +%s%N); python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1]).open("stop_times.txt") as f:
    while f.read(1 << 20): pass' "$WORK/lzma.zip"; LZMA_FLOOR_MS=$(ms "$T0")
echo "   floor (python3 zipfile decompressing stop_times.txt): $LZMA_FLOOR_MS ms"
GTFS_LZMA_MS=$(field "$GTFS_LZMA" decode_ms); GTFS_LZMA_RSS_KB=$(field "$GTFS_LZMA" peak_rss_kb)
rm -rf "$WORK/gtfs" "$WORK/lzma.zip"

echo
echo "== start-up: exec → READY=1 (NOTIFY_SOCKET is the bench's datagram socket; 7 starts)"
LAUNCH=$($BENCH launch --samples 7 --log "$WORK/daemon.log" -- "$(pwd)/$BIN/stopsheetd" --socket "$WORK/stopsheetd.sock" \
    --alerts-url "file://$FIXTURES/alerts_2015-02-14.DERIVED.json" --stations-url "file://$FIXTURES/L_stops_2021.csv" --log-level notice)
DAEMON_PID=$(field "$LAUNCH" pid)
echo "   median $(field "$LAUNCH" ready_ms) ms (min $(field "$LAUNCH" ready_min_ms), max $(field "$LAUNCH" ready_max_ms))"
sleep 1
RSS_IDLE=$(rss "$DAEMON_PID")
echo "   RSS idle with the real data loaded: $(mib "$RSS_IDLE") ($RSS_IDLE KiB)"

redis-server --port 0 --unixsocket "$WORK/redis.sock" --unixsocketperm 700 --save '' --appendonly no \
    --daemonize yes --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" --dir "$WORK"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S "$WORK/redis.sock" ] && [ -s "$WORK/redis.pid" ] && break; sleep 0.1; done
REDIS_PID=$(cat "$WORK/redis.pid")
PRIMED=$($BENCH prime-redis --daemon "$WORK/stopsheetd.sock" --redis "$WORK/redis.sock" --key sheet --id 1000000 --stop-id 40380)
$BENCH echo-server --socket "$WORK/echo.sock" & ECHO_PID=$!
sleep 0.2

echo
echo "== load: closed loop, stopSheet 40380 ($(field "$PRIMED" bytes)-byte answer line); Redis: GET of those same bytes"
echo "   $ROUNDS alternating runs per server of ${DURATION} s after ${WARMUP} s warm-up; figures are medians"
echo "   loadgen: epoll, connections spread over min(C, 2) threads; cpu/req from /proc/PID/stat"
echo "   echo: the same generator against a trivial one-thread epoll echo server (upper bound of the rig)"
echo
printf '%-9s | %-36s | %-36s | %-7s | %-17s | %s\n' "" "stopsheetd" "redis" "ratio" "echo baseline" ""
printf '%-9s | %9s %6s %6s %7s %5s | %9s %6s %6s %7s %5s | %-7s | %9s %7s | %s\n' \
    "C, P" "req/s" "p50µs" "p99µs" "p99.9µs" "cpu" "req/s" "p50µs" "p99µs" "p99.9µs" "cpu" "sd/rd" "req/s" "gen cpu" "noise"
for config in $CONFIGS; do
    C=${config%:*}; P=${config#*:}
    T=$(( C < 2 ? 1 : 2 ))
    run() { $BENCH loadgen --connections "$C" --pipeline "$P" --threads "$T" --duration "$DURATION" --warmup "$WARMUP" "$@"; }
    : > "$WORK/d.txt"; : > "$WORK/r.txt"
    round=0
    while [ $round -lt "$ROUNDS" ]; do
        if [ $((round % 2)) -eq 0 ]; then
            run --socket "$WORK/stopsheetd.sock" --pid "$DAEMON_PID" >> "$WORK/d.txt"
            run --socket "$WORK/redis.sock" --protocol redis --key sheet --pid "$REDIS_PID" >> "$WORK/r.txt"
        else
            run --socket "$WORK/redis.sock" --protocol redis --key sheet --pid "$REDIS_PID" >> "$WORK/r.txt"
            run --socket "$WORK/stopsheetd.sock" --pid "$DAEMON_PID" >> "$WORK/d.txt"
        fi
        round=$((round + 1))
    done
    ECHO=$(run --socket "$WORK/echo.sock" --pid "$ECHO_PID")
    D_RPS=$(stat "$WORK/d.txt" rps | median); R_RPS=$(stat "$WORK/r.txt" rps | median)
    ERRORS=$(cat "$WORK/d.txt" "$WORK/r.txt" | tr ' ' '\n' | sed -n 's/^errors=//p' | awk '{ s += $1 } END { print s + 0 }')
    NOISE=""
    D_SPREAD=$(stat "$WORK/d.txt" rps | spread); R_SPREAD=$(stat "$WORK/r.txt" rps | spread)
    [ "$D_SPREAD" -gt $NOISE_LIMIT ] && NOISE="$NOISE sd±$D_SPREAD%"
    [ "$R_SPREAD" -gt $NOISE_LIMIT ] && NOISE="$NOISE rd±$R_SPREAD%"
    [ "$ERRORS" -gt 0 ] && NOISE="$NOISE ERRORS=$ERRORS"
    [ -z "$NOISE" ] && NOISE="ok (±$D_SPREAD%/±$R_SPREAD%)" || NOISE="noisy:$NOISE"
    printf '%-9s | %9s %6s %6s %7s %5s | %9s %6s %6s %7s %5s | %6s× | %9s %7s | %s\n' "C=$C P=$P" \
        "$D_RPS" "$(stat "$WORK/d.txt" p50_us | median)" "$(stat "$WORK/d.txt" p99_us | median)" "$(stat "$WORK/d.txt" p999_us | median)" \
        "$(stat "$WORK/d.txt" server_cpu_us | median)" \
        "$R_RPS" "$(stat "$WORK/r.txt" p50_us | median)" "$(stat "$WORK/r.txt" p99_us | median)" "$(stat "$WORK/r.txt" p999_us | median)" \
        "$(stat "$WORK/r.txt" server_cpu_us | median)" \
        "$(awk -v a="$D_RPS" -v b="$R_RPS" 'BEGIN { printf "%.2f", a / b }')" "$(field "$ECHO" rps)" "$(field "$ECHO" client_cpu_us)" "$NOISE"
    printf '%s %s %s %s\n' "$C" "$P" "$D_RPS" "$R_RPS" >> "$WORK/ratios.txt"
    [ "$C" = 64 ] && [ "$P" = 1 ] && stat "$WORK/d.txt" p99_us | median > "$WORK/p99_64.txt"
done
echo "   (cpu = server CPU µs per request; gen cpu = the load generator's own CPU µs per request)"

echo
echo "== memory: 1,000,000 requests (C=16, P=16) after the runs above"
BEFORE=$(rss "$DAEMON_PID")
MILLION=$($BENCH loadgen --socket "$WORK/stopsheetd.sock" --pid "$DAEMON_PID" --connections 16 --pipeline 16 --threads 2 --requests 1000000)
sleep 0.5
RSS_AFTER=$(rss "$DAEMON_PID"); HWM=$(hwm "$DAEMON_PID")
echo "   $(field "$MILLION" requests) requests in $(field "$MILLION" seconds) s, errors $(field "$MILLION" errors)"
echo "   RSS idle $(mib "$RSS_IDLE"), before the million $(mib "$BEFORE"), after $(mib "$RSS_AFTER") (growth over the million: $((RSS_AFTER - BEFORE)) KiB), peak (VmHWM) $(mib "$HWM")"
echo "   redis for scale: RSS $(mib "$(rss "$REDIS_PID")")"

echo
echo "== push fan-out (scripts/bench-fanout.sh)"
scripts/bench-fanout.sh "$BIN"

echo
echo "== memory worst case: clients that pipeline stopSheet and never read (scripts/unread_clients.py)"
echo "   fresh daemon per count; peak RSS (VmHWM) and a reading client's latency meanwhile"
python3 scripts/unread_clients.py --binary "$BIN/stopsheetd" --clients 8,64,256,1000 --max-rss-mib 128 \
    | tee "$WORK/unread.txt" | sed 's/^unread: /   /'
UNREAD_PEAK=$(sed -n 's/.*1000 never-reading.*peak \([0-9.]*\) MiB.*/\1/p' "$WORK/unread.txt")

echo
echo "== timeouts: --idle-timeout 1 and --stuck-timeout 1 (scripts/bench_timeouts.py; figures, not LimitsIntegrationTests' pass/fail)"
TIMEOUTS=$(python3 scripts/bench_timeouts.py "$BIN")
echo "   idle client closed after $(field "$TIMEOUTS" idle_close_s) s; never-reading alerts flood closed after $(field "$TIMEOUTS" stuck_close_s) s, RSS meanwhile $(mib "$(field "$TIMEOUTS" stuck_rss_kb)")"

LOAD_END=$(cut -d' ' -f1 /proc/loadavg)
echo
echo "== noise: load average $LOAD_START at start, $LOAD_END at end on $(nproc) cores (the bench itself adds ~2)."
echo "   A configuration is marked noisy when a server's runs spread over ±$NOISE_LIMIT%."

echo
echo "== targets"
ratio() { awk -v c="$1" -v p="$2" '$1 == c && $2 == p { printf "%.2f", $3 / $4 }' "$WORK/ratios.txt"; }
verdict() { if [ "$1" = 1 ]; then echo "met"; else echo "NOT met"; fi; }
R1=$(ratio 16 1); R16=$(ratio 16 16)
echo "   stopSheet ≥ 1.0× Redis at C=16 P=1: ${R1:-?}× — $(verdict "$(awk -v r="${R1:-0}" 'BEGIN { print (r >= 1.0) }')")"
echo "   stopSheet ≥ 1.0× Redis at C=16 P=16: ${R16:-?}× — $(verdict "$(awk -v r="${R16:-0}" 'BEGIN { print (r >= 1.0) }')")"
P99=$(cat "$WORK/p99_64.txt" 2>/dev/null || echo "")
echo "   p99 at C=64 P=1 ≤ 1 ms: ${P99:-?} µs — $(verdict "$(awk -v v="${P99:-99999}" 'BEGIN { print (v <= 1000) }')")"
echo "   RSS idle ≤ 24 MiB: $(mib "$RSS_IDLE") — $(verdict "$(awk -v v="$RSS_IDLE" 'BEGIN { print (v <= 24576) }')"); no growth after 1M requests: $((RSS_AFTER - BEFORE)) KiB — $(verdict "$(awk -v a="$RSS_AFTER" -v b="$BEFORE" 'BEGIN { print (a - b <= 256) }')")"
echo "   1,000 never-reading clients ≤ 128 MiB RSS: ${UNREAD_PEAK:-?} MiB — $(verdict "$(awk -v v="${UNREAD_PEAK:-9999}" 'BEGIN { print (v <= 128) }')")"
IDLE_S=$(field "$TIMEOUTS" idle_close_s); STUCK_KB=$(field "$TIMEOUTS" stuck_rss_kb)
echo "   idle client closed < 5 s after its 1 s timeout: $IDLE_S s — $(verdict "$(awk -v v="$IDLE_S" 'BEGIN { print (v >= 0.5 && v < 5) }')"); RSS with a stuck client < 195 MiB: $(mib "$STUCK_KB") — $(verdict "$(awk -v v="$STUCK_KB" 'BEGIN { print (v < 200000) }')")"
READY=$(field "$LAUNCH" ready_ms)
echo "   exec → READY=1 ≤ 50 ms: $READY ms — $(verdict "$(awk -v v="$READY" 'BEGIN { print (v <= 50) }')")"
echo "   GTFS feed, 8 million stop_times rows, from a directory ≤ 2000 ms: $GTFS_DIR_MS ms — $(verdict "$(awk -v v="$GTFS_DIR_MS" 'BEGIN { print (v <= 2000) }')")"
echo "   from a zip ≤ 1.1× the floor ($FLOOR_MS ms): $GTFS_ZIP_MS ms, $(awk -v a="$GTFS_ZIP_MS" -v b="$FLOOR_MS" 'BEGIN { printf "%.2f", a / b }')× — $(verdict "$(awk -v a="$GTFS_ZIP_MS" -v b="$FLOOR_MS" 'BEGIN { print (a <= 1.1 * b) }')"); peer $PEER_MS ms"
echo "   peak RSS of either ≤ 200 MiB: $(mib "$GTFS_RSS_KB") — $(verdict "$(awk -v v="$GTFS_RSS_KB" 'BEGIN { print (v <= 204800) }')")"
echo "   the same feed in LZMA (a figure): $GTFS_LZMA_MS ms, $(awk -v a="$GTFS_LZMA_MS" -v b="$LZMA_FLOOR_MS" 'BEGIN { printf "%.2f", a / b }')× its floor ($LZMA_FLOOR_MS ms); peak RSS $(mib "$GTFS_LZMA_RSS_KB")"
B100=$(sed -n 's/^scale=100 .*build_ms=\([0-9.]*\).*/\1/p' "$WORK/snapshot.txt")
G=$(sed -n 's/^scale=100 .*growth=\([0-9.]*\)x.*/\1/p' "$WORK/snapshot.txt")
echo "   snapshot rebuild ×100 ≤ 50 ms and linear: $B100 ms, ×${G} for 10× the data — $(verdict "$(awk -v v="$B100" -v g="$G" 'BEGIN { print (v <= 50 && g <= 13) }')")"

# The answer path before and after issue 44's answers as plain values (scripts/bench-wire.sh,
# BASE e87cf97): instructions per stopSheet and per snapshot build, CPU beside
# loadgen's refserver (LOADGEN_DIR), a fresh snapshot build at ×100 and on a real feed (WIRE_FEED).
if [ "${BENCH_WIRE:-1}" != 0 ]; then
    echo
    scripts/bench-wire.sh
fi
