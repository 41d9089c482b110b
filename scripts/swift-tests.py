#!/usr/bin/env python3
"""Runs the Swift tests of the built test bundle in several processes at once.

    scripts/swift-tests.py unit|integration [--jobs N] [--build DIR] [--bin DIR] [--label NAME] [--suites A,B]

unit: every suite whose name does not end in `IntegrationTests` (the core and the daemon library,
no daemon process), one process per suite. integration: the suites named `…IntegrationTests`,
which start the real `stopsheetd` and `stopsheetctl` (from DIR with --bin, e.g. a sanitized build;
else those built beside the test bundle), one process per test. --build names the folder of the
test bundle (default .build/debug; `make test` builds it once, with AddressSanitizer).

Why processes: Swift Testing runs a process's tests on the Swift concurrency pool, which on Linux
has one thread per core. A test that blocks (waiting for a daemon, an answer, an exit) holds one of
those two threads, so in one process every other test queues behind the waiting ones, and is
reported with the queue in its time (a 3 ms test at 64 s in one process of the whole suite). The
unit suites mostly compute, so a process each is enough; the integration tests mostly wait, so
each gets a process, and its time is its own. Processes also share no umask, environment or fds.

Each process's output goes to a log under .build/test-logs/LABEL/; a failing one is printed whole,
with the tail of every daemon log its tests kept (DaemonProcess writes them to
STOPSHEET_TEST_LOGS). The last line is `N passed, M failed` (tests, as Swift Testing counts them).
An integration run also records every result and notification its tests' clients received
(STOPSHEET_ANSWER_LOG, Tests/StopSheetDaemonTests/Support/AnswerLog.swift) and checks them all
against the served OpenRPC document (Tests/OpenRPC/validate.py); a failure there counts as one
failed test.
The times of each run are kept in .build/test-times.json: the slowest start first."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(REPO, ".build")
TIMES = os.path.join(BUILD, "test-times.json")
INTEGRATION = "IntegrationTests"


BUNDLE_DIR = os.path.join(BUILD, "debug")


def bundle():
    path = os.path.join(BUNDLE_DIR, "StopSheetPackageTests.xctest")
    if not os.path.exists(path):
        sys.exit(f"no test bundle at {path}: run `swift build --build-tests` first")
    return path


def units(kind, suites=None):
    """What runs as one process, with its number of tests: a suite of unit tests (they are quick
    and mostly compute), or one integration test (they mostly wait, and in one process a test that
    takes 0.1 s alone queued for seconds behind its suite's waiting tests). `suites`, when given,
    keeps only the suites of those names (without the module)."""
    listed = subprocess.run([bundle(), "--testing-library", "swift-testing", "--list-tests"],
                            capture_output=True, text=True, check=True).stdout.split()
    counts = {}
    for test in listed:
        suite = test.split("/", 1)[0]  # Module.Suite
        if suite.endswith(INTEGRATION) != (kind == "integration"):
            continue
        if suites is not None and suite.split(".", 1)[-1] not in suites:
            continue
        unit = test if kind == "integration" else suite + "/"
        counts[unit] = counts.get(unit, 0) + 1
    return counts


def load_times():
    try:
        with open(TIMES) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def run_unit(unit, environment, logs):
    """One process running `unit` (a suite's id with its slash, or one test's id)."""
    name = re.sub(r"[^\w.-]+", "_", unit).strip("_")
    log_path = os.path.join(logs, name + ".log")
    daemon_logs = os.path.join(logs, name + ".daemons")
    os.makedirs(daemon_logs, exist_ok=True)
    env = dict(environment, STOPSHEET_TEST_LOGS=daemon_logs, NO_COLOR="1")
    started = time.monotonic()
    with open(log_path, "w") as log:
        code = subprocess.run([bundle(), "--testing-library", "swift-testing", "--filter", "^" + re.escape(unit)],
                              stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO).returncode
    elapsed = time.monotonic() - started
    with open(log_path, errors="replace") as log:
        text = log.read()
    passed = len(re.findall(r"^\S+ Test (?!run with )\S.* passed after", text, re.M))
    failed = len(re.findall(r"^\S+ Test (?!run with )\S.* failed after", text, re.M))
    if code != 0 and failed == 0:
        failed = 1  # a crash before any test could say so is a failure all the same
    return {"unit": unit, "code": code, "seconds": elapsed, "passed": passed, "failed": failed,
            "log": log_path, "daemon_logs": daemon_logs, "text": text}


def report_failure(result):
    print(f"\n===== {result['unit']}: FAILED (exit {result['code']}); its output:", flush=True)
    print(result["text"].rstrip(), flush=True)
    for name in sorted(os.listdir(result["daemon_logs"])):
        with open(os.path.join(result["daemon_logs"], name), errors="replace") as f:
            lines = f.read().splitlines()
        print(f"----- daemon log {name} (last {min(40, len(lines))} of {len(lines)} lines):")
        print("\n".join(lines[-40:]))
    print(f"===== end of {result['unit']}\n", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["unit", "integration"])
    parser.add_argument("--jobs", type=int, default=0, help="processes at once (default: 2 for unit, 6 for integration)")
    parser.add_argument("--build", help="directory of the test bundle (default .build/debug)")
    parser.add_argument("--bin", help="directory of the stopsheetd and stopsheetctl to test")
    parser.add_argument("--label", help="name of this run's log folder (default: the kind)")
    parser.add_argument("--suites", help="only these suites, comma-separated names without the module")
    args = parser.parse_args()
    jobs = args.jobs or (2 if args.kind == "unit" else 6)
    label = args.label or args.kind
    global BUNDLE_DIR
    if args.build:
        BUNDLE_DIR = os.path.abspath(args.build)
    environment = dict(os.environ)
    if args.bin:
        environment["STOPSHEETD_BIN"] = os.path.join(os.path.abspath(args.bin), "stopsheetd")
    # The GTFS-realtime oracle's virtual environment, made once before the suites that use it race.
    python = subprocess.run(["/bin/sh", os.path.join(REPO, "Tests", "GTFSRealtime", "venv.sh")], check=True,
                            capture_output=True, text=True).stdout.strip()

    logs = os.path.join(BUILD, "test-logs", label)
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    answers = os.path.join(logs, "answers")
    if args.kind == "integration":
        os.makedirs(answers)
        environment["STOPSHEET_ANSWER_LOG"] = answers
    wanted = set(args.suites.split(",")) if args.suites else None
    chosen = units(args.kind, wanted)
    missing = wanted - {unit.split("/", 1)[0].split(".", 1)[-1] for unit in chosen} if wanted else set()
    if missing:
        print("0 passed, 1 failed\nno such suites: " + ", ".join(sorted(missing)), flush=True)
        sys.exit(1)
    if not chosen:
        print("0 passed, 1 failed\nno suites found", flush=True)
        sys.exit(1)
    times = load_times()
    queue = sorted(chosen, key=lambda s: (-times.get(label, {}).get(s, chosen[s]), s))
    results = []
    lock = threading.Lock()
    started = time.monotonic()

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                unit = queue.pop(0)
            result = run_unit(unit, environment, logs)
            with lock:
                results.append(result)
                mark = "ok" if result["failed"] == 0 else "FAILED"
                print(f"  {mark:6} {result['unit']}: {result['passed']} passed, {result['failed']} failed "
                      f"in {result['seconds']:.1f} s", flush=True)

    threads = [threading.Thread(target=worker) for _ in range(min(jobs, len(queue)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started

    times[label] = {r["unit"]: round(r["seconds"], 2) for r in results}
    try:
        with open(TIMES, "w") as f:
            json.dump(times, f, indent=1, sort_keys=True)
    except OSError:
        pass
    failures = [r for r in results if r["failed"]]
    for result in failures:
        report_failure(result)
    slowest = sorted(results, key=lambda r: -r["seconds"])[:5]
    print(f"{args.kind} ({label}): {len(results)} processes in {wall:.1f} s with {jobs} at a time; slowest: "
          + ", ".join(f"{r['unit'].split('.', 1)[1].rstrip('/')} {r['seconds']:.1f} s" for r in slowest), flush=True)
    passed = sum(r["passed"] for r in results)
    failed = sum(r["failed"] for r in results)
    if args.kind == "integration":
        check = subprocess.run([python, os.path.join(REPO, "Tests", "OpenRPC", "validate.py"), answers],
                               capture_output=True, text=True)
        print("answers against rpc.discover: " + (check.stdout + check.stderr).strip(), flush=True)
        passed, failed = (passed + 1, failed) if check.returncode == 0 else (passed, failed + 1)
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
