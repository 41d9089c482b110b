#!/bin/sh
# Builds the libFuzzer targets in Fuzz/ and runs each for FUZZ_SECONDS (default 300).
#
#   scripts/fuzz.sh [TARGET[:SECONDS]...]   targets: request-line alerts stations gtfs-realtime gtfs-csv
#                                   facilities facilities-inventory gtfs-zip gtfs-pathways (default: all)
#
# A target's own SECONDS replace FUZZ_SECONDS for it: `make test` gives the later four a shorter share.
#
# Environment: FUZZ_SECONDS (per target), FUZZ_OUT (default .build/fuzz), FUZZ_CONFIG (the build
# the targets link against: release, the default, for fast inputs in long runs; `make test`'s
# short run takes debug, the build its tests already made), FUZZ_JOBS (targets at once, default 1),
# FUZZ_STEP (`build`: link the fuzzer binary and stop, as `make test`'s `fuzz link` stage does;
# `run`: run the binary that step linked and build nothing, as its `fuzz` stage does, beside the
# release build, whose git stamp in the sources would make the AddressSanitizer build rebuild;
# default both).
#
# The package is built once, by scripts/asan-build.sh: AddressSanitizer with libFuzzer's coverage
# instrumentation, the build `make test` runs its tests from. Only Fuzz/ is compiled here, with
# `@testable` imports of the package's modules, and linked with the objects SwiftPM linked
# stopsheetd from (its own `main` aside) and libFuzzer's `main`. A SwiftPM target could not hold
# the targets: it would need libFuzzer's `main` and the fuzzer sanitizer in every `swift build`.
# Seed corpora are made from Tests/Fixtures at each run; what the fuzzer finds beyond them is kept
# in FUZZ_OUT/corpus/ and reused by the next run. A crash leaves its input in FUZZ_OUT/artifacts/
# and fails the script: turn it into a regression test (Tests/StopSheet*Tests/FuzzRegressionTests.swift)
# before fixing.
set -eu
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
seconds=${FUZZ_SECONDS:-300}
config=${FUZZ_CONFIG:-release}
jobs=${FUZZ_JOBS:-1}
out=${FUZZ_OUT:-.build/fuzz}
targets=${*:-request-line alerts stations gtfs-realtime gtfs-csv facilities facilities-inventory gtfs-zip gtfs-pathways}
repo=$(pwd)
mkdir -p "$out/artifacts" "$out/corpus"

all_targets="request-line alerts stations gtfs-realtime gtfs-csv facilities facilities-inventory gtfs-zip gtfs-pathways"
for target in $targets; do
    case " $all_targets " in *" ${target%%:*} "*) ;; *) echo "unknown fuzz target '${target%%:*}' ($all_targets)" >&2; exit 2 ;; esac
done

# Every target, in one binary (Fuzz/Entry.swift picks one by STOPSHEET_FUZZ_TARGET).
binary="$out/stopsheet-fuzz"
build() {
    # Release keeps its internals visible to Fuzz/'s @testable imports (debug always does).
    case $config in
        release) set -- -c release -Xswiftc -enable-testing ;;
        debug) set -- ;;
        *) echo "FUZZ_CONFIG is release or debug, not '$config'" >&2; exit 2 ;;
    esac
    scripts/asan-build.sh "$@" --product stopsheetd >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
    bin=$(scripts/asan-build.sh "$@" --show-bin-path)
    # stopsheetd's objects, as SwiftPM linked them, without stopsheetd's own (its `main`).
    grep -v '/stopsheetd\.build/' "$bin/stopsheetd.product/Objects.LinkFileList" >"$out/objects"
    # Rebuild only when an input changed: CI links once, `make fuzz` reruns start at once.
    # shellcheck disable=SC2046
    if [ -x "$binary" ] && [ "$(cat "$binary.config" 2>/dev/null)" = "$config" ] \
        && [ -z "$(find Fuzz $(cat "$out/objects") -newer "$binary" 2>/dev/null | head -1)" ]; then return; fi
    echo "fuzz: linking the targets against the $config AddressSanitizer build"
    # The C modules the package's modules import: the ones SwiftPM made for its C targets, and
    # the system libraries' own; libxml2's headers are in a folder of their own (pkg-config).
    modules=""
    for map in "$bin"/*.build/module.modulemap Sources/*/module.modulemap; do
        modules="$modules -Xcc -fmodule-map-file=$map"
    done
    # shellcheck disable=SC2086,SC2046
    if ! "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -module-name StopSheetFuzz -Onone -g -suppress-warnings \
        -I "$bin/Modules" $modules $(pkg-config --cflags-only-I libxml-2.0) Fuzz/*.swift "@$out/objects" \
        -lsystemd -lcurl -larchive -lxml2 -licui18n -licuuc -lm -o "$binary" >>"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        exit 1
    fi
    echo "$config" >"$binary.config"
}

