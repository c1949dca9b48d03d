#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (preset `fuzz`) and runs one.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET]
#   TARGET: tflite_importer (default), reference_interpreter, framing_decoder,
#           session_rpc (the host session reading replies), rpc_server (the board side)
#           or ethosu_payload (the Ethos-U functional model: payload, decoder, executor)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
target=${2:-tflite_importer}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target "${target}_fuzzer"
corpus=build/fuzz/corpus/$target
mkdir -p "$corpus" build/fuzz/artifacts
max_len=400000
if [ "$target" = framing_decoder ]; then
  # First byte: receive buffer size; then valid frames (empty, escapes, 16
  # bytes) next to each other and after garbage, so the CRCs need not be found.
  printf '\x20\x7e\x00\x00\x0f\x1d' >"$corpus/empty_frame"
  printf '\x08\x13\x7d\x7e\x04\x00\x7d\x5e\x7d\x5d\x68\x69\xcb\x0d' >"$corpus/escapes"
  printf '\x10\x7e\x10\x00\x70\x71\x72\x73\x74\x75\x76\x77\x78\x79\x7a\x7b\x7c\x7d\x5d\x7d\x5e\x7f\xff\x2c\x7e\x00\x00\x0f\x1d' \
    >"$corpus/sixteen_then_empty"
  max_len=4096
elif [ "$target" = ethosu_payload ]; then
  # Seeds: each Vela file's driver payload with and without its flash data,
  # extracted now (no binary corpus is committed).
  cmake --build --preset fuzz -j2 --target ethosu_fuzz_seeds
  build/fuzz/fuzz/ethosu_fuzz_seeds "$corpus" $(find tests/data/models/vela -name '*.tflite' | sort)
else
  # Seed with every model the project ships (copied, so the fuzzer may add to it).
  find tests/data/models -name '*.tflite' -exec cp -n {} "$corpus/" \;
fi
"build/fuzz/fuzz/${target}_fuzzer" "$corpus" \
  -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=4096 -timeout=10 \
  -artifact_prefix="build/fuzz/artifacts/$target-" -print_final_stats=1
