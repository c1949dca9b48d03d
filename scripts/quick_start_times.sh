#!/usr/bin/env bash
# Measures what a newcomer waits for, on fresh clones of this checkout's HEAD
# with an empty compiler cache, and prints a table:
#   - ./scripts/start.sh until the window (headless: until its screenshot);
#   - a one-line change in one operator's file, rebuilt and the app relinked;
#   - ./scripts/test.sh (build everything, every test, the package check).
# Debian's packages must be installed already (scripts/setup.sh). Takes as
# long as what it measures, about half an hour on 2 cores.
#   scripts/quick_start_times.sh [--skip-tests]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
skip_tests=0
[ "${1:-}" = "--skip-tests" ] && skip_tests=1

work="$(mktemp -d /tmp/loupe-quick-start.XXXXXX)"
# The logs stay in $TMPDIR/loupe-quick-start-logs for a look at what took long.
trap 'mkdir -p "${TMPDIR:-/tmp}/loupe-quick-start-logs"; cp "$work"/*.log "${TMPDIR:-/tmp}/loupe-quick-start-logs/" 2>/dev/null; rm -rf "$work"' EXIT
# An empty cache of its own, so nothing built before counts.
export CCACHE_DIR="$work/ccache"
# ... and an empty firmware cache: what loupec and the package check build
# by default goes to $XDG_CACHE_HOME/loupe, not a warm ~/.cache/loupe.
export XDG_CACHE_HOME="$work/xdg-cache"

seconds() { date +%s; }
elapsed() { echo $(($2 - $1)); }
minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }

git clone -q "$root" "$work/start"
cd "$work/start"
t0=$(seconds)
env -u DISPLAY -u WAYLAND_DISPLAY ./scripts/start.sh > "$work/start.log" 2>&1 ||
  { tail -20 "$work/start.log"; exit 1; }
t1=$(seconds)
start_s=$(elapsed "$t0" "$t1")

# One operator's file changed by a line, then both programs rebuilt.
# A line of code, not a comment: ccache would see through a comment.
echo "namespace { [[maybe_unused]] const int kQuickStartTimesTouch = 1; }" \
  >> compiler_core/ops/softmax.cpp
t0=$(seconds)
cmake --build --preset release -j2 --target loupe loupec > "$work/rebuild.log" 2>&1
t1=$(seconds)
rebuild_s=$(elapsed "$t0" "$t1")

test_s=""
if [ "$skip_tests" -eq 0 ]; then
  git clone -q "$root" "$work/test"
  cd "$work/test"
  rm -rf "$CCACHE_DIR" "$XDG_CACHE_HOME"
  t0=$(seconds)
  ./scripts/test.sh > "$work/test.log" 2>&1 || { tail -40 "$work/test.log"; exit 1; }
  t1=$(seconds)
  test_s=$(elapsed "$t0" "$t1")
  tests_line=$(grep -E "tests passed" "$work/test.log" | tail -1)
fi

echo
echo "| step (fresh clone, $(nproc) cores, empty ccache) | time |"
echo "|---|---:|"
echo "| ./scripts/start.sh to the window (headless screenshot) | $(minutes "$start_s") |"
echo "| one line changed in compiler_core/ops/softmax.cpp, loupe and loupec rebuilt | $(minutes "$rebuild_s") |"
if [ -n "$test_s" ]; then
  echo "| ./scripts/test.sh (build, ctest, package check) | $(minutes "$test_s") |"
  echo
  echo "ctest: $tests_line"
fi
