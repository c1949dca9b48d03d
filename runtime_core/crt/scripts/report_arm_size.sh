#!/bin/sh
# The board build's report (target crt_size_report of the standalone CMake
# project): fails if any object or probe firmware references
# malloc/free/calloc/realloc, then prints arm-none-eabi-size for the core
# alone, core + registry, core + registry + profiler, the serial framing on
# its own, the session + RPC server on their own, the Ethos-U functional model on its
# own, and the linked AOT-only
# probe firmware without and with TVM_CRT_PROFILING.
#
#   report_arm_size.sh NM SIZE core: OBJ... registry: OBJ... profiler: OBJ... framing: OBJ... \
#                      rpc: OBJ... ethosu: OBJ... \
#                      probe: ELF PROFILED_ELF probe_main: OBJ PROFILED_OBJ
set -eu

nm_tool=$1
size_tool=$2
shift 2

core="" registry="" profiler="" framing="" rpc="" ethosu="" probes="" probe_mains=""
group=""
for arg in "$@"; do
  case "$arg" in
    core: | registry: | profiler: | framing: | rpc: | ethosu: | probe: | probe_main:) group=${arg%:}; continue ;;
  esac
  case "$group" in
    core) core="$core $arg" ;;
    registry) registry="$registry $arg" ;;
    profiler) profiler="$profiler $arg" ;;
    framing) framing="$framing $arg" ;;
    rpc) rpc="$rpc $arg" ;;
    ethosu) ethosu="$ethosu $arg" ;;
    probe) probes="$probes $arg" ;;
    probe_main) probe_mains="$probe_mains $arg" ;;
    *) echo "report_arm_size.sh: $arg comes before any group" >&2; exit 2 ;;
  esac
done

echo "== undefined symbols of the runtime objects (nm -u)"
# shellcheck disable=SC2086
undefined=$("$nm_tool" -u $core $registry $profiler $framing $rpc $ethosu | awk 'NF == 2 {print $2}' | sort -u)
echo "$undefined"
# shellcheck disable=SC2086
linked=$("$nm_tool" -u $probes | awk 'NF == 2 {print $2}' | sort -u)
forbidden=$(printf '%s\n%s\n' "$undefined" "$linked" | grep -E '^(malloc|free|calloc|realloc)$' ||
  true)
if [ -n "$forbidden" ]; then
  echo "FAIL: the runtime references: $forbidden"
  exit 1
fi
# A linked probe reaching malloc would show it as a defined symbol instead.
# shellcheck disable=SC2086
if "$nm_tool" $probes | awk '{print $NF}' | grep -qE '^(malloc|_malloc_r|calloc|realloc)$'; then
  echo "FAIL: a probe firmware links malloc"
  exit 1
fi
echo "OK: no malloc/free/calloc/realloc"

# One line "text data bss" per set, then the objects one by one.
total() {
  # shellcheck disable=SC2086
  "$size_tool" -t $2 | awk -v name="$1" 'END {printf "%-40s %7s %7s %7s\n", name, $1, $2, $3}'
}
echo "== size (arm-none-eabi-size, bytes)"
printf '%-40s %7s %7s %7s\n' "" text data bss
total "core" "$core"
total "core + registry" "$core $registry"
total "core + registry + profiler" "$core $registry $profiler"
total "framing (on its own)" "$framing"
total "session + rpc server (on their own)" "$rpc"
total "Ethos-U functional model (on its own)" "$ethosu"
# probe: and probe_main: list each probe firmware and its own object in the same order.
# shellcheck disable=SC2086
set -- $probe_mains
for elf in $probes; do
  total "$(basename "$elf" .elf) (linked)" "$elf"
  total "  of which its own main + model stub" "$1"
  shift
done
echo "== size per object"
# shellcheck disable=SC2086
"$size_tool" $core $registry $profiler $framing $rpc $ethosu
