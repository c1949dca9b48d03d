#!/usr/bin/env bash
# Installs what Loupe needs, builds it (release preset) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release
cmake --build --preset release -j2
ctest --preset release -j2
