#!/bin/sh
# Builds the libFuzzer targets in Fuzz/ and runs each for FUZZ_SECONDS (default 300).
#
#   scripts/fuzz.sh [TARGET...]        targets: request-line alerts stations gtfs-realtime gtfs-csv (default: all)
#
# Environment: FUZZ_SECONDS (per target), FUZZ_OUT (default .build/fuzz), FUZZ_OPT (the swiftc
# optimisation, default -O: fast inputs for long runs; `make test`'s short run takes -Onone, which
# builds in a fraction of the time), FUZZ_JOBS (targets at once, default 1), FUZZ_BUILD_ONLY (set:
# build the fuzzer binary and stop, as `make test`'s build lane does).
#
# The targets are built with `swiftc -sanitize=fuzzer,address` straight from the sources under
# test, all in one module: a SwiftPM executable target would need libFuzzer's `main` and the
# fuzzer sanitizer in every `swift build`, breaking the normal build. Which sources those are is
# the package's word (`swift package describe`): whole targets, never a list kept here. Seed corpora are made from
# Tests/Fixtures at each run; what the fuzzer finds beyond them is kept in FUZZ_OUT/corpus/ and
# reused by the next run. A crash leaves its input in FUZZ_OUT/artifacts/ and fails the script:
# turn it into a regression test (Tests/StopSheet*Tests/FuzzRegressionTests.swift) before fixing.
set -eu
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
SWIFT=${SWIFT:-$(dirname "$(command -v "$SWIFTC")")/swift}
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
seconds=${FUZZ_SECONDS:-300}
opt=${FUZZ_OPT:--O}
jobs=${FUZZ_JOBS:-1}
out=${FUZZ_OUT:-.build/fuzz}
targets=${*:-request-line alerts stations gtfs-realtime gtfs-csv}
repo=$(pwd)
mkdir -p "$out/CLinux" "$out/modules" "$out/artifacts" "$out/corpus"

# What the package says about a target (`swift package describe`). "sources": the Swift sources
# of the target and of every Swift target it depends on, StopSheetCore's aside (listed on their
# own, below); "modules": those other Swift targets' names; "resources": the Swift file SwiftPM
# would generate for the target's `.embedInCode` resources (`PackageResources`).
package_target() {
    "$SWIFT" package describe --type json | python3 -c '
import json, os, sys
name, what = sys.argv[1], sys.argv[2]
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
def closure(name, seen):
    if name in seen or targets[name]["module_type"] != "SwiftTarget":
        return seen
    seen.append(name)
    for dependency in targets[name].get("target_dependencies", []):
        closure(dependency, seen)
    return seen
swift = [n for n in closure(name, []) if n != "StopSheetCore" or name == "StopSheetCore"]
if what == "sources":
    print(" ".join(os.path.join(targets[n]["path"], source) for n in swift for source in sorted(targets[n]["sources"])))
elif what == "modules":
    print(" ".join(n for n in swift if n != "StopSheetCore"))
else:
    print("enum PackageResources {")
    for resource in targets[name].get("resources", []):
        data = open(resource["path"], "rb").read()
        print("    static let %s: [UInt8] = [%s]" % (os.path.basename(resource["path"]).replace(".", "_").replace("-", "_"), ",".join(map(str, data))))
    print("}")
' "$1" "$2"
}
core=$(package_target StopSheetCore sources)
daemon="$(package_target StopSheetDaemon sources) $out/DaemonResources.swift"
package_target StopSheetDaemon resources >"$out/DaemonResources.swift.new"
# Rewritten only when changed, so an unchanged resource does not force a rebuild.
if cmp -s "$out/DaemonResources.swift.new" "$out/DaemonResources.swift"; then rm "$out/DaemonResources.swift.new"; else mv "$out/DaemonResources.swift.new" "$out/DaemonResources.swift"; fi
# Everything is one module named StopSheetCore, so `import StopSheetCore` is a no-op; an empty
# module of each other Swift target's name makes its `import` one too.
: >"$out/modules/empty.h"
for module in $(package_target StopSheetDaemon modules); do
    [ "$module" = StopSheetDaemon ] && continue
    printf 'module %s {\n    header "empty.h"\n    export *\n}\n' "$module" >>"$out/modules/module.modulemap.new"
done
touch "$out/modules/module.modulemap.new"
if cmp -s "$out/modules/module.modulemap.new" "$out/modules/module.modulemap"; then rm "$out/modules/module.modulemap.new"; else mv "$out/modules/module.modulemap.new" "$out/modules/module.modulemap"; fi

# Every target, in one binary (Fuzz/Entry.swift picks one by STOPSHEET_FUZZ_TARGET): the sources
# under test are the whole daemon (the decoder targets render through its wire encoding), and
# compiling them once with the fuzzer and ASan instead of once per target saves minutes.
all_targets="request-line alerts stations gtfs-realtime gtfs-csv"
for name in $targets; do
    case " $all_targets " in *" $name "*) ;; *) echo "unknown fuzz target '$name' ($all_targets)" >&2; exit 2 ;; esac
