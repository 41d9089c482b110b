#!/usr/bin/env bash
# The bash completion of stopsheetctl, driven the way bash drives it (COMP_WORDS/COMP_CWORD, then
# COMPREPLY), against the real stopsheetctl and, for the daemon part, a real stopsheetd --demo.
# Usage: Tests/Completion/completion_test.sh [BIN_DIR]   (default .build/debug)
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$(cd "${1:-.build/debug}" && pwd)
failures=0
tmp=$(mktemp -d)
daemon=""
cleanup() { [[ -n $daemon ]] && kill "$daemon" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# shellcheck source=../../completion/stopsheetctl.bash
source completion/stopsheetctl.bash

complete_line() {
    # The words of a command line ending in the word being completed ("" for a fresh one).
    COMP_WORDS=("$bin/stopsheetctl" "$@")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _stopsheetctl 2>"$tmp/stderr" >"$tmp/stdout"
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

expect() {
    local name=$1 want=$2 got=$3
    if [[ "$got" == "$want" ]]; then echo "PASS $name"; else echo "FAIL $name: want '$want', got '$got'"; failures=$((failures + 1)); fi
    if [[ -s "$tmp/stderr" || -s "$tmp/stdout" ]]; then
        echo "FAIL $name printed: $(cat "$tmp/stdout" "$tmp/stderr")"; failures=$((failures + 1))
    fi
}

export STOPSHEETD_SOCKET=$tmp/absent.sock
expect "commands, from stopsheetctl --help" "alerts call facilities health help instances map refresh sheet station stations stats version wait watch" "$(complete_line "")"
expect "a command prefix" "sheet station stations stats" "$(complete_line s)"
expect "options" "--json" "$(complete_line --j)"
expect "options after a command" "--bus" "$(complete_line sheet --b)"
expect "refresh targets" "alerts all" "$(complete_line refresh a)"
expect "wait targets" "facilities" "$(complete_line wait --for f)"
expect "no daemon: no station ids, silently" "" "$(complete_line sheet "")"
expect "no daemon: no names, silently" "" "$(complete_line sheet --name Cl)"

# Waits until the daemon on SOCKET has loaded WHAT (`stopsheetctl wait`: told by inotify that the
# socket is there, then by a health subscription that the data loaded; no polling).
wait_for() {
    "$bin/stopsheetctl" --socket "$1" --timeout 20 wait --for "$2" >/dev/null 2>&1
}

# A daemon whose stations never load answers `stations` with an error: nothing, silently.
"$bin/stopsheetd" --demo --stations-url file:///nonexistent/stops.csv --socket "$tmp/empty.sock" 2>"$tmp/empty.log" &
daemon=$!
wait_for "$tmp/empty.sock" alerts
_stopsheetctl_stations_at=0
expect "stations not loaded: nothing, silently" "" "$(complete_line --socket "$tmp/empty.sock" station "")"
kill "$daemon"; wait "$daemon" 2>/dev/null

"$bin/stopsheetd" --demo --socket "$tmp/stopsheetd.sock" 2>"$tmp/daemon.log" &
daemon=$!
wait_for "$tmp/stopsheetd.sock" all
_stopsheetctl_stations_at=0
expect "--socket is honoured: a station id" "40380" "$(complete_line --socket "$tmp/stopsheetd.sock" station 4038)"
expect "map takes a station id" "40380" "$(complete_line --socket "$tmp/stopsheetd.sock" map 4038)"
expect "map --dot is an option" "--dot" "$(complete_line map 40380 --d)"
expect "every id of the daemon" "143" "$(complete_line --socket "$tmp/stopsheetd.sock" sheet "" | wc -w)"
expect "a name where an id goes: the ids it names" "40220 40310 40670 40740 41480" "$(complete_line --socket "$tmp/stopsheetd.sock" sheet Western)"
# Instances: the sockets of the run directory, a file that is no socket left out.
touch "$tmp/notasocket.sock"
export STOPSHEETD_RUN_DIR=$tmp
expect "instance names, from the run directory's sockets" "stopsheetd" "$(complete_line --instance "")"
_stopsheetctl_stations_at=0
expect "--instance is honoured: a station id" "40380" "$(complete_line --instance stopsheetd station 4038)"
unset STOPSHEETD_RUN_DIR
export STOPSHEETD_SOCKET=$tmp/stopsheetd.sock
expect "names after --name, quoted" "'Clark/Division' 'Clark/Lake'" "$(complete_line sheet --name Clark)"
expect "names for stations, each once" "'Harlem' 'Harlem/Lake'" "$(complete_line stations harlem)"
expect "a quote in a name, quoted" "'O'\\''Hare'" "$(complete_line stations "o'h")"

echo "$failures failed"
[[ $failures -eq 0 ]]
