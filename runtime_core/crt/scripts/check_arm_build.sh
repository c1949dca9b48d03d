#!/bin/sh
# Builds the embedded C runtime for Cortex-M3 with arm-none-eabi-gcc, fails if
# any object references malloc/free/calloc/realloc, and prints the size of the
# objects: the core alone, and core plus the function-registry part.
#
#   check_arm_build.sh CRT_DIR OUT_DIR core: SRC... registry: SRC...
# Sources are relative to CRT_DIR. Prints "SKIPPED" and exits 77 only when
# arm-none-eabi-gcc is not installed.
set -eu

crt_dir=$1
out_dir=$2
shift 2

CC=${ARM_CC:-arm-none-eabi-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "SKIPPED: $CC not found; the cortex-m3 check needs the GNU Arm toolchain"
  exit 77
fi
NM=arm-none-eabi-nm
SIZE=arm-none-eabi-size

mkdir -p "$out_dir"
rm -f "$out_dir"/*.o

core_objs=""
registry_objs=""
group=""
for arg in "$@"; do
  case "$arg" in
    core:) group=core; continue ;;
    registry:) group=registry; continue ;;
  esac
  obj="$out_dir/$(basename "$arg" .c).o"
  "$CC" -mcpu=cortex-m3 -mthumb -Os -std=c99 -Wall -Wextra -Werror -pedantic \
    -ffunction-sections -fdata-sections \
    -I"$crt_dir/include" -I"$crt_dir/config" -c "$crt_dir/$arg" -o "$obj"
  if [ "$group" = core ]; then core_objs="$core_objs $obj"; else registry_objs="$registry_objs $obj"; fi
done

echo "== undefined symbols (arm-none-eabi-nm -u)"
# shellcheck disable=SC2086
undefined=$("$NM" -u $core_objs $registry_objs | awk 'NF == 2 {print $2}' | sort -u)
echo "$undefined"
forbidden=$(echo "$undefined" | grep -E '^(malloc|free|calloc|realloc)$' || true)
if [ -n "$forbidden" ]; then
  echo "FAIL: the runtime references: $forbidden"
  exit 1
fi
echo "OK: no malloc/free/calloc/realloc"

echo "== size, core (without the registry)"
# shellcheck disable=SC2086
"$SIZE" -t $core_objs
echo "== size, core + registry"
# shellcheck disable=SC2086
"$SIZE" -t $core_objs $registry_objs

# What an AOT-only firmware links: the probe's calls, --gc-sections, no libc
# start-up (newlib only for memset/strlen, which gcc emits for byte loops).
# The probe's own main and model stub are listed separately.
probe="$crt_dir/scripts/aot_firmware_probe.c"
if [ -f "$probe" ]; then
  "$CC" -mcpu=cortex-m3 -mthumb -Os -std=c99 -Wall -Wextra -Werror -pedantic \
    -ffunction-sections -fdata-sections -I"$crt_dir/include" -I"$crt_dir/config" \
    -c "$probe" -o "$out_dir/aot_firmware_probe.o"
  # shellcheck disable=SC2086
  "$CC" -mcpu=cortex-m3 -mthumb -nostartfiles -nostdlib -Wl,--gc-sections -Wl,-e,main \
    -Wl,-Map,"$out_dir/aot_firmware_probe.map" \
    "$out_dir/aot_firmware_probe.o" $core_objs -lc -lgcc -o "$out_dir/aot_firmware_probe.elf"
  echo "== size, AOT-only firmware probe (--gc-sections; includes the probe's main + stub)"
  "$SIZE" "$out_dir/aot_firmware_probe.elf"
  echo "== of which the probe itself"
  "$SIZE" "$out_dir/aot_firmware_probe.o"
  echo "== undefined in the linked probe"
  "$NM" -u "$out_dir/aot_firmware_probe.elf" || true
fi
