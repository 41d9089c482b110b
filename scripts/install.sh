#!/usr/bin/env bash
# `make install`: build stopsheetd/stopsheetctl with the Swift stdlib linked in (no toolchain
# needed at run time), then install the binaries, the systemd units, the sysusers entry for the
# socket's group and the sample configuration (never over an existing one).
#
#   DESTDIR=/tmp/stage scripts/install.sh     stage a tree (packaging); nothing is started
#   PREFIX=/opt/stopsheet scripts/install.sh  other prefix; ExecStart= follows it
#   STOPSHEETD_PREBUILT=DIR                   take stopsheetd/stopsheetctl from DIR, skip the build
set -euo pipefail

cd "$(dirname "$0")/.."

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
# $PREFIX/lib/systemd/system is on systemd's unit search path for /usr/local; admin overrides in
# /etc/systemd/system still win over it.
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
CONFDIR=${CONFDIR:-/etc/stopsheetd}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/stopsheetd}

if [[ -n "${STOPSHEETD_PREBUILT:-}" ]]; then
    bin_dir=$STOPSHEETD_PREBUILT
else
    swift build -c release --static-swift-stdlib
    bin_dir=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
for exe in stopsheetd stopsheetctl; do
    [[ -x "$bin_dir/$exe" ]] || { echo "install.sh: $bin_dir/$exe is missing" >&2; exit 1; }
done

install -d "$DESTDIR$BINDIR" "$DESTDIR$UNITDIR" "$DESTDIR$SYSUSERSDIR" "$DESTDIR$CONFDIR" "$DESTDIR$DOCDIR"
install -m 0755 "$bin_dir/stopsheetd" "$bin_dir/stopsheetctl" "$DESTDIR$BINDIR/"

# The units name the installed paths; rewrite them when installing elsewhere.
for unit in stopsheetd.service stopsheetd.socket; do
    sed -e "s|/usr/local/bin/stopsheetd|$BINDIR/stopsheetd|g" \
        -e "s|/etc/stopsheetd/stopsheetd.conf|$CONFDIR/stopsheetd.conf|g" \
        "systemd/$unit" > "$DESTDIR$UNITDIR/$unit.tmp"
    chmod 0644 "$DESTDIR$UNITDIR/$unit.tmp"
    mv "$DESTDIR$UNITDIR/$unit.tmp" "$DESTDIR$UNITDIR/$unit"
done
install -m 0644 systemd/stopsheetd.sysusers "$DESTDIR$SYSUSERSDIR/stopsheetd.conf"
[[ -f docs/systemd.md ]] && install -m 0644 docs/systemd.md "$DESTDIR$DOCDIR/"

# The administrator's settings survive reinstalls; the sample goes beside them for comparison.
if [[ -e "$DESTDIR$CONFDIR/stopsheetd.conf" ]]; then
    install -m 0644 systemd/stopsheetd.conf "$DESTDIR$CONFDIR/stopsheetd.conf.sample"
    echo "kept $DESTDIR$CONFDIR/stopsheetd.conf (new sample: stopsheetd.conf.sample)"
else
    install -m 0644 systemd/stopsheetd.conf "$DESTDIR$CONFDIR/stopsheetd.conf"
fi

echo "installed $DESTDIR$BINDIR/stopsheetd, $DESTDIR$BINDIR/stopsheetctl and units in $DESTDIR$UNITDIR"

# Staging for a package: activation is the package's business.
[[ -z "$DESTDIR" ]] || exit 0

# The socket's group must exist before stopsheetd.socket can start.
if command -v systemd-sysusers >/dev/null; then
    systemd-sysusers "$SYSUSERSDIR/stopsheetd.conf"
elif ! getent group stopsheet >/dev/null; then
    groupadd --system stopsheet
fi

if [[ -d /run/systemd/system ]]; then
    systemctl daemon-reload
    # An upgrade takes effect at once; a first install is left for the administrator to enable.
    systemctl try-restart stopsheetd.service
    cat <<EOF
next steps:
  edit $CONFDIR/stopsheetd.conf, then
  systemctl enable --now stopsheetd.socket        # starts the daemon on the first connection
  usermod -aG stopsheet \$USER                     # let a user query it (log in again after)
  $BINDIR/stopsheetctl health
EOF
else
    echo "systemd is not running here: units installed but not loaded"
fi
