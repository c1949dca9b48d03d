/*
 * The per-operator profiling table behind TVM_PROFILE_OPERATOR_BEGIN/END
 * (see profiler.h). Kept out of the core: only firmware built with
 * TVM_CRT_PROFILING references it, and its table costs RAM.
 */
#include <stddef.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>

#include "crt_config.h"

#define OPEN_WORDS ((TVM_CRT_MAX_PROFILED_OPERATORS + 31) / 32)

static TVMProfileEntry entries[TVM_CRT_MAX_PROFILED_OPERATORS];
/* One bit per operator between BEGIN and END: an unmatched END must not turn
 * a duration into a bogus start tick. 32 bytes instead of a start tick each. */
static uint32_t open_operators[OPEN_WORDS];
static size_t entry_count;
static uint32_t dropped;

void TVMProfilerReset(void) {
  size_t i;
  for (i = 0; i < TVM_CRT_MAX_PROFILED_OPERATORS; ++i) {
    entries[i].operator_index = (uint32_t)i;
    entries[i].calls = 0;
    entries[i].last_ticks = 0;
    entries[i].total_ticks = 0;
  }
  for (i = 0; i < OPEN_WORDS; ++i) open_operators[i] = 0;
  entry_count = 0;
  dropped = 0;
}

void TVMProfilerOperatorBegin(uint32_t operator_index) {
  TVMProfileEntry* entry;
  if (operator_index >= TVM_CRT_MAX_PROFILED_OPERATORS) {
    ++dropped;
    return;
  }
  entry = &entries[operator_index];
  /* Set here too: the table is zero, not reset, until the first TVMProfilerReset. */
  entry->operator_index = operator_index;
  open_operators[operator_index / 32] |= (uint32_t)1 << (operator_index % 32);
  if (operator_index >= entry_count) entry_count = (size_t)operator_index + 1;
  /* Last, so the bookkeeping above is not charged to the operator. */
  entry->last_ticks = TVMPlatformProfilerTicks();
}

void TVMProfilerOperatorEnd(uint32_t operator_index) {
  uint32_t now = TVMPlatformProfilerTicks();
  uint32_t bit;
  uint32_t elapsed;
  TVMProfileEntry* entry;
  if (operator_index >= TVM_CRT_MAX_PROFILED_OPERATORS) return;
  bit = (uint32_t)1 << (operator_index % 32);
  if ((open_operators[operator_index / 32] & bit) == 0) return;
  open_operators[operator_index / 32] &= ~bit;
  entry = &entries[operator_index];
  /* Unsigned subtraction: right across one wrap of the counter. */
  elapsed = now - entry->last_ticks;
  entry->last_ticks = elapsed;
  entry->total_ticks += elapsed;
  ++entry->calls;
}

size_t TVMProfilerEntryCount(void) {
  return entry_count;
}

const TVMProfileEntry* TVMProfilerEntries(void) {
  return entries;
}

uint32_t TVMProfilerDropped(void) {
  return dropped;
}
