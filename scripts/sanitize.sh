#!/bin/sh
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (`asan` preset, Debug,
# in build-asan/) and runs the whole test suite under them. Any leak, overflow, use after
# free or undefined behaviour fails the test that caused it.
# Usage: scripts/sanitize.sh [extra ctest arguments, e.g. -L unit]
# Not part of the default CI run: on 2 cores the build takes ~20 min and the tests ~12 min.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# halt_on_error: the first report fails the process; detect_leaks: LeakSanitizer too.
# Qt's and fontconfig's one-time allocations are process-lifetime caches, not leaks.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
cmake --preset asan >/dev/null
cmake --build --preset asan
# Package tests build .deb files from the instrumented tree: not meaningful here.
ctest --test-dir build-asan -j2 --output-on-failure --label-exclude 'long|package' "$@"
