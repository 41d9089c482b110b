#!/usr/bin/env bash
# `make install` / `make uninstall`: the release build (scripts/build-release.sh: static Swift
# stdlib, so no toolchain is needed at run time), then the binaries, man pages, bash completion,
# systemd units, the sysusers entry for the socket's group and the sample configuration (never
# over an existing one). debian/rules stages the .deb with it too (DESTDIR=…, PREFIX=/usr).
#
#   sudo make install                          build as the invoking user ($SUDO_USER), install
#   sudo make install PREFIX=/opt/stopsheet    binaries and man pages there; ExecStart= follows
#   DESTDIR=/tmp/stage scripts/install.sh      stage a tree (packaging); nothing is started
#   STOPSHEETD_PREBUILT=DIR                    take stopsheetd/stopsheetctl from DIR, no build
#   scripts/install.sh --uninstall             remove what install put there (same PREFIX);
#                                              PURGE=1 also removes /etc/stopsheetd
#
# Where things go: binaries in $PREFIX/bin, man pages in $PREFIX/share/man (man(1) finds them
# from PATH). Units, the sysusers entry and the completion go where systemd, systemd-sysusers and
# bash-completion look, whatever the prefix: under /usr/lib for PREFIX=/usr, otherwise under
# /usr/local (/usr/local/lib/systemd/system is systemd's directory for units "installed by the
# administrator"; /etc/systemd/system stays free for the administrator's own overrides).
set -euo pipefail

cd "$(dirname "$0")/.."

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
MANDIR=${MANDIR:-$PREFIX/share/man}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/stopsheetd}
if [[ "$PREFIX" == /usr ]]; then system_prefix=/usr; else system_prefix=/usr/local; fi
UNITDIR=${UNITDIR:-$system_prefix/lib/systemd/system}
SYSUSERSDIR=${SYSUSERSDIR:-$system_prefix/lib/sysusers.d}
COMPLETIONDIR=${COMPLETIONDIR:-$system_prefix/share/bash-completion/completions}
CONFDIR=${CONFDIR:-/etc/stopsheetd}

UNITS="stopsheetd.socket stopsheetd.service stopsheetd@.socket stopsheetd@.service"
# Every file install puts down, but the configuration: what uninstall removes.
installed_files() {
    echo "$BINDIR/stopsheetd" "$BINDIR/stopsheetctl"
    echo "$MANDIR/man8/stopsheetd.8" "$MANDIR/man1/stopsheetctl.1" "$MANDIR/man5/stopsheetd.conf.5"
    echo "$COMPLETIONDIR/stopsheetctl" "$SYSUSERSDIR/stopsheetd.conf" "$DOCDIR/systemd.md"
    for unit in $UNITS; do echo "$UNITDIR/$unit"; done
}

systemd_running() { [[ -z "$DESTDIR" && -d /run/systemd/system ]]; }

# The instances of the template units (stopsheetd@NAME.socket/.service) loaded or enabled.
instances() {
    { systemctl list-units --all --plain --no-legend 'stopsheetd@*' | awk '{print $1}'
      find /etc/systemd/system -name 'stopsheetd@?*.s*' -printf '%f\n'; } 2>/dev/null | sort -u
}

uninstall() {
    if systemd_running; then
        # A template itself cannot be stopped: its instances are, by name.
        # shellcheck disable=SC2046 # one word per unit
        systemctl disable --now stopsheetd.socket stopsheetd.service $(instances) 2>/dev/null || true
    fi
    for file in $(installed_files); do
        rm -f "$DESTDIR$file"
    done
    rmdir "$DESTDIR$DOCDIR" 2>/dev/null || true
    if [[ "${PURGE:-}" == 1 ]]; then
        rm -rf "$DESTDIR${CONFDIR:?}"
        echo "removed $DESTDIR$CONFDIR"
    else
        echo "kept $DESTDIR$CONFDIR (PURGE=1 removes it)"
    fi
    systemd_running && systemctl daemon-reload
    # The group stays: files or ACLs elsewhere may name it (as Debian leaves system groups).
    echo "uninstalled stopsheetd from $DESTDIR$PREFIX and $DESTDIR$UNITDIR"
}

# The toolchain: $SWIFT, or `swift` on PATH, or — under sudo, whose secure_path usually lacks a
# toolchain unpacked in /opt — the one on the invoking user's login PATH.
find_swift() {
    if [[ -n "${SWIFT:-}" ]]; then echo "$SWIFT"; return; fi
    if command -v swift; then return; fi
    if [[ -n "${SUDO_USER:-}" && "$(id -u)" == 0 ]]; then
        runuser -u "$SUDO_USER" -- bash -lc 'command -v swift' 2>/dev/null && return
    fi
    return 1
}

