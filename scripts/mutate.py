#!/usr/bin/env python3
"""`make mutate`: plants each one-line bug of Tests/Mutations/mutations.tsv, one at a time, and
says which unit test catches it.

    scripts/mutate.py [ID ...] [--list FILE] [--skip-baseline] [--timeout SECONDS]
    scripts/mutate.py --random N [--seed S] [--show]

--random N plants N one-token mutants drawn with seed S from the code of Sources/StopSheetCore,
Sources/StopSheetDaemon and Sources/StopSheetProtocol instead (scripts/random_mutants.py says
which tokens; --show prints the draw and stops). A random mutant that does not compile is no
verdict on the tests: it is counted apart, as are those Tests/Mutations/equivalent.tsv lists, and
the score is given per room (Core, Daemon, Protocol) over the mutants that compiled. Survivors
are printed with file and line; the run exits 0 whatever survived (a draw is a measure, the list
is a rule).

Everything happens in a scratch copy of the tree, .build/mutate/tree, with its own .build: the
developer's files and build are never touched, and the copy is kept between runs, so each build
there is incremental (a file whose content did not change keeps its time). Each run first brings
the copy in step with the tree (tracked and untracked files, content compared), builds it and
runs the unit tests unmutated (the baseline: a tree that fails `make check` as it is says nothing
about its tests). Then, for each mutation: replace its text (which must occur exactly once in its
file) with the replacement, do what `make check` does (build, then every unit suite of
scripts/swift-tests.py, one process each, two at a time; of the build only the test bundle, since
no unit suite runs the binaries), put the file back.

The tests stop at the first failing test (fail-fast: the verdict is the same as the whole run's,
and a surviving mutation has run every suite): its suite's process is ended as soon as it reports
an issue, and so is the other one running. Everything runs under `nice -n 15`: a mutation run
is background work beside a developer's build. A suite's time limit is ten times its time in
the last baseline (at least 30 s, at most --timeout). The suite that caught a mutation last time runs
first (.build/mutate/hints.json), then those whose files name the mutated file's type. A mutation
that changes a module's interface (a public constant's value) rebuilds every module above it:
minutes, where a change inside a function takes seconds. A build that fails is caught by the
compiler; a suite still
running after --timeout seconds (a mutation that loops) counts as caught by that suite.

Prints a table: each mutation, and the first failing test (`Suite/test()`), or SURVIVED, or NOT
APPLIED (its text is not in its file, or is there more than once: the list must follow the code),
then the score and the wall time. Exit 1 unless every mutation was applied and caught. Each
mutation's build and test output is kept in .build/mutate/logs/ID.log.

List format: one mutation a line, tab-separated: id, file, text, replacement. `#` starts a
comment line. In text and replacement `\\n` is a newline, `\\t` a tab and `\\\\` a backslash (a
mutation changes one line; the text may take in a neighbour to be found once)."""

import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import random_mutants

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(REPO, ".build", "mutate")
TREE = os.path.join(WORK, "tree")
LOGS = os.path.join(WORK, "logs")
HINTS = os.path.join(WORK, "hints.json")
# Each unit suite's wall time in the last baseline: a suite's time limit under a mutant.
BASELINE_TIMES = os.path.join(WORK, "baseline-times.json")
LIST = os.path.join(REPO, "Tests", "Mutations", "mutations.tsv")
# The unit suite that checks the list itself (each text found once), which no mutation run includes.
LIST_CHECK = "MutationListTests"
# Swift Testing's line for a test's first issue: `✘ Test name() recorded an issue at …`.
ISSUE = re.compile(r"^\S+ Test (?!run with )(\S.*?) recorded an issue")


def unescape(text):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}.get(m.group(1), m.group(0)), text)


