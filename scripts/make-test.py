#!/usr/bin/env python3
"""`make test`: every stage, timed, with what waits overlapping what computes.

The stages of one step run at once (a build, which needs the two cores, beside tests that mostly
wait on daemons); the steps run in order, and a failed stage stops the run after its step. Each
stage writes a log under .build/test-logs/stages/; a failed one is printed whole (up to its last
3,000 lines). The end is a table of every stage's wall time, then `N passed, M failed`: the Swift
tests of every run (plain and under both sanitizers) and the systemd checks.

    scripts/make-test.py [STAGE...]     only the named stages (and nothing they would wait for)
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
SOAK_REQUESTS = os.environ.get("CI_SOAK_REQUESTS", "20000")


def sanitized_build(sanitizer):
    scratch = f".build/{sanitizer[0]}san"
    return " && ".join(f"{SWIFT} build --product {product} --sanitize={sanitizer} --scratch-path {scratch}"
                       for product in ("stopsheetd", "stopsheetctl"))


def sanitized_run(sanitizer):
    scratch = f".build/{sanitizer[0]}san/debug"
    return (f"scripts/swift-tests.py integration --bin {scratch} --label {sanitizer} && "
            f"python3 scripts/soak.py --requests {SOAK_REQUESTS} --binary {scratch}/stopsheetd --sanitized")


# Sanitizer runs: leak checking is off (the daemon's threads' state at exit is not a leak), and
# STOPSHEET_SANITIZER tells the memory tests that freed memory sits in quarantine.
ASAN = {"ASAN_OPTIONS": "detect_leaks=0", "STOPSHEET_SANITIZER": "address"}
TSAN = {"STOPSHEET_SANITIZER": "thread"}

# (name, command, extra environment); each inner list is one step.
STEPS = [
    [("build", f"{SWIFT} build --build-tests", {})],
    [("unit", "scripts/swift-tests.py unit", {}),
     ("man and completion", "make --no-print-directory man-lint completion-test", {})],
    [("integration", "scripts/swift-tests.py integration", {}),
     ("asan build", sanitized_build("address"), {})],
    [("fuzz", f"FUZZ_SECONDS={FUZZ_SECONDS} FUZZ_OPT=-Onone FUZZ_JOBS=2 scripts/fuzz.sh", {}),
     ("soak", f"python3 scripts/soak.py --requests {SOAK_REQUESTS} --binary .build/debug/stopsheetd", {})],
    [("asan tests and soak", sanitized_run("address"), ASAN),
     ("tsan build", sanitized_build("thread"), {})],
    [("tsan tests and soak", sanitized_run("thread"), TSAN),
     ("release build", "scripts/build-release.sh", {})],
    [("systemd", "python3 Tests/Systemd/run", {})],
]


def counts(text):
    """The last `N passed, M failed` line of a stage's output, as numbers."""
    found = re.findall(r"^(\d+) passed, (\d+) failed", text, re.M)
    return tuple(map(int, found[-1])) if found else None


def run(stage, results, lock):
    name, command, extra = stage
    log = os.path.join(LOGS, re.sub(r"\W+", "-", name) + ".log")
    started = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.run(command, shell=True, cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                              env=dict(os.environ, **extra)).returncode
    elapsed = time.monotonic() - started
    with open(log, errors="replace") as f:
        text = f.read()
    with lock:
        results.append({"name": name, "code": code, "seconds": elapsed, "text": text, "counts": counts(text)})
        print(f"{'ok' if code == 0 else 'FAILED':6} {name} ({elapsed:.0f} s)", flush=True)


def main():
    only = set(sys.argv[1:])
    os.makedirs(LOGS, exist_ok=True)
    results, lock = [], threading.Lock()
    started = time.monotonic()
    failed = False
    for step in STEPS:
        stages = [stage for stage in step if not only or stage[0] in only]
        threads = [threading.Thread(target=run, args=(stage, results, lock)) for stage in stages]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if any(r["code"] != 0 for r in results):
            failed = True
            break
    total = time.monotonic() - started

    for result in results:
        if result["code"] != 0:
            lines = result["text"].splitlines()
            print(f"\n===== {result['name']} failed (exit {result['code']}); its output"
                  + (f" (last 3000 of {len(lines)} lines)" if len(lines) > 3000 else "") + ":")
            print("\n".join(lines[-3000:]))
            print(f"===== end of {result['name']}")
    print("\nstage                   wall time")
    for result in results:
        mark = "" if result["code"] == 0 else "  FAILED"
        print(f"  {result['name']:22} {int(result['seconds']) // 60}:{int(result['seconds']) % 60:02d}{mark}")
    print(f"  {'total':22} {int(total) // 60}:{int(total) % 60:02d}")
    if failed:
        skipped = [stage[0] for step in STEPS for stage in step if stage[0] not in {r["name"] for r in results}]
        if skipped:
            print("not run after the failure: " + ", ".join(skipped))
    passed = sum(r["counts"][0] for r in results if r["counts"])
    failures = sum(r["counts"][1] for r in results if r["counts"])
    failures += sum(1 for r in results if r["code"] != 0 and not (r["counts"] and r["counts"][1]))
    print(f"{passed} passed, {failures} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
