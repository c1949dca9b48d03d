#!/usr/bin/env bash
# Installs what Loupe needs, builds it (release preset), runs every test and
# checks the Debian package made from the build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release
cmake --build --preset release -j2
ctest --preset release -j2
./scripts/package_check.sh build/release