done

# The daemon sources `import CLinux` and `CICU` (C targets: SwiftPM would generate these module
# maps), CSystemd and CCurl, CArchive, CLibXML2 (system-library targets: their module maps are
# in the package, -I below).
for c in CLinux CICU; do
    mkdir -p "$out/$c"
    printf 'module %s {\n    header "%s/Sources/%s/include/%s.h"\n    export *\n}\n' "$c" "$repo" "$c" "$c" >"$out/$c/module.modulemap"
    "$CLANG" -c -O1 -fsanitize=address -ISources/$c/include Sources/$c/$c.c -o "$out/$c/$c.o"
done

binary="$out/stopsheet-fuzz"
# libxml2's headers are in a folder of their own (what its pkg-config says), for clang inside swiftc.
xml_flags=$(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g')
build() {
    files="Fuzz/FuzzSupport.swift Fuzz/Entry.swift Fuzz/RequestLineTarget.swift Fuzz/AlertsTarget.swift Fuzz/StationsTarget.swift Fuzz/GTFSRealtimeTarget.swift Fuzz/GTFSCSVTarget.swift $daemon $core"
    # Rebuild only when a source changed: CI builds once, `make fuzz` reruns start at once.
    # shellcheck disable=SC2086
    if [ -x "$binary" ] && [ "$(cat "$binary.opt" 2>/dev/null)" = "$opt" ] && [ -z "$(find $files scripts/fuzz.sh -newer "$binary" 2>/dev/null | head -1)" ]; then return; fi
    echo "fuzz: building the targets"
    # One module named after the core, so the daemon files' `import StopSheetCore` is a no-op.
    # shellcheck disable=SC2086
    # The log keeps the linker's harmless ASan symbol-export warnings out of sight unless it fails.
    if ! "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -module-name StopSheetCore "$opt" -g -suppress-warnings -j "$(nproc)" \
        -I "$out/CLinux" -I "$out/modules" -I Sources/CSystemd -I Sources/CCurl -I Sources/CArchive -I Sources/CLibXML2 -I "$out/CICU" $xml_flags \
        $files "$out/CLinux/CLinux.o" "$out/CICU/CICU.o" -lsystemd -lcurl -larchive -lxml2 -licui18n -licuuc -o "$binary" >"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        exit 1
    fi
    echo "$opt" >"$binary.opt"
}

# Seeds from the real CTA files, regenerated each run so they follow the fixtures.
seed() {
    python3 - "$out/seeds" <<'PY'
import csv, io, json, os, shutil, sys
out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
for target in ("request-line", "alerts", "stations", "gtfs-csv"):
    os.makedirs(os.path.join(out, target))
def put(target, name, data):
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
fx = "Tests/Fixtures"
for name in ["alerts_2015-02-14.DERIVED.json", "upstream/alerts.json"] + ["shape-fixtures/" + n for n in sorted(os.listdir(fx + "/shape-fixtures"))]:
    put("alerts", name.replace("/", "_"), open(os.path.join(fx, name), "rb").read())
# One alert on its own: small inputs are what the fuzzer mutates fastest.
derived = json.load(open(fx + "/alerts_2015-02-14.DERIVED.json"))
alerts = derived["CTAAlerts"]["Alert"]
put("alerts", "cta-one.json", json.dumps({"CTAAlerts": dict(derived["CTAAlerts"], Alert=alerts[0])}))
put("alerts", "cta-error.json", json.dumps({"CTAAlerts": {"ErrorCode": "25", "ErrorMessage": "No alerts"}}))
app = json.load(open(fx + "/upstream/alerts.json"))
put("alerts", "app-one.json", json.dumps({"alerts": app["alerts"][:1]}))

for name in ["L_stops_2021.csv", "upstream/stops.csv"]:
    put("stations", name.replace("/", "_"), open(os.path.join(fx, name), "rb").read())
# Every GTFS table kept as a fixture, quirks included, and two made to show the CSV quirks.
for root, _, names in sorted(os.walk(fx)):
    for name in sorted(names):
        if name.endswith(".txt") and os.path.getsize(os.path.join(root, name)) < 65536:
            put("gtfs-csv", os.path.relpath(os.path.join(root, name), fx).replace("/", "_"), open(os.path.join(root, name), "rb").read())
put("gtfs-csv", "quirks.txt", '\ufeffstop_id,stop_name,stop_lat,stop_lon\r\n"1" ,"A ""x""",0,0\r2,A"b,0,0.001\n\n3,"B\n",0,0')
rows = list(csv.DictReader(io.open(fx + "/L_stops_2021.csv", encoding="utf-8-sig", newline="")))[:12]
text = io.StringIO()
writer = csv.DictWriter(text, fieldnames=list(rows[0].keys()))
writer.writeheader()
writer.writerows(rows)
put("stations", "lstops-12.csv", text.getvalue())
put("stations", "lstops-12.json", json.dumps([{k.lower(): v for k, v in r.items()} for r in rows]))
lines = {"RED": "Red", "BLUE": "Blue", "G": "Green", "BRN": "Brown", "P": "Purple", "Pexp": "Purple Express",
         "Y": "Yellow", "Pnk": "Pink", "O": "Orange"}
put("stations", "app-12.json", json.dumps({"stops": [
    {"stopId": r["STOP_ID"], "stationId": r["MAP_ID"], "stationName": r["STATION_NAME"], "direction": r["DIRECTION_ID"],
     "routes": [v for k, v in lines.items() if r.get(k) == "true"], "stepFree": r["ADA"] == "true"} for r in rows]}))

def req(method, params=None, id=1):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":"))
requests = [
    req("stopSheet", {"stopId": "40380"}), req("stopSheet", {"stopId": 30374}, id="a"),
    req("stopSheet", {"stopId": "1106", "stopType": "bus"}), req("stopSheet", {"stopId": "49999", "stationName": "X"}),
    req("station", {"stopId": "40380"}), req("alerts"), req("alerts", {"stopId": "40900"}), req("health"),
    req("version", id=None), req("stations"), req("refresh", {"what": "alerts"}), req("refresh"), req("launch", [1, 2]),
    req("stats"), req("rpc.discover"), req("rpc.discover", {"x": 1}),
    json.dumps({"jsonrpc": "2.0", "method": "health"}), "[" + ",".join([req("version", id=i) for i in range(3)]) + "]",
    "[]", "not json", '{"jsonrpc":"2.0","id":{},"method":"x"}', '{"jsonrpc":"2.0","id":1,"method":"stopSheet","params":{"stopId":"\\ud83d\\ude8b"}}',
    req("subscribe", {"stopIds": ["40380", 30374, "40900"]}), req("subscribe", {"health": True}),
    req("subscribe", {"stopIds": ["1106"], "stopType": "bus", "health": True}), req("subscribe", {"stopIds": ["49999"]}),
    req("unsubscribe", {"subscription": "s1"}),
    "\n".join([req("subscribe", {"stopIds": ["40380"]}), req("refresh"), req("unsubscribe", {"subscription": "s1"}, id=2)]),
    "[" + ",".join([req("subscribe", {"stopIds": ["40990"]}), req("refresh", id=2), req("unsubscribe", {"subscription": "s1"}, id=3)]) + "]",
]
for index, line in enumerate(requests):
    # Byte 0 is the target's control byte: peer and read size.
    put("request-line", "line-%02d" % index, bytes([index * 37 % 256]) + line.encode() + b"\n")
