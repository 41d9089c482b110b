#!/bin/sh
# `make deb`: stopsheetd_<version>_<arch>.deb in the top of the tree, built by debhelper
# (debian/rules binary, after dpkg-checkbuilddeps) with the Swift toolchain on PATH, then
# checked by lintian. Prints the .deb's path as its last line.
# Not dpkg-buildpackage: bookworm's writes its .changes and .buildinfo into `..`, outside the
# tree; this is the same debian/rules with the output kept inside.
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh
version=$(dpkg-parsechangelog -S Version)
code_version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/StopSheetCore/Version.swift)
if [ "$version" != "$code_version" ]; then
    echo "build-deb.sh: debian/changelog says $version but Version.swift says $code_version: add a changelog entry (dch -v $code_version)" >&2
    exit 1
fi
command -v "${SWIFT:-swift}" >/dev/null || { echo "build-deb.sh: no swift on PATH (or SWIFT=)" >&2; exit 1; }
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb="stopsheetd_${version}_${arch}.deb"

dpkg-checkbuilddeps
rm -f "$deb" "stopsheetd-dbgsym_${version}_${arch}.ddeb"
debian/rules clean
DEB_OUT_DIR="$PWD" debian/rules binary
debian/rules clean >/dev/null
# Errors fail the build; what lintian says at info level is explained in debian/README.source.
lintian --fail-on error "$deb" >&2 || {
    echo "build-deb.sh: lintian reports errors in $deb" >&2
    exit 1
}
echo "$PWD/$deb"
