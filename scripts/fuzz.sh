#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs the TFLite importer fuzzer.
# Usage: scripts/fuzz.sh [SECONDS]   (default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target tflite_importer_fuzzer
corpus=build/fuzz/corpus/tflite_importer
mkdir -p "$corpus" build/fuzz/artifacts
# Seed with every model the project ships (copied, so the fuzzer may add to it).
find tests/data/models -name '*.tflite' -exec cp -n {} "$corpus/" \;
build/fuzz/fuzz/tflite_importer_fuzzer "$corpus" \
  -max_total_time="$seconds" -max_len=400000 -rss_limit_mb=4096 -timeout=10 \
  -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1
