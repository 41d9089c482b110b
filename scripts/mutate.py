#!/usr/bin/env python3
"""`make mutate`: plants each one-line bug of Tests/Mutations/mutations.tsv, one at a time, and
says which unit test catches it.

    scripts/mutate.py [ID ...] [--list FILE] [--skip-baseline] [--timeout SECONDS]

Everything happens in a scratch copy of the tree, .build/mutate/tree, with its own .build: the
developer's files and build are never touched, and the copy is kept between runs, so each build
there is incremental (a file whose content did not change keeps its time). Each run first brings
the copy in step with the tree (tracked and untracked files, content compared), builds it and
runs the unit tests unmutated (the baseline: a tree that fails `make check` as it is says nothing
about its tests). Then, for each mutation: replace its text (which must occur exactly once in its
file) with the replacement, do what `make check` does (build, then every unit suite of
scripts/swift-tests.py, one process each, two at a time; of the build only the test bundle, since
no unit suite runs the binaries), put the file back.

The tests stop at the first failing suite (fail-fast: the verdict is the same as the whole run's,
and a surviving mutation has run every suite). The suite that caught a mutation last time runs
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

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(REPO, ".build", "mutate")
TREE = os.path.join(WORK, "tree")
LOGS = os.path.join(WORK, "logs")
HINTS = os.path.join(WORK, "hints.json")
LIST = os.path.join(REPO, "Tests", "Mutations", "mutations.tsv")
# The unit suite that checks the list itself (each text found once), which no mutation run includes.
LIST_CHECK = "MutationListTests"


def unescape(text):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}.get(m.group(1), m.group(0)), text)


def load(path):
    mutations, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
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
    with open(path, "w") as log:
        process = subprocess.Popen([tests.bundle(), "--testing-library", "swift-testing", "--filter", "^" + re.escape(suite)],
                                   stdout=log, stderr=subprocess.STDOUT, env=env, cwd=TREE, start_new_session=True)
        running.started(process)
        timed_out = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if running.finished(process) and not timed_out:
            # Another suite caught it already: this one's verdict is not needed.
            return False, ""
    with open(path, errors="replace") as log:
        text = log.read()
    short = suite.split(".", 1)[-1].rstrip("/")
    if timed_out:
        return True, f"{short} (still running after {timeout} s)"
    failed = re.search(r"^\S+ Test (?!run with )(\S.*?) failed after", text, re.M)
    if failed:
        return True, f"{short}/{failed.group(1)}"
    if process.returncode != 0:
        return True, f"{short} (exit {process.returncode} before any test failed)"
    return False, ""


def run_units(tests, first, timeout, log_dir, jobs=2):
    """Every unit suite, `first` ones first, `jobs` at a time, until one fails. Returns the first
    failure's description, or None when every suite passed."""
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
    queue = sorted(suites, key=lambda s: (s not in first, -times.get(s, suites[s]), s))
    lock, stop, caught, running = threading.Lock(), threading.Event(), [], Running()

    def worker():
        while not stop.is_set():
            with lock:
                if not queue:
                    return
                suite = queue.pop(0)
            failed, what = run_suite(tests, suite, timeout, log_dir, running)
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
    parser.add_argument("--check", action="store_true",
                        help="only check the list: each text found exactly once in its file (MutationListTests runs this)")
    args = parser.parse_args()
    started = time.monotonic()
    mutations = load(args.list)
    if args.check:
        sys.exit(check(mutations))
    if args.ids:
        unknown = set(args.ids) - {m["id"] for m in mutations}
        if unknown:
            sys.exit("no such mutation: " + ", ".join(sorted(unknown)))
        mutations = [m for m in mutations if m["id"] in args.ids]
    os.makedirs(LOGS, exist_ok=True)
    sync()
    tests = swift_tests()
    try:
        with open(HINTS) as f:
            hints = json.load(f)
    except (OSError, ValueError):
        hints = {}

    if not args.skip_baseline:
        print("baseline: building the scratch copy and running the unit tests unmutated …", flush=True)
        with open(os.path.join(LOGS, "baseline.log"), "w") as log:
            if not build(log):
                sys.exit(f"the unmutated tree does not build: see {log.name}")
        failure = run_units(tests, [], args.timeout, os.path.join(LOGS, "baseline"))
        if failure:
            sys.exit(f"the unmutated tree fails make check ({failure[1]}): fix that first")
        print(f"baseline: clean, {time.monotonic() - started:.0f} s", flush=True)

    rows = []
    for number, mutation in enumerate(mutations, 1):
        mutated_at = time.monotonic()
        path = os.path.join(TREE, mutation["file"])
        try:
            with open(path, encoding="utf-8") as f:
                original = f.read()
        except OSError:
            original = ""
        where = mutation["file"]
        occurrences = original.count(mutation["text"])
        if occurrences != 1:
            verdict, status = f"NOT APPLIED ({'text not found' if occurrences == 0 else f'text found {occurrences} times'})", "error"
        else:
            where = f"{mutation['file']}:{line_of(mutation['text'], original)}"
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(mutation["text"], mutation["replacement"]))
            try:
                with open(os.path.join(LOGS, mutation["id"] + ".log"), "w") as log:
                    built = build(log)
                if not built:
                    verdict, status = "caught by the compiler", "caught"
                else:
                    first = [hints[mutation["id"]]] if mutation["id"] in hints else []
                    failure = run_units(tests, first + likely(mutation["file"]), args.timeout, os.path.join(LOGS, mutation["id"]))
                    if failure:
                        hints[mutation["id"]] = failure[0]
                        verdict, status = failure[1], "caught"
                    else:
                        verdict, status = "SURVIVED", "survived"
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
        rows.append((mutation["id"], where, verdict, status))
        print(f"[{number}/{len(mutations)}] {mutation['id']}: {verdict} ({time.monotonic() - mutated_at:.0f} s)", flush=True)
        with open(HINTS, "w") as f:
            json.dump(hints, f, indent=1, sort_keys=True)

    wall = time.monotonic() - started
    width = max([len(r[0]) for r in rows] + [8])
    where_width = max([len(r[1]) for r in rows] + [4])
    print(f"\n{'mutation':{width}}  {'where':{where_width}}  caught by")
    for identifier, where, verdict, _ in rows:
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


if __name__ == "__main__":
    main()
