#!/bin/sh
# Builds the libFuzzer targets (clang, `fuzz` preset) and runs each for a time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   Targets: price_csv price_json offer_csv offer_json catalog_json flowchart_json benchmark_csv offload_csv
#   (default: all).
# New interesting inputs go to build-fuzz/corpus/<target>; a crash is written to
# build-fuzz/crashes/<target>/ - copy it to tests/fuzz/regressions/<target>/ once fixed, so the
# normal test suite replays it for ever.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-"price_csv price_json offer_csv offer_json catalog_json flowchart_json benchmark_csv offload_csv"}
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j2
status=0
for t in $targets; do
    work="build-fuzz/corpus/$t"
    crashes="build-fuzz/crashes/$t"
    mkdir -p "$work" "$crashes"
    echo "== fuzzing $t for ${seconds}s"
    # libFuzzer stops at a corpus directory that does not exist: pass the kept crashes only
    # for targets that have some.
    regressions="tests/fuzz/regressions/$t"
    [ -d "$regressions" ] || regressions=""
    if ! build-fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 \
        "$work" "tests/fuzz/corpus/$t" ${regressions:+"$regressions"}; then
        echo "!! $t found a problem: see $crashes"
        status=1
    fi
done
exit $status
