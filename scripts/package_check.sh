#!/usr/bin/env bash
# The package check: makes the .deb from a built tree (CPack), checks it with
# lintian, unpacks it into a temporary root (dpkg -x: nothing is installed on
# the system) and runs the installed loupec and loupe from there with the
# source and build trees out of the way (scripts/package_installed_check.sh).
#
# usage: scripts/package_check.sh [BUILD_DIR]   (default: build/release, built)
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:-$source_dir/build/release}" && pwd)
start=$SECONDS
work=$(mktemp -d /tmp/loupe-package-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "package: cpack"
cpack --config "$build_dir/CPackConfig.cmake" -B "$work/cpack" > "$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
debs=("$work"/cpack/loupe_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || { echo "package: cpack wrote no loupe_*.deb"; cat "$work/cpack.log"; exit 1; }
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

# The control fields: the libraries from dpkg-shlibdeps, the platforms' tools
# as Recommends.
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
for library in libqt6widgets6 libqt6charts6 libqt6serialport6 libqscintilla2-qt6 libgvc6 \
    libcgraph6 libarchive13; do
  [[ $depends == *"$library"* ]] || { echo "package: Depends lacks $library: $depends"; exit 1; }
done
for tool in gcc-arm-none-eabi binutils-arm-none-eabi qemu-system-arm make; do
  [[ $recommends == *"$tool"* ]] || { echo "package: Recommends lacks $tool"; exit 1; }
done

echo "package: lintian"
# --fail-on error: warnings are reported, errors fail the check.
lintian --fail-on error --tag-display-limit 0 "$deb"

dpkg -x "$deb" "$work/root"
# The data the installed binaries get, copied so that nothing is read from
# the source tree: a shared model with its golden output, and a board's
# folder to add as a user's board.
mkdir -p "$work/data"
golden=$source_dir/tests/data/models/hello_world_int8/golden/real1
cp "$source_dir/tests/data/models/hello_world_int8/model.tflite" "$work/data/"
cp "$golden/input0.bin" "$golden/output0.bin" "$work/data/"
cp -r "$source_dir/plugins/platforms/qemu_mps2_an385" "$work/data/board"
cp "$source_dir/scripts/package_installed_check.sh" "$work/"

check=(bash "$work/package_installed_check.sh" "$work" "$source_dir" "$build_dir"
       "$(dpkg-deb -f "$deb" Version)")
cd /
if unshare --mount --propagation private true 2> /dev/null; then
  # An empty read-only tmpfs over each tree, the build tree first (it may be
  # inside the source tree), seen only by the check's processes: nothing on
  # disk moves, and nothing is left behind if the check is killed.
  echo "package: source and build trees hidden (mount namespace)"
  unshare --mount --propagation private bash -c \
    'mount -t tmpfs -o ro,size=4k none "$1" && mount -t tmpfs -o ro,size=4k none "$2" &&
     shift 2 && exec "$@"' hide "$build_dir" "$source_dir" "${check[@]}" hidden
else
  # Without the privilege for a mount namespace, move the build tree away;
  # the source tree holds this script, so it stays, and the check's grep for
  # its path in the installed files shows nothing refers to it.
  echo "package: build tree moved to $build_dir.package-check (no mount namespace)"
  mv "$build_dir" "$build_dir.package-check"
  trap 'mv "$build_dir.package-check" "$build_dir"; rm -rf "$work"' EXIT
  "${check[@]}" moved
fi
echo "package: passed in $((SECONDS - start)) s"
