#!/bin/sh
# Regenerates the README screenshots from the shipped data (a fresh, private database and
# settings), with the real window rendered offscreen: `gpu-advisor screenshot`.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${GPU_ADVISOR_BIN:-"$root/build/app/gpu-advisor"}
out="$root/docs/screenshots"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" QT_QPA_PLATFORM=offscreen
mkdir -p "$out"
shot() { "$bin" --db "$tmp/prices.sqlite" screenshot --width 1400 --height 860 "$@"; }
shot --page advisor --answers no,yes,yes --budget 1500 --out "$out/advisor.png"
shot --page charts --out "$out/charts.png"
shot --page prices --out "$out/prices.png"
shot --page calculators --tab cloud --out "$out/calculators.png"