# Seeds from the real CTA files, regenerated each run so they follow the fixtures.
seed() {
    python3 - "$out/seeds" <<'PY'
import csv, io, json, os, shutil, sys
out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
for target in ("request-line", "alerts", "stations", "gtfs-csv", "facilities", "facilities-inventory", "gtfs-zip", "gtfs-pathways"):
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
    req("station", {"stopId": "40380"}), req("stationMap", {"stopId": "40380"}), req("alerts"), req("alerts", {"stopId": "40900"}), req("health"),
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

# Lift status: the hand-made feeds in each format, and SIRI-FM conditions naming the real
# elevators (pathway_mode 5) and stations of Prague's and Euskotren's topology, so that the
# fuzzer starts from units the target places.
lifts = fx + "/facilities/"
for name in ["siri_fm.HANDMADE.xml", "wmata_elevator_incidents.HANDMADE.json", "nyct_ene.HANDMADE.json", "tfl_lifts.HANDMADE.json",
             "db_fasta.HANDMADE.json", "db_fasta_motis.REAL.json", "idfm_lifts.HANDMADE.csv", "idfm_lifts.HANDMADE.json",
             "idfm_etat_des_ascenseurs_2024-04-16_first-3-rows.REAL.csv"]:
    put("facilities", name, open(lifts + name, "rb").read())
for name in ["inventory.HANDMADE.csv", "nyct_ene_equipments.HANDMADE.json"]:
    put("facilities-inventory", name, open(lifts + name, "rb").read())
def table(path):
    return list(csv.DictReader(io.open(path, encoding="utf-8-sig", newline="")))
statuses = ["notAvailable", "available", "partiallyAvailable", "unknown"]
for feed in ("prague-pid-2020-07-02", "euskotren-2025-11-27"):
    folder = fx + "/gtfs-pathways/" + feed
    stops = {row["stop_id"].strip(): row for row in table(folder + "/stops.txt")}
    def station(stop):
        for _ in range(4):
            parent = stops.get(stop, {}).get("parent_station", "").strip()
            if not parent:
                break
            stop = parent
        return stop
    pathways = table(folder + "/pathways.txt")
    elevators = [row for row in pathways if row["pathway_mode"] == "5"][:6]
    conditions = "".join(
        "<FacilityCondition><FacilityRef>%s</FacilityRef><FacilityStatus><Status>%s</Status><Description>Lift %d</Description>"
        "</FacilityStatus><ValidityPeriod><StartTime>2026-09-16T22:15:00+02:00</StartTime></ValidityPeriod></FacilityCondition>"
        % (row["pathway_id"], statuses[i % 4], i) for i, row in enumerate(elevators))
    conditions += ("<FacilityCondition><Facility><FacilityCode>L1</FacilityCode><FacilityClass>lift</FacilityClass><FacilityLocation>"
                   "<StopPlaceRef>%s</StopPlaceRef></FacilityLocation></Facility><FacilityStatus><Status>notAvailable</Status>"
                   "</FacilityStatus></FacilityCondition>" % station(elevators[0]["from_stop_id"].strip()))
    put("facilities", feed + ".xml", '<?xml version="1.0"?><Siri xmlns="http://www.siri.org.uk/siri"><ServiceDelivery>'
        "<ResponseTimestamp>2026-09-17T08:00:00+02:00</ResponseTimestamp><FacilityMonitoringDelivery>%s"
        "</FacilityMonitoringDelivery></ServiceDelivery></Siri>" % conditions)
    # The inventory naming the same elevators by pathway and by station for the hand-made units.
    units = ["diid:0a1b2c3d-0000-4000-8000-000000000001", "ELEV-7", "EL318", "EL319", "ES258X"]
    put("facilities-inventory", feed + ".csv", "facility_id,stop_id,pathway_id\n" + "".join(
        "%s,%s,%s\n" % (unit, station(row["from_stop_id"].strip()) if i % 2 else "", row["pathway_id"] if i % 2 == 0 else "")
        for i, (unit, row) in enumerate(zip(units, elevators))))
    # pathways.txt and levels.txt beside one station's real stops: each station's own rows.
    levels = open(folder + "/levels.txt", encoding="utf-8-sig").read().splitlines()
    header = open(folder + "/pathways.txt", "rb").read().decode("utf-8-sig").splitlines()[0]
    lines = open(folder + "/pathways.txt", "rb").read().decode("utf-8-sig").splitlines()[1:]
    by_station = {}
    for row, line in zip(pathways, lines):
        by_station.setdefault(station(row["from_stop_id"].strip()), []).append(line)
    for name in sorted(by_station)[:8]:
        used = {stops[s]["level_id"].strip() for s in stops if station(s) == name and stops[s].get("level_id", "").strip()}
        kept = [levels[0]] + [line for line in levels[1:] if line.split(",")[0] in used]
        put("gtfs-pathways", "%s-%s" % (feed, name.replace(":", "_")),
            (name + "\n" + header + "\n" + "\n".join(by_station[name]) + "\n\0" + "\n".join(kept) + "\n").encode())

# GTFS zips: the small hand-made feeds zipped by Python's zipfile with each method, and in the
# structures of Tests/GTFS/make_feed.py (data descriptors, ZIP64 records, a folder, a Mac's
# __MACOSX entries), kept small: a whole CTA feed takes a second an input in the sanitized build.
import zipfile
sys.path.insert(0, "Tests/GTFS")
from make_feed import Unseekable
def feed_zip(folder, method, descriptors=False, prefix="", mac=False):
    data = io.BytesIO()
    with zipfile.ZipFile(Unseekable(data) if descriptors else data, "w", method) as archive:
        for name in sorted(os.listdir(os.path.join(fx, folder))):
            if name.endswith(".txt"):
                archive.write(os.path.join(fx, folder, name), prefix + name)
                if mac:
                    archive.writestr("__MACOSX/" + prefix + "._" + name, b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    return data.getvalue()
for folder in ["facilities/gtfs", "gtfs-any-agency", "gtfs-quirks/two-platforms-one-name"]:
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        put("gtfs-zip", "%s-%d.zip" % (folder.replace("/", "_"), method), feed_zip(folder, method))
put("gtfs-zip", "descriptors.zip", feed_zip("gtfs-any-agency", zipfile.ZIP_DEFLATED, descriptors=True))
put("gtfs-zip", "folder-mac.zip", feed_zip("gtfs-any-agency", zipfile.ZIP_DEFLATED, descriptors=True, prefix="feed/", mac=True))
zipfile.ZIP64_LIMIT = zipfile.ZIP_FILECOUNT_LIMIT = 0  # every record in ZIP64 form, as make_feed.py --zip64
put("gtfs-zip", "zip64.zip", feed_zip("gtfs-any-agency", zipfile.ZIP_LZMA))
PY
}

step=${FUZZ_STEP:-both}
case $step in build|run|both) ;; *) echo "FUZZ_STEP is build, run or both, not '$step'" >&2; exit 2 ;; esac
if [ "$step" = build ]; then
    build
    echo "fuzz: built $binary"
    exit 0
