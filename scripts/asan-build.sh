#!/bin/sh
# The AddressSanitizer build, with libFuzzer's coverage instrumentation: `make test` runs the
# unit and integration tests from it (`--build-tests`), and scripts/fuzz.sh links the fuzz
# targets against its objects instead of compiling the daemon a second time. Outside a fuzzer
# the coverage hooks are the sanitizer runtime's empty defaults. Both callers go through here,
# so their flags are the same and neither invalidates the other's build.
#
#   scripts/asan-build.sh [swift build arguments…]      e.g. --build-tests, --product stopsheetd
set -eu
cd "$(dirname "$0")/.."
exec "${SWIFT:-swift}" build --sanitize=address --scratch-path .build/asan \
    -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table "$@"
