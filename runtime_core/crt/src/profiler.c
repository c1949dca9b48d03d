/*
 * The per-operator profiling table behind TVMProfilerRunStart and
 * TVM_PROFILE_OPERATOR_DONE (see profiler.h). Kept out of the core: only
 * firmware built with TVM_CRT_PROFILING references it, and its table costs RAM.
 */
#include <stddef.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>

#include "crt_config.h"

static TVMProfileEntry entries[TVM_CRT_MAX_PROFILED_OPERATORS];
static uint32_t last_mark;
/* 0 until a run starts: a DONE then has no mark to measure from. */
static int marking;
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
  marking = 0;
  entry_count = 0;
  dropped = 0;
}

uint32_t TVMProfilerRunStart(void) {
  last_mark = TVMPlatformProfilerTicks();
  marking = 1;
  return last_mark;
}

void TVMProfilerOperatorDone(uint32_t operator_index) {
  /* First: everything after this read is the next operator's glue. */
  uint32_t now = TVMPlatformProfilerTicks();
  /* Unsigned subtraction: right across one wrap of the counter. */
  uint32_t elapsed = now - last_mark;
  TVMProfileEntry* entry;
  if (!marking) return;
  last_mark = now;
  if (operator_index >= TVM_CRT_MAX_PROFILED_OPERATORS) {
    ++dropped;
    return;
  }
  entry = &entries[operator_index];
  /* Set here too: the table is zero, not reset, until the first TVMProfilerReset. */
  entry->operator_index = operator_index;
  entry->last_ticks = elapsed;
  entry->total_ticks += elapsed;
  ++entry->calls;
  if (operator_index >= entry_count) entry_count = (size_t)operator_index + 1;
}

void TVMProfilerSkip(void) {
  if (marking) last_mark = TVMPlatformProfilerTicks();
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
