#!/bin/sh
# Builds the .deb and .tar.gz with CPack, unpacks the .deb into a clean tree (dpkg-deb -x) and
# runs the installed binary there: it must need nothing from the source or build tree.
# Usage: deb_package_test.sh BUILD_DIR
set -eu
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G "DEB;TGZ" -B "$work/out" >/dev/null)
deb=$(ls "$work"/out/gpu-advisor_*.deb)
tgz=$(ls "$work"/out/gpu-advisor-*.tar.gz)
echo "built $(basename "$deb") and $(basename "$tgz")"

# Control data: real dependencies, no maintainer scripts (the package never touches user data).
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6gui6 libqt6svg6 libqcustomplot2.1-qt6 libsqlite3-0 libcsv3 qt6-qpa-plugins; do
    echo "$depends" | grep -q "$lib" || { echo "Depends lacks $lib: $depends"; exit 1; }
done
controls=$(dpkg-deb --ctrl-tarfile "$deb" | tar t | sed 's|^\./||' | grep -v '^$' | sort | tr '\n' ' ')
[ "$controls" = "control md5sums " ] || { echo "unexpected control files: $controls"; exit 1; }

# Unpack into an empty tree and run the binary from there, away from the build tree.
root="$work/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/gpu-advisor"
cd "$work"
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config"
unset QT_QPA_PLATFORM DISPLAY WAYLAND_DISPLAY || true
version=$("$bin" --version)
echo "$version" | grep -q "^gpu-advisor [0-9]" || { echo "bad --version: $version"; exit 1; }
"$bin" chart --kind perf-per-dollar --min-memory 24 --out "$work/value.png" --width 800 --height 600
head -c 8 "$work/value.png" | od -An -c | grep -q "P   N   G" || { echo "not a PNG"; exit 1; }
# First use created the database in the platform data directory, not next to the binary.
[ -f "$XDG_DATA_HOME/gpu-advisor/prices.sqlite" ] || { echo "database not in XDG_DATA_HOME"; exit 1; }
[ -z "$(find "$root" -name '*.sqlite')" ] || { echo "database written into the package tree"; exit 1; }
"$bin" --json gpus list >/dev/null
# The tarball holds the same program.
tar xzf "$tgz" -C "$work"
"$work"/gpu-advisor-*/bin/gpu-advisor --version >/dev/null
echo "the packaged program runs on its own"
