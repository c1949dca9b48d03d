#!/usr/bin/env bash
# Installs every Debian package Loupe needs to build, test and deploy.
# Idempotent: when every package is present it only checks and returns.
set -euo pipefail

packages=(
  qt6-base-dev qt6-serialport-dev qt6-charts-dev qt6-svg-dev libqscintilla2-qt6-dev
  libgraphviz-dev graphviz libflatbuffers-dev flatbuffers-compiler nlohmann-json3-dev
  libarchive-dev cmake ninja-build make g++ clang xvfb xauth ccache mold
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm valgrind python3
  openocd stlink-tools dfu-util
  libgl-dev libqt6opengl6-dev fonts-dejavu-core pkg-config
  dpkg-dev lintian help2man desktop-file-utils appstream shared-mime-info
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
# --no-install-recommends: libnewlib-arm-none-eabi would otherwise pull ~1.5 GB.
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
