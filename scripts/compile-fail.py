#!/usr/bin/env python3
"""Compile-fail checks (`make check`): each Tests/CompileFail/*.swift other than accepted.swift is
code that must NOT compile — a handler answering another method's result, a client call expecting
another result or sending another method's params, a typed client call with params as JSON or as
named values of any type, a notification with another's params, an answer made of any bytes, an
answer built without an optional member, an answer's form that drifts from its answer (a member
missing, unpaired or of another type, `null` where the answer's is left out or the reverse, keys
of its own) — and says on its first line (`// expect: …`) a piece of the compiler's
error it must fail with. accepted.swift makes the same calls with the right types and must
compile: it proves the setup, so that a snippet fails for its types, not for a missing module.

Each file is type-checked alone against the modules of the debug build (`swift build
--build-tests` first): `swiftc -typecheck`, a few seconds each, two at a time."""

import concurrent.futures
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compiler_arguments(build):
    """The build's Swift modules, its C targets' module maps, the system libraries' module maps
    and their headers' paths (the pkg-config names of Package.swift)."""
    arguments = ["-I", os.path.join(build, "Modules")]
    for module_map in sorted(glob.glob(os.path.join(build, "*.build", "module.modulemap"))):
        arguments += ["-Xcc", "-fmodule-map-file=" + module_map]
    for module_map in sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "module.modulemap"))):
        arguments += ["-I", os.path.dirname(module_map)]
    with open(os.path.join(ROOT, "Package.swift")) as package:
        names = re.findall(r'pkgConfig:\s*"([^"]+)"', package.read())
    flags = subprocess.run(["pkg-config", "--cflags-only-I"] + names, capture_output=True, text=True, check=True).stdout.split()
    for flag in flags:
        arguments += ["-Xcc", flag]
    return arguments


def typecheck(path, arguments):
    run = subprocess.run(["swiftc", "-typecheck"] + arguments + [path], capture_output=True, text=True, cwd=ROOT)
    return run.returncode, run.stdout + run.stderr


def main():
    build = os.path.join(ROOT, ".build", "debug")
    if not os.path.isdir(os.path.join(build, "Modules")):
        sys.exit("compile-fail: no debug build; run `swift build --build-tests` first")
    arguments = compiler_arguments(build)
    snippets = sorted(glob.glob(os.path.join(ROOT, "Tests", "CompileFail", "*.swift")))
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(snippets, pool.map(lambda path: typecheck(path, arguments), snippets)))
    for path, (status, output) in results.items():
        name = os.path.relpath(path, ROOT)
        if os.path.basename(path) == "accepted.swift":
            if status != 0:
                failures.append(f"{name} must compile, and does not:\n{output}")
            continue
        with open(path) as snippet:
            first = snippet.readline()
        match = re.match(r"//\s*expect:\s*(.+?)\s*$", first)
        if not match:
            failures.append(f"{name}: its first line must be `// expect: <a piece of the error>`")
        elif status == 0:
            failures.append(f"{name} compiles, and must not")
        elif "error:" not in output or match.group(1) not in output:
            failures.append(f"{name} fails, but not with an error saying {match.group(1)!r}:\n{output}")
    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"compile-fail: {len(snippets) - len(failures)} of {len(snippets)} snippets as expected")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
