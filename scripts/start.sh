#!/usr/bin/env bash
# Builds Loupe (release: the two programs and what they link, not the tests)
# and starts the desktop app on the bundled model.
# Without a display it says so and shows the headless equivalent instead:
# `loupec info` on the bundled model and an offscreen screenshot of the window.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

echo "==> installing build dependencies (scripts/setup.sh)"
scripts/setup.sh

echo "==> configuring and building loupe and loupec (release preset)"
cmake --preset release
cmake --build --preset release -j2 --target loupe loupec

build="$root/build/release"
loupe="$build/app/gui/loupe"
loupec="$build/app/loupec"
model="$root/resources/kws_ref_model.tflite"

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  echo "==> starting $loupe (bundled model: kws_ref_model)"
  exec "$loupe" "$@"
fi

echo
echo "==> no display: neither DISPLAY nor WAYLAND_DISPLAY is set, so the desktop app"
echo "    cannot open a window. Showing the headless equivalent instead."
echo
echo "==> loupec info $model"
"$loupec" info "$model"
echo
screenshot="$build/loupe-screenshot.png"
echo "==> rendering the loupe window offscreen"
QT_QPA_PLATFORM=offscreen "$loupe" --screenshot "$screenshot" "$model"
echo "==> screenshot of the window: $screenshot"
