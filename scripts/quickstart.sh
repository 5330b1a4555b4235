#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   scripts/quickstart.sh run    install what is missing, build, start the app
#   scripts/quickstart.sh test   install what is missing, build, run the whole test suite
# Works as root or as a user with sudo. Only Debian packages are installed.
set -euo pipefail

mode="${1:-}"
case "$mode" in
    run|test) ;;
    *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
preset="${ADVISOR_PRESET:-default}"
[ "${CI:-}" = "true" ] && preset="${ADVISOR_PRESET:-ci}"

# Build tools and libraries (see README "Dependencies" for why each is here).
packages=(
    build-essential cmake ninja-build pkg-config git
    qt6-base-dev qt6-svg-dev libgl-dev libqcustomplot-dev
    libsqlite3-dev libsqlitecpp-dev nlohmann-json3-dev libcsv-dev
    libgtest-dev libbenchmark-dev
    desktop-file-utils appstream dpkg-dev file
    fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        sudo_cmd=()
    elif command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo)
    else
        echo "error: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -q
    "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi

echo "== configuring (preset: $preset)"
cmake --preset "$preset" >/dev/null
echo "== building"
cmake --build --preset "$preset"

if [ "$mode" = "run" ]; then
    echo "== starting gpu-advisor"
    exec "$here/build/app/gpu-advisor"
fi

echo "== testing"
ctest --preset "$preset"