put("request-line", "pipelined", b"\x10" + "\r\n".join(requests).encode() + b"\n")
PY
}

if [ -n "${FUZZ_BUILD_ONLY:-}" ]; then
    build
    echo "fuzz: built $binary"
    exit 0
fi
seed
Tests/GTFSRealtime/fuzz-seeds.sh "$out/seeds/gtfs-realtime"
status=0
summary="$out/summary.txt"
: >"$summary"
build
# One target's run; its result line goes to the summary, a failure leaves a marker.
fuzz_one() {
    name=$1
    mkdir -p "$out/corpus/$name"
    case $name in request-line) dict=Fuzz/rpc.dict ;; *) dict=Fuzz/upstream.dict ;; esac
    echo "fuzz: $name for ${seconds}s"
    log="$out/$name.log"
    # -timeout: one input that takes seconds is a hang worth reporting; -rss_limit_mb: so is one
    # that needs gigabytes. STOPSHEET_FIXTURES is read once at start-up, for the real data.
    if STOPSHEET_FUZZ_TARGET="$name" STOPSHEET_FIXTURES="$repo/Tests/Fixtures" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -dict="$dict" -print_final_stats=1 -artifact_prefix="$out/artifacts/$name-" \
        "$out/corpus/$name" "$out/seeds/$name" >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
        : >"$out/$name.failed"
        tail -n 60 "$log" >&2
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    corpus=$(find "$out/corpus/$name" -type f | wc -l)
    line="$name: $result, ${seconds}s, ${executions:-?} executions, corpus $corpus inputs"
    echo "fuzz: $line"
    echo "$line" >>"$summary"
}
running=0
for name in $targets; do
    rm -f "$out/$name.failed"
    fuzz_one "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
for name in $targets; do
    [ -e "$out/$name.failed" ] && status=1
done
[ $status -eq 0 ] || echo "fuzz: a target failed; its input is in $out/artifacts/" >&2
exit $status
