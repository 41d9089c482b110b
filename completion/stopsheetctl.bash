# bash completion for stopsheetctl(1). Installed as
# .../share/bash-completion/completions/stopsheetctl; bash-completion loads it on first use.
#
# Commands and options come from `stopsheetctl --help` itself (read once per shell), so they
# cannot drift from the program. Instance names (--instance) are those of the sockets in
# $STOPSHEETD_RUN_DIR, by default /run/stopsheetd. Station ids and names come from the running daemon, when it
# answers a `stations` request within a second; with no daemon (no socket, refused, stations not
# loaded, an older daemon without the method) nothing is offered and nothing is printed. Answers
# are kept for 60 seconds.

_stopsheetctl_help_words() {
    # $1: commands | options
    if [[ -z ${_stopsheetctl_help-} ]]; then
        _stopsheetctl_help=$("${COMP_WORDS[0]}" --help 2>/dev/null)
    fi
    if [[ $1 == commands ]]; then
        sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$_stopsheetctl_help"
    else
        grep -o -- '--[a-z][a-z-]*' <<<"$_stopsheetctl_help" | sort -u
    fi
}

# Prints `ID<TAB>NAME` lines of the daemon's stations, or nothing.
_stopsheetctl_stations() {
    local socket=$1 now
    printf -v now '%(%s)T' -1
    if [[ ${_stopsheetctl_stations_socket-} == "$socket" ]] && (( now - ${_stopsheetctl_stations_at:-0} < 60 )); then
        printf '%s' "$_stopsheetctl_stations_cache"
        return
    fi
    local answer=""
    if [[ -S $socket ]]; then
        answer=$("${COMP_WORDS[0]}" --socket "$socket" --timeout 1 --json call stations 2>/dev/null </dev/null)
    fi
    local stations
    stations=$(grep -o '"stationId":"[0-9]*","stationName":"[^"]*"' <<<"$answer" |
        sed 's/"stationId":"\([0-9]*\)","stationName":"\([^"]*\)"/\1\t\2/')
    # Only a real list is kept: a daemon still loading its stations is asked again next time.
    [[ -z $stations ]] && return
    _stopsheetctl_stations_cache=$stations$'\n'
    _stopsheetctl_stations_socket=$socket
    _stopsheetctl_stations_at=$now
    printf '%s' "$_stopsheetctl_stations_cache"
}

# The instances' names: NAME of each socket NAME.sock in the run directory ($1).
_stopsheetctl_instances() {
    local socket
    for socket in "$1"/*.sock; do
        [[ -S $socket ]] && basename "$socket" .sock
    done
}

# COMPREPLY: the station names containing $2, quoted for the shell.
_stopsheetctl_names() {
    mapfile -t COMPREPLY < <(_stopsheetctl_stations "$1" | cut -f2 | grep -i -F -- "$2" | sort -u | sed "s/'/'\\\\''/g; s/.*/'&'/")
}

_stopsheetctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local run_dir=${STOPSHEETD_RUN_DIR:-/run/stopsheetd} command="" i word
    local socket=${STOPSHEETD_SOCKET:-$run_dir/${STOPSHEETD_INSTANCE:-stopsheetd}.sock}
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            --socket) socket=${COMP_WORDS[i+1]}; ((i++)) ;;
            --instance) socket=$run_dir/${COMP_WORDS[i+1]}.sock; ((i++)) ;;
            --timeout | --name | --for) ((i++)) ;;
            -*) ;;
            *) [[ -z $command ]] && command=$word ;;
        esac
    done

    case $prev in
        --socket)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return ;;
        --instance)
            mapfile -t COMPREPLY < <(compgen -W "$(_stopsheetctl_instances "$run_dir")" -- "$cur")
            return ;;
        --timeout) return ;;
        --for)
            mapfile -t COMPREPLY < <(compgen -W "all alerts stations facilities" -- "$cur")
            return ;;
        --name)
            _stopsheetctl_names "$socket" "$cur"
            return ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_stopsheetctl_help_words options)" -- "$cur")
        return
    fi
    if [[ -z $command ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_stopsheetctl_help_words commands)" -- "$cur")
        return
    fi
    case $command in
        sheet | station | map | alerts | facilities)
            local stations
            stations=$(_stopsheetctl_stations "$socket")
            [[ -z $stations ]] && return
            if [[ -z $cur || $cur == [0-9]* ]]; then
                mapfile -t COMPREPLY < <(cut -f1 <<<"$stations" | compgen -W "$(cat)" -- "$cur")
            else
                # A name typed where an id goes: offer the ids of the stations it names.
                mapfile -t COMPREPLY < <(awk -F '\t' -v name="${cur,,}" 'index(tolower($2), name) == 1 { print $1 }' <<<"$stations")
            fi ;;
        stations)
            _stopsheetctl_names "$socket" "$cur" ;;
        refresh)
            mapfile -t COMPREPLY < <(compgen -W "alerts stations facilities all" -- "$cur") ;;
        call)
            mapfile -t COMPREPLY < <(compgen -W "stopSheet station stationMap alerts facilities health refresh version stations" -- "$cur") ;;
    esac
}

complete -F _stopsheetctl stopsheetctl
