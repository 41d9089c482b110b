#!/bin/sh
# Installs the Debian packages the build and tests need, only those missing; `apt-get update`
# runs only when something is missing. Usage: scripts/install-deps.sh [extra packages...]
set -eu
# libarchive-dev: GTFS feed zips; libxml2-dev: SIRI-FM lift status; libicu-dev: the stations' collation; tzdata: the time-zone database every shown time is read from; jq: the docs examples; python3-venv: the GTFS-realtime oracle's virtual environment;
# debhelper, dpkg-dev, lintian, git: `make deb`; mandoc, groff: `make man-lint`; bash-completion:
# the completion test; graphviz: `make docs` and the map drawing test; strace: the race tests (fault injection); debootstrap, systemd-container: the nspawn end-to-end test.
packages="libsystemd-dev libcurl4-openssl-dev libarchive-dev libxml2-dev libicu-dev tzdata pkg-config socat jq python3 python3-venv git debhelper dpkg-dev lintian mandoc groff bash-completion graphviz strace nginx-core $*"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "missing Debian packages:$missing — install them as root" >&2
    exit 1
fi
echo "installing:$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