# Builds (as the tree's owner when run by root through sudo, so .build stays theirs) and prints
# the directory of the binaries; or, with no toolchain at all, the existing release build.
build() {
    if [[ -n "${STOPSHEETD_PREBUILT:-}" ]]; then echo "$STOPSHEETD_PREBUILT"; return; fi
    local swift
    if swift=$(find_swift); then
        if [[ "$(id -u)" == 0 && -n "${SUDO_USER:-}" && "$(stat -c %U .)" == "$SUDO_USER" ]]; then
            runuser -u "$SUDO_USER" -- env PATH="$(dirname "$swift"):$PATH" SWIFT="$swift" scripts/build-release.sh | tail -n 1
        else
            SWIFT="$swift" scripts/build-release.sh | tail -n 1
        fi
        return
    fi
    local built=.build/dist/release
    if [[ -x "$built/stopsheetd" && -x "$built/stopsheetctl" ]]; then
        echo "install.sh: no swift on PATH: installing the existing release build in $built" >&2
        if [[ -n "$(find Sources -newer "$built/stopsheetd" -print -quit)" ]]; then
            echo "install.sh: warning: $built is older than the sources (make release, then install again)" >&2
        fi
        echo "$built"
        return
    fi
    echo "install.sh: no swift found (PATH, SWIFT=, or $SUDO_USER's login PATH) and no release build in $built;" >&2
    echo "  build first as yourself with 'make release', or give the toolchain: sudo make install SWIFT=/path/to/swift" >&2
    exit 1
}

install_tree() {
    local bin_dir=$1
    for exe in stopsheetd stopsheetctl; do
        [[ -x "$bin_dir/$exe" ]] || { echo "install.sh: $bin_dir/$exe is missing" >&2; exit 1; }
    done
    install -d "$DESTDIR$BINDIR" "$DESTDIR$UNITDIR" "$DESTDIR$SYSUSERSDIR" "$DESTDIR$CONFDIR" "$DESTDIR$DOCDIR" \
        "$DESTDIR$MANDIR/man1" "$DESTDIR$MANDIR/man5" "$DESTDIR$MANDIR/man8" "$DESTDIR$COMPLETIONDIR"
    install -m 0755 "$bin_dir/stopsheetd" "$bin_dir/stopsheetctl" "$DESTDIR$BINDIR/"
    install -m 0644 man/stopsheetd.8 "$DESTDIR$MANDIR/man8/"
    install -m 0644 man/stopsheetctl.1 "$DESTDIR$MANDIR/man1/"
    install -m 0644 man/stopsheetd.conf.5 "$DESTDIR$MANDIR/man5/"
    install -m 0644 completion/stopsheetctl.bash "$DESTDIR$COMPLETIONDIR/stopsheetctl"

    # The units name the installed paths; rewrite them when installing elsewhere.
    for unit in $UNITS; do
        sed -e "s|/usr/local/bin/stopsheetd|$BINDIR/stopsheetd|g" \
            -e "s|/etc/stopsheetd/|$CONFDIR/|g" \
            "systemd/$unit" > "$DESTDIR$UNITDIR/$unit.tmp"
        chmod 0644 "$DESTDIR$UNITDIR/$unit.tmp"
        mv "$DESTDIR$UNITDIR/$unit.tmp" "$DESTDIR$UNITDIR/$unit"
    done
    install -m 0644 systemd/stopsheetd.sysusers "$DESTDIR$SYSUSERSDIR/stopsheetd.conf"
    install -m 0644 docs/systemd.md "$DESTDIR$DOCDIR/"

    # The administrator's settings survive reinstalls; the sample goes beside them for comparison.
    if [[ -e "$DESTDIR$CONFDIR/stopsheetd.conf" ]]; then
        install -m 0644 systemd/stopsheetd.conf "$DESTDIR$CONFDIR/stopsheetd.conf.sample"
        echo "kept $DESTDIR$CONFDIR/stopsheetd.conf (new sample: stopsheetd.conf.sample)"
    else
        install -m 0644 systemd/stopsheetd.conf "$DESTDIR$CONFDIR/stopsheetd.conf"
    fi
    echo "installed $DESTDIR$BINDIR/stopsheetd, $DESTDIR$BINDIR/stopsheetctl, units in $DESTDIR$UNITDIR"
}

activate() {
    # The socket's group must exist before stopsheetd.socket can start.
    if command -v systemd-sysusers >/dev/null; then
        systemd-sysusers "$SYSUSERSDIR/stopsheetd.conf"
    elif ! getent group stopsheet >/dev/null; then
        groupadd --system stopsheet
    fi
    if ! systemd_running; then
        echo "systemd is not running here: units installed but not loaded"
        return
    fi
    systemctl daemon-reload
    # An upgrade takes effect at once; a first install is left for the administrator to enable.
    systemctl try-restart stopsheetd.service 'stopsheetd@*.service'
    cat <<EOF
next steps:
  $BINDIR/stopsheetd --check-config --config $CONFDIR/stopsheetd.conf   # after editing it
  systemctl enable --now stopsheetd.socket        # starts the daemon on the first connection
  usermod -aG stopsheet \$USER                     # let a user query it (log in again after)
  $BINDIR/stopsheetctl health
EOF
}

if [[ "${1:-}" == --uninstall ]]; then
    uninstall
    exit 0
fi
bin_dir=$(build)
install_tree "$bin_dir"
# Staging for a package: activation is the package's business.
[[ -n "$DESTDIR" ]] || activate
