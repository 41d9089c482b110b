#!/usr/bin/env python3
"""`make test`: every stage, timed, with the builds in one lane and the tests beside them.

The builds (AddressSanitizer with the tests, ThreadSanitizer, release) each take both cores, so
they run one at a time, in the order below; every other stage starts as soon as what it needs is
built, beside the build of the moment, since those stages mostly wait on daemons, sockets and
timeouts. After a failure no new stage starts; the ones running finish. Each stage writes a log
under .build/test-logs/stages/; a failed one is printed whole (up to its last 3,000 lines). The end
is a table of every stage's wall and CPU time, then `N passed, M failed`: the Swift tests of every
run (the unit tests, the integration tests against both sanitized builds) and the systemd checks.

    scripts/make-test.py [STAGE...]     only the named stages (what they need must be built)
"""

import os
import re
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(REPO, ".build", "test-logs", "stages")
SWIFT = os.environ.get("SWIFT", "swift")
FUZZ_SECONDS = os.environ.get("CI_FUZZ_SECONDS", "20")
# The first five fuzz targets get FUZZ_SECONDS each; the four of issue 45 (lift status, its
# inventory, GTFS zips, pathways) half of it each, so the stage grows by 40 s, not 80 s, on its core.
FUZZ_TARGETS = " ".join(["request-line", "alerts", "stations", "gtfs-realtime", "gtfs-csv"]
                        + [f"{name}:{max(1, int(FUZZ_SECONDS) // 2)}" for name in
                           ("facilities", "facilities-inventory", "gtfs-zip", "gtfs-pathways")])
SOAK_REQUESTS = os.environ.get("CI_SOAK_REQUESTS", "20000")
# The release soak's chaos phase (scripts/soak_chaos.py); with its two daemons' start-up and the
# comparison, about 15 s more than this on the core the systemd stage leaves idle.
CHAOS_SECONDS = os.environ.get("CI_CHAOS_SECONDS", "15")


# The one build of the test bundle, with AddressSanitizer: the unit tests, the completion test
# and every integration run (the ThreadSanitizer one included, as the client of its daemons) run
# from it, so no plain debug build is made at all.
TESTS_BUILD = ".build/asan/debug"


def tsan_build():
    return " && ".join(f"{SWIFT} build --product {product} --sanitize=thread --scratch-path .build/tsan"
                       for product in ("stopsheetd", "stopsheetctl"))


def sanitized_run(sanitizer, suites=None):
    binaries = f".build/{sanitizer[0]}san/debug"
    only = f" --suites {','.join(suites)}" if suites else ""
    command = f"scripts/swift-tests.py integration --build {TESTS_BUILD} --bin {binaries} --label {sanitizer}{only}"
    return command + f" && python3 scripts/soak.py --requests {SOAK_REQUESTS} --binary {binaries}/stopsheetd --sanitized"


# Sanitizer runs: leak checking is off (the daemon's threads' state at exit is not a leak), and
# STOPSHEET_SANITIZER tells the memory tests that freed memory sits in quarantine.
ASAN = {"ASAN_OPTIONS": "detect_leaks=0", "STOPSHEET_SANITIZER": "address"}
TSAN = {"ASAN_OPTIONS": "detect_leaks=0", "STOPSHEET_SANITIZER": "thread"}

# The integration suites whose daemons run threads against each other after start-up: the loop
# with the refresher, the reload thread, the stop, pushes to many clients, floods and hostile
# upstreams. ThreadSanitizer runs these; the others start a daemon, ask, and stop,
# which the AddressSanitizer run covers, and TSan would only run them five times slower. Beside
# them, OpenRPCIntegrationTests: its rpc.discover answer is the document the run's answers are
# checked against.
THREADED_SUITES = [
    "DaemonIntegrationTests", "FreshnessIntegrationTests", "GTFSRealtimeAbuseIntegrationTests",
    "HardeningIntegrationTests", "HTTPRefreshIntegrationTests", "KeyedUpstreamIntegrationTests", "LifecycleIntegrationTests",
    "LimitsIntegrationTests", "NotifyReadyIntegrationTests", "OpenRPCIntegrationTests", "PushIntegrationTests",
    "SingleSourceIntegrationTests", "StatsIntegrationTests", "UpstreamAbuseIntegrationTests",
    "WaitIntegrationTests", "WatchIntegrationTests",
]


class Stage:
    def __init__(self, name, command, needs=(), build=False, env=None):
        self.name, self.command, self.needs, self.build, self.env = name, command, list(needs), build, env or {}


