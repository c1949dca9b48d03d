#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (preset `fuzz`) and runs one.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET]
#   TARGET: tflite_importer (default) or reference_interpreter
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
target=${2:-tflite_importer}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target "${target}_fuzzer"
corpus=build/fuzz/corpus/$target
mkdir -p "$corpus" build/fuzz/artifacts
# Seed with every model the project ships (copied, so the fuzzer may add to it).
find tests/data/models -name '*.tflite' -exec cp -n {} "$corpus/" \;
"build/fuzz/fuzz/${target}_fuzzer" "$corpus" \
  -max_total_time="$seconds" -max_len=400000 -rss_limit_mb=4096 -timeout=10 \
  -artifact_prefix="build/fuzz/artifacts/$target-" -print_final_stats=1
