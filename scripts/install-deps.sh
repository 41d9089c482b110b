#!/bin/sh
# Installs the Debian packages the build and tests need, only those missing; `apt-get update`
# runs only when something is missing. Usage: scripts/install-deps.sh [extra packages...]
set -eu
packages="libsystemd-dev libcurl4-openssl-dev pkg-config socat python3 strace $*"
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