# In the order the build lane takes them. Two cores make the total work the wall time (the table's
# CPU column sums it), so each check runs once, and builds are few: the test bundle is built once,
# with AddressSanitizer, and the unit tests, the integration tests and the soak all run from it
# (a plain build beside it would repeat the compile for no check of its own); ThreadSanitizer
# builds only the daemon and stopsheetctl, for the threaded suites. The builds go in the order of
# what must follow each: the longest test runs come after the first build and overlap the later
# ones, and the release build, whose systemd stage is the shortest, comes last; the systemd tests
# run the release binaries, which are what ships. The fuzz targets are linked with the
# AddressSanitizer build's objects (scripts/fuzz.sh), which carry libFuzzer's coverage
# instrumentation, so the fuzzer costs a link, not a build of its own; they run on one core (two at
# once slowed the builds by more than they saved), and the link is done before the release build
# adds its git stamp to the sources, so the fuzz run starts no build. The debootstrap root of the
# systemd test is made from the start, beside the builds, since it mostly waits on the network.
STAGES = [
    Stage("systemd root", "python3 Tests/Systemd/prepare_root.py"),
    Stage("build", "scripts/asan-build.sh --build-tests", build=True),
    Stage("unit", f"scripts/swift-tests.py unit --build {TESTS_BUILD}", ["build"], env=ASAN),
    Stage("man and completion", f"make --no-print-directory man-lint && Tests/Completion/completion_test.sh {TESTS_BUILD}",
          ["build"], env=ASAN),
    Stage("asan integration and soak", sanitized_run("address"), ["build"], env=ASAN),
    Stage("tsan build", tsan_build(), ["build"], build=True),
    Stage("tsan threaded suites and soak", sanitized_run("thread", THREADED_SUITES), ["tsan build"], env=TSAN),
    Stage("fuzz link", "FUZZ_STEP=build FUZZ_CONFIG=debug scripts/fuzz.sh", ["build"]),
    Stage("fuzz", f"FUZZ_STEP=run FUZZ_SECONDS={FUZZ_SECONDS} FUZZ_JOBS=1 scripts/fuzz.sh {FUZZ_TARGETS}", ["fuzz link"]),
    Stage("release build", "scripts/build-release.sh", ["tsan build", "fuzz link"], build=True),
    Stage("systemd", "python3 Tests/Systemd/run", ["release build", "systemd root"],
          env={"STOPSHEETD_BIN": ".build/dist/release/stopsheetd"}),
    # Issue 43's fleet: Debian's nginx with the shipped docs/examples/nginx-feed-cache.conf, 20
    # release daemons polling alerts through it for 30 s, then the upstream down. About 55 s wall
    # (the 30 s window, the daemons' start and their refreshes) and 2 s of CPU: it waits, so it
    # runs beside the systemd stage and the release soak.
    Stage("fleet behind nginx", "python3 Tests/Fleet/nginx_fleet.py --bin .build/dist/release", ["release build"]),
    # The soak again, against what ships: the optimiser can make of code what no debug or sanitized
    # build shows (a release-only use-after-free once answered every sheet wrong). Its answers
    # are checked as in the sanitized runs, and its memory is judged. It fills the core the
    # systemd stage leaves idle.
    Stage("release soak", f"python3 scripts/soak.py --requests {SOAK_REQUESTS} --chaos-seconds {CHAOS_SECONDS} --binary .build/dist/release/stopsheetd",
          ["release build"]),
]


def counts(text):
    """The last `N passed, M failed` line of a stage's output, as numbers."""
    found = re.findall(r"^(\d+) passed, (\d+) failed", text, re.M)
    return tuple(map(int, found[-1])) if found else None


def run(stage, results, lock, done):
    log = os.path.join(LOGS, re.sub(r"\W+", "-", stage.name) + ".log")
    started = time.monotonic()
    with open(log, "w") as out:
        child = subprocess.Popen(stage.command, shell=True, cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                 env=dict(os.environ, **stage.env))
        # wait4, not wait: the CPU time of the stage's whole tree of processes it waited for.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = code = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - started
    with open(log, errors="replace") as f:
        text = f.read()
    with lock:
        results.append({"name": stage.name, "code": code, "seconds": elapsed, "cpu": usage.ru_utime + usage.ru_stime,
                        "text": text, "counts": counts(text)})
        print(f"{'ok' if code == 0 else 'FAILED':6} {stage.name} ({elapsed:.0f} s)", flush=True)
        done.notify_all()


def main():
    only = set(sys.argv[1:])
    stages = [stage for stage in STAGES if not only or stage.name in only]
    os.makedirs(LOGS, exist_ok=True)
    results, lock = [], threading.Lock()
    done = threading.Condition(lock)
    started = time.monotonic()
    waiting, running = list(stages), set()
    with lock:
        while True:
            failed = any(r["code"] != 0 for r in results)
            finished = {r["name"] for r in results}
            running = {stage for stage in running if stage.name not in finished}
            if not running and (failed or not waiting):
                break
            building = any(stage.build for stage in running)
            for stage in list(waiting):
                if failed:
                    break
                ready = all(need in finished or need not in {s.name for s in stages} for need in stage.needs)
                if not ready or (stage.build and building):
                    continue
                waiting.remove(stage)
                running.add(stage)
                building = building or stage.build
                threading.Thread(target=run, args=(stage, results, lock, done)).start()
            done.wait()
    failed = any(r["code"] != 0 for r in results)
    total = time.monotonic() - started

    for result in results:
        if result["code"] != 0:
            lines = result["text"].splitlines()
            print(f"\n===== {result['name']} failed (exit {result['code']}); its output"
                  + (f" (last 3000 of {len(lines)} lines)" if len(lines) > 3000 else "") + ":")
            print("\n".join(lines[-3000:]))
            print(f"===== end of {result['name']}")
    def minutes(seconds):
        return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"

    # CPU: user and system time of each stage's processes. Their sum over the cores is the least
    # wall time any order of the same stages could take on this machine.
    print(f"\n  {'stage':30} {'wall':>6} {'CPU':>6}")
    for result in results:
        mark = "" if result["code"] == 0 else "  FAILED"
        print(f"  {result['name']:30} {minutes(result['seconds']):>6} {minutes(result['cpu']):>6}{mark}")
    cpu = sum(r["cpu"] for r in results)
    cores = os.cpu_count() or 1
    print(f"  {'total':30} {minutes(total):>6} {minutes(cpu):>6}  (the CPU time over {cores} cores: {minutes(cpu / cores)})")
    if failed:
        skipped = [stage.name for stage in stages if stage.name not in {r["name"] for r in results}]
        if skipped:
            print("not run after the failure: " + ", ".join(skipped))
    passed = sum(r["counts"][0] for r in results if r["counts"])
    failures = sum(r["counts"][1] for r in results if r["counts"])
    failures += sum(1 for r in results if r["code"] != 0 and not (r["counts"] and r["counts"][1]))
    print(f"{passed} passed, {failures} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