def load(path):
    mutations, seen = [], set()
    for number, fields in random_mutants.tsv_rows(path):
        if len(fields) != 4 or fields[2] == fields[3] or fields[0] in seen:
            sys.exit(f"{path}:{number}: want four tab-separated fields (id, file, text, replacement), "
                     f"a text that changes and an id of its own")
        seen.add(fields[0])
        mutations.append({"id": fields[0], "file": fields[1], "text": unescape(fields[2]), "replacement": unescape(fields[3])})
    return mutations


def sync():
    """Makes the scratch copy's files those of the tree (tracked and untracked, not ignored),
    writing only the files whose content differs, so that the copy's build stays incremental."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    files = {path for path in listed if path and os.path.isfile(os.path.join(REPO, path))}
    for path in files:
        source, target = os.path.join(REPO, path), os.path.join(TREE, path)
        with open(source, "rb") as f:
            content = f.read()
        try:
            with open(target, "rb") as f:
                same = f.read() == content
        except OSError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(content)
            shutil.copymode(source, target)
    for root, directories, names in os.walk(TREE):
        if root == TREE:
            directories[:] = [d for d in directories if d != ".build"]
        for name in names:
            path = os.path.relpath(os.path.join(root, name), TREE)
            if path not in files:
                os.remove(os.path.join(root, name))
    # The test tools' virtual environment is the tree's own (made once by venv.sh), not a second one.
    venv = subprocess.run(["/bin/sh", os.path.join(REPO, "Tests", "GTFSRealtime", "venv.sh")], capture_output=True,
                          text=True, check=True).stdout.strip()
    link = os.path.join(TREE, ".build", "venv")
    os.makedirs(os.path.dirname(link), exist_ok=True)
    if not os.path.islink(link):
        shutil.rmtree(link, ignore_errors=True)
        os.symlink(os.path.dirname(os.path.dirname(venv)), link)


def swift_tests():
    """The scratch copy's scripts/swift-tests.py, for its list of unit suites."""
    spec = importlib.util.spec_from_file_location("swift_tests", os.path.join(TREE, "scripts", "swift-tests.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(log):
    """`make check`'s build step in the scratch copy, less what no unit test runs: only the test
    bundle. The binaries are for the integration suites (`DaemonProcess` refuses to start one in
    a suite not named …IntegrationTests), and their links would double each mutation's build.
    True when it built."""
    for step in (["scripts/install-deps.sh"], [os.environ.get("SWIFT", "swift"), "build", "--product", "StopSheetPackageTests"]):
        if subprocess.run(step, cwd=TREE, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            return False
    return True


class Running:
    """The suites' processes now running. Once one suite fails, `cut` ends the others at once
    (their verdicts are not needed); each run's own wait then returns, no poll in between."""

    def __init__(self):
        self.lock = threading.Lock()
        self.processes = set()
        self.cut_off = set()
        self.stopped = False

    def kill(self, process):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.cut_off.add(process)

    def started(self, process):
        with self.lock:
            self.processes.add(process)
            if self.stopped:
                self.kill(process)

    def finished(self, process):
        """True when `cut` ended it."""
        with self.lock:
            self.processes.discard(process)
            return process in self.cut_off

    def cut(self):
        with self.lock:
            self.stopped = True
            for process in self.processes:
                if process.poll() is None:
                    self.kill(process)


def run_suite(tests, suite, timeout, log_dir, running):
    """One unit suite in a process of its own, as swift-tests.py runs it. Returns (failed, what):
    what is the first failing test, or why the suite failed without one."""
    name = re.sub(r"[^\w.-]+", "_", suite).strip("_")
    daemon_logs = os.path.join(log_dir, name + ".daemons")
    os.makedirs(daemon_logs, exist_ok=True)
    env = dict(os.environ, STOPSHEET_TEST_LOGS=daemon_logs, NO_COLOR="1")
    path = os.path.join(log_dir, name + ".log")
    first_issue = []
    with open(path, "w") as log:
        process = subprocess.Popen([tests.bundle(), "--testing-library", "swift-testing", "--filter", "^" + re.escape(suite)],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=TREE, start_new_session=True)
        running.started(process)

        def copy():
            # The first issue a test records is the verdict: the rest of the suite is not needed.
            for raw in process.stdout:
                line = raw.decode(errors="replace")
                log.write(line)
                issue = ISSUE.match(line)
                if issue and not first_issue:
                    first_issue.append(issue.group(1))
                    log.flush()
                    running.cut()

        reader = threading.Thread(target=copy)
        reader.start()
        timed_out = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join()
        if running.finished(process) and not timed_out and not first_issue:
            # Another suite caught it already: this one's verdict is not needed.
            return False, ""
    with open(path, errors="replace") as log:
        text = log.read()
    short = suite.split(".", 1)[-1].rstrip("/")
    if first_issue:
        return True, f"{short}/{first_issue[0]}"
    if timed_out:
        return True, f"{short} (still running after {timeout} s)"
    failed = re.search(r"^\S+ Test (?!run with )(\S.*?) failed after", text, re.M)
    if failed:
        return True, f"{short}/{failed.group(1)}"
    if process.returncode != 0:
        return True, f"{short} (exit {process.returncode} before any test failed)"
    return False, ""


def run_units(tests, first, timeout, log_dir, jobs=2, times_taken=None):
    """Every unit suite, `first` ones first, `jobs` at a time, until one fails. Returns the first
    failure's description, or None when every suite passed. `timeout` is a suite's limit in
    seconds, or a function of the suite giving it; `times_taken`, when given, gets each suite's
    wall time."""
    shutil.rmtree(log_dir, ignore_errors=True)
    os.makedirs(log_dir)
    # The list's own check finds every planted text gone from its file: it would catch every
    # mutation, and say nothing of the rule each one breaks.
    suites = {suite: count for suite, count in tests.units("unit").items() if not suite.endswith(f".{LIST_CHECK}/")}
    try:  # the tree's own times of its last unit run, for an order that keeps both processes busy
        with open(os.path.join(REPO, ".build", "test-times.json")) as f:
            times = json.load(f).get("unit", {})
    except (OSError, ValueError):
        times = {}
    rank = {suite: position for position, suite in reversed(list(enumerate(first)))}
    queue = sorted(suites, key=lambda s: (rank.get(s, len(first)), -times.get(s, suites[s]), s))
    lock, stop, caught, running = threading.Lock(), threading.Event(), [], Running()

    def worker():
        while not stop.is_set():
            with lock:
                if not queue:
                    return
                suite = queue.pop(0)
            started = time.monotonic()
            failed, what = run_suite(tests, suite, timeout(suite) if callable(timeout) else timeout, log_dir, running)
            if times_taken is not None:
                times_taken[suite] = time.monotonic() - started
            if failed:
                with lock:
                    caught.append((suite, what))
                stop.set()
                running.cut()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return caught[0] if caught else None


def likely(path):
    """The suites whose file names the mutated file's type (`StepFreeNow` for StepFreeNow.swift):
    run first when no earlier run says which suite catches a mutation. Only an order: every
    suite runs until one fails."""
    stem = os.path.splitext(os.path.basename(path))[0]
    found = subprocess.run(["grep", "-rlw", "--include=*.swift", stem, "Tests"], cwd=TREE, capture_output=True, text=True).stdout.split()
    return [f"{os.path.normpath(f).split(os.sep)[1]}.{os.path.splitext(os.path.basename(f))[0]}/" for f in found]


def module_suites(path, tests_units):
    """The unit suites of the test target of the mutated file's module (StopSheetCoreTests for
    Sources/StopSheetCore): after the likely ones, they are the next most likely to catch it."""
    module = path.split("/")[1] + "Tests."
    return sorted(suite for suite in tests_units if suite.startswith(module))


def line_of(text, content):
    return content[:content.index(text)].count("\n") + 1


def check(mutations):
    """Each mutation's text occurs exactly once in its file in this tree: one that a change moved
    or rewrote plants nothing, and its rule goes untested. Returns the exit status."""
    problems = []
    for mutation in mutations:
        try:
            with open(os.path.join(REPO, mutation["file"]), encoding="utf-8") as f:
                found = f.read().count(mutation["text"])
        except OSError as error:
            problems.append(f"{mutation['id']}: {error}")
            continue
        if found != 1:
            problems.append(f"{mutation['id']}: its text occurs {found} times in {mutation['file']}, not once: {mutation['text']!r}")
    print("\n".join(problems) or f"{len(mutations)} mutations, each text found once")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="only these mutations (default: every one in the list)")
    parser.add_argument("--list", default=LIST, help="the list of mutations (default: Tests/Mutations/mutations.tsv)")
    parser.add_argument("--skip-baseline", action="store_true", help="do not build and test the copy unmutated first")
    parser.add_argument("--timeout", type=int, default=300, help="seconds one suite may run (default 300)")
    parser.add_argument("--random", type=int, metavar="N", help="plant N random one-token mutants instead of the list")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the random draw (default 1)")
    parser.add_argument("--show", action="store_true", help="with --random: print the draw and stop")
    parser.add_argument("--check", action="store_true",
                        help="only check the list: each text found exactly once in its file (MutationListTests runs this)")
    args = parser.parse_args()
    started = time.monotonic()
    if args.random is not None:
        mutations = random_mutants.draw(REPO, args.random, args.seed)
        if args.show:
            for mutant in mutations:
                print(f"{mutant['room']}\t{mutant['kind']}\t{mutant['id']}" + ("\tEQUIVALENT" if mutant["equivalent"] else ""))
            sys.exit(0)
        return run(mutations, args, started, randomly=True)
    mutations = load(args.list)
    if args.check:
        sys.exit(check(mutations))
    if args.ids:
        unknown = set(args.ids) - {m["id"] for m in mutations}
        if unknown:
            sys.exit("no such mutation: " + ", ".join(sorted(unknown)))
        mutations = [m for m in mutations if m["id"] in args.ids]
    return run(mutations, args, started, randomly=False)


def planted(mutation, original):
    """(the mutated text, where, None), or (None, where, why it could not be planted)."""
    if "offset" in mutation:
        try:
            return random_mutants.plant(mutation, original), f"{mutation['file']}:{mutation['line']}", None
        except ValueError as error:
            return None, mutation["file"], f"NOT APPLIED ({error})"
    occurrences = original.count(mutation["text"])
    if occurrences != 1:
        return None, mutation["file"], f"NOT APPLIED ({'text not found' if occurrences == 0 else f'text found {occurrences} times'})"
    return (original.replace(mutation["text"], mutation["replacement"]),
            f"{mutation['file']}:{line_of(mutation['text'], original)}", None)


def run(mutations, args, started, randomly):
    # Background work: the builds and suites of every mutant yield to the developer's own.
    os.nice(15)
    os.makedirs(LOGS, exist_ok=True)
    sync()
    tests = swift_tests()
    try:
        with open(HINTS) as f:
            hints = json.load(f)
    except (OSError, ValueError):
        hints = {}

    try:
        with open(BASELINE_TIMES) as f:
            baseline_times = json.load(f)
    except (OSError, ValueError):
        baseline_times = {}
    if not args.skip_baseline:
        print("baseline: building the scratch copy and running the unit tests unmutated …", flush=True)
        with open(os.path.join(LOGS, "baseline.log"), "w") as log:
            if not build(log):
                sys.exit(f"the unmutated tree does not build: see {log.name}")
        failure = run_units(tests, [], args.timeout, os.path.join(LOGS, "baseline"), times_taken=baseline_times)
        if failure:
            sys.exit(f"the unmutated tree fails make check ({failure[1]}): fix that first")
        with open(BASELINE_TIMES, "w") as f:
            json.dump(baseline_times, f, indent=1, sort_keys=True)
        print(f"baseline: clean, {time.monotonic() - started:.0f} s", flush=True)

    def limit(suite):
        # Ten times the suite's baseline: a mutant that loops is caught by the limit, soon.
        return min(args.timeout, max(30, 10 * baseline_times[suite])) if suite in baseline_times else args.timeout

    all_suites = list(tests.units("unit"))
    rows = []
    for number, mutation in enumerate(mutations, 1):
        mutated_at = time.monotonic()
        path = os.path.join(TREE, mutation["file"])
        log_name = re.sub(r"[^\w.-]+", "_", mutation["id"]).strip("_")
        try:
            with open(path, encoding="utf-8") as f:
                original = f.read()
        except OSError:
            original = ""
        mutated, where, problem = planted(mutation, original)
        if mutation.get("equivalent"):
            verdict, status = f"equivalent, not run ({mutation['equivalent']})", "equivalent"
        elif problem:
            verdict, status = problem, "error"
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutated)
            try:
                with open(os.path.join(LOGS, log_name + ".log"), "w") as log:
                    built = build(log)
                if not built:
                    verdict, status = ("does not compile", "uncompiled") if randomly else ("caught by the compiler", "caught")
                else:
                    first = [hints[mutation["id"]]] if mutation["id"] in hints else []
                    first += likely(mutation["file"]) + module_suites(mutation["file"], all_suites)
                    failure = run_units(tests, first, limit, os.path.join(LOGS, log_name))
                    if failure:
                        hints[mutation["id"]] = failure[0]
                        verdict, status = failure[1], "caught"
                    else:
                        verdict, status = "SURVIVED", "survived"
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
        rows.append((mutation["id"], where, verdict, status, mutation.get("room")))
        print(f"[{number}/{len(mutations)}] {mutation['id']}: {verdict} ({time.monotonic() - mutated_at:.0f} s)", flush=True)
        with open(HINTS, "w") as f:
            json.dump(hints, f, indent=1, sort_keys=True)

    wall = time.monotonic() - started
    if randomly:
        return report_random(rows, wall, args)
    width = max([len(r[0]) for r in rows] + [8])
    where_width = max([len(r[1]) for r in rows] + [4])
    print(f"\n{'mutation':{width}}  {'where':{where_width}}  caught by")
    for identifier, where, verdict, _, _ in rows:
        print(f"{identifier:{width}}  {where:{where_width}}  {verdict}")
    caught = sum(1 for r in rows if r[3] == "caught")
    survived = [r[0] for r in rows if r[3] == "survived"]
    errors = [r[0] for r in rows if r[3] == "error"]
    score = 100 * caught / len(rows) if rows else 0
    print(f"\nscore: {caught} of {len(rows)} caught by make check ({score:.0f} %)"
          + (f"; survived: {', '.join(survived)}" if survived else "")
          + (f"; NOT APPLIED: {', '.join(errors)}" if errors else ""))
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min)")
    sys.exit(0 if rows and caught == len(rows) else 1)


def report_random(rows, wall, args):
    """Survivors with file and line, then per room: compiled, caught, survived, the score."""
    print(f"\nrandom mutants, seed {args.seed}: {len(rows)} drawn")
    survivors = [r for r in rows if r[3] == "survived"]
    for identifier, _, _, _, room in survivors:
        print(f"SURVIVED  {identifier}")
    for identifier, _, verdict, status, _ in rows:
        if status == "error":
            print(f"{verdict}  {identifier}")
    for room in sorted({r[4] for r in rows}):
        mine = [r for r in rows if r[4] == room]
        compiled = [r for r in mine if r[3] in ("caught", "survived")]
        lived = sum(1 for r in compiled if r[3] == "survived")
        share = f"{100 * lived / len(compiled):.0f} %" if compiled else "-"
        print(f"{room}: {len(compiled)} compiled, {len(compiled) - lived} caught, {lived} survived ({share});"
              f" {sum(1 for r in mine if r[3] == 'uncompiled')} did not compile, {sum(1 for r in mine if r[3] == 'equivalent')} equivalent")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min)")
    sys.exit(1 if any(r[3] == "error" for r in rows) else 0)


if __name__ == "__main__":
    main()