fi
seed
Tests/GTFSRealtime/fuzz-seeds.sh "$out/seeds/gtfs-realtime"
status=0
summary="$out/summary.txt"
: >"$summary"
if [ "$step" = both ]; then
    build
elif [ ! -x "$binary" ]; then
    echo "fuzz: no $binary to run: FUZZ_STEP=build links it" >&2
    exit 1
fi
# One target's run; its result line goes to the summary, a failure leaves a marker.
fuzz_one() {
    name=${1%%:*}
    # Each run is a job of its own (a subshell): its seconds change no other's.
    case $1 in *:*) seconds=${1#*:} ;; esac
    mkdir -p "$out/corpus/$name"
    case $name in
        request-line) dict=Fuzz/rpc.dict ;;
        facilities|facilities-inventory) dict=Fuzz/facilities.dict ;;
        gtfs-zip) dict=Fuzz/zip.dict ;;
        gtfs-pathways) dict=Fuzz/pathways.dict ;;
        *) dict=Fuzz/upstream.dict ;;
    esac
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
    # libFuzzer's last status line: `cov:` edges and `ft:` features reached.
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    line="$name: $result, ${seconds}s, ${executions:-?} executions, ${coverage:-cov: ?}, corpus $corpus inputs"
    echo "fuzz: $line"
    echo "$line" >>"$summary"
}
running=0
for target in $targets; do
    rm -f "$out/${target%%:*}.failed"
    fuzz_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
for target in $targets; do
    [ -e "$out/${target%%:*}.failed" ] && status=1
done
[ $status -eq 0 ] || echo "fuzz: a target failed; its input is in $out/artifacts/" >&2
exit $status
