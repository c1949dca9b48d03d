#!/bin/sh
# Configures and builds runtime_core/crt as a CMake project of its own, in a
# fresh directory, the way a firmware project would: for the host, or with
# cmake/arm-none-eabi.cmake for one Arm core. For a core it also checks that
# the objects were really built for it (readelf Tag_CPU_arch) and runs the
# size report (fails on any malloc & co.; prints the sizes).
#
#   check_standalone_build.sh CMAKE GENERATOR CRT_DIR BUILD_DIR host C_COMPILER
#   check_standalone_build.sh CMAKE GENERATOR CRT_DIR BUILD_DIR arm TOOLCHAIN_FILE CPU CPU_ARCH
set -eu

cmake=$1
generator=$2
crt_dir=$3
build_dir=$4
kind=$5
shift 5

rm -rf "$build_dir"
case "$kind" in
  host)
    "$cmake" -S "$crt_dir" -B "$build_dir" -G "$generator" -DCMAKE_C_COMPILER="$1"
    "$cmake" --build "$build_dir" -j2
    for library in libloupe_crt.a libloupe_crt_host_device.a; do
      if [ ! -f "$build_dir/$library" ]; then
        echo "FAIL: the host build made no $library"
        exit 1
      fi
    done
    echo "OK: host build of the standalone runtime"
    ;;
  arm)
    toolchain=$1
    cpu=$2
    cpu_arch=$3
    "$cmake" -S "$crt_dir" -B "$build_dir" -G "$generator" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
      -DCRT_CPU="$cpu"
    "$cmake" --build "$build_dir" -j2
    if [ -f "$build_dir/libloupe_crt_host_device.a" ]; then
      echo "FAIL: the board build made the host-only libloupe_crt_host_device.a"
      exit 1
    fi
    # Every member of the archive must carry the core's architecture.
    archs=$(arm-none-eabi-readelf -A "$build_dir/libloupe_crt.a" |
      awk -F': ' '/Tag_CPU_arch:/ {print $2}' | sort -u)
    if [ "$archs" != "$cpu_arch" ]; then
      echo "FAIL: expected Tag_CPU_arch $cpu_arch for $cpu, the archive has: $archs"
      exit 1
    fi
    echo "OK: libloupe_crt.a is $cpu_arch ($cpu)"
    "$cmake" --build "$build_dir" --target crt_size_report
    ;;
  *)
    echo "check_standalone_build.sh: unknown kind $kind" >&2
    exit 2
    ;;
esac
