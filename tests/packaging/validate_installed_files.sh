#!/bin/sh
# Installs the build into a scratch prefix and validates the installed desktop entry and
# AppStream metainfo with the distribution's own validators.
# Usage: validate_installed_files.sh BUILD_DIR
set -eu
build=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
cmake --install "$build" --prefix "$root/usr" >/dev/null
app=io.github.gpuadvisor.GpuAdvisor
desktop="$root/usr/share/applications/$app.desktop"
metainfo="$root/usr/share/metainfo/$app.metainfo.xml"
for f in "$desktop" "$metainfo" "$root/usr/share/icons/hicolor/scalable/apps/$app.svg" \
         "$root/usr/share/icons/hicolor/256x256/apps/$app.png" "$root/usr/share/man/man1/gpu-advisor.1.gz" \
         "$root/usr/bin/gpu-advisor"; do
    [ -e "$f" ] || { echo "not installed: $f"; exit 1; }
done
echo "desktop-file-validate $desktop"
desktop-file-validate "$desktop"
echo "appstreamcli validate --no-net $metainfo"
appstreamcli validate --no-net --explain "$metainfo"
# The man page is well-formed troff (man's own checker, when present).
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$root/usr/share/man/man1/gpu-advisor.1.gz" >/dev/null
fi
# The PNG icons are real PNGs of their directory's size.
for size in 16 48 256 512; do
    png="$root/usr/share/icons/hicolor/${size}x${size}/apps/$app.png"
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$dims" = "${size}x${size}" ] || { echo "$png is $dims"; exit 1; }
done
echo "installed files are valid"
