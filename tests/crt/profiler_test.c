/*
 * The per-operator profiler and the default TVMPlatformTimerStart/Stop, on a
 * test platform whose tick counter the test sets: marks split a run between
 * its operators without gaps, ticks accumulate and calls are counted, reset
 * clears, an index beyond the table is dropped and writes nothing but still
 * moves the mark, a DONE before a run starts is ignored, the counter may
 * wrap, and the macros call the profiler when TVM_CRT_PROFILING is on.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/platform.h>

/* As a firmware built for profiling would: before the header. */
#define TVM_CRT_PROFILING 1
#include <tvm/runtime/crt/profiler.h>

#include "crt_config.h"
#include "crt_test.h"

/* The test platform's clock: whatever the test last set. Defining both hooks
 * here keeps the defaults (src/platform_profiler_ticks.c) out of this test. */
static uint32_t now_ticks;
static uint32_t ticks_per_second = 1000;

uint32_t TVMPlatformProfilerTicks(void) {
  return now_ticks;
}
uint32_t TVMPlatformProfilerTicksPerSecond(void) {
  return ticks_per_second;
}

/* A run of one operator from tick begin to tick end. */
static void RunOperator(uint32_t index, uint32_t begin, uint32_t end) {
  now_ticks = begin;
  TVMProfilerRunStart();
  now_ticks = end;
  TVMProfilerOperatorDone(index);
}

static int NoEntryHasRun(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  size_t i;
  for (i = 0; i < TVM_CRT_MAX_PROFILED_OPERATORS; ++i) {
    if (entries[i].calls != 0 || entries[i].total_ticks != 0 || entries[i].last_ticks != 0) {
      return 0;
    }
  }
  return 1;
}

static void test_pairs_accumulate_ticks_and_count_calls(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  TVMProfilerReset();
  RunOperator(3, 100, 130);
  RunOperator(3, 200, 250);
  RunOperator(0, 300, 301);
  CRT_EXPECT_EQ_INT(3, entries[3].operator_index);
  CRT_EXPECT_EQ_INT(2, entries[3].calls);
  CRT_EXPECT_EQ_INT(50, entries[3].last_ticks);
  CRT_EXPECT_EQ_INT(80, entries[3].total_ticks);
  CRT_EXPECT_EQ_INT(1, entries[0].calls);
  CRT_EXPECT_EQ_INT(1, entries[0].total_ticks);
  /* Indices 1 and 2 never ran; the count still covers everything up to 3. */
  CRT_EXPECT_EQ_INT(0, entries[1].calls);
  CRT_EXPECT_EQ_INT(2, entries[2].operator_index);
  CRT_EXPECT_EQ_INT(4, TVMProfilerEntryCount());
  CRT_EXPECT_EQ_INT(0, TVMProfilerDropped());
}

static void test_total_ticks_go_beyond_32_bits(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  int i;
  TVMProfilerReset();
  for (i = 0; i < 3; ++i) RunOperator(1, 0, 0xF0000000u);
  CRT_EXPECT_EQ_INT(3, entries[1].calls);
  CRT_EXPECT(entries[1].total_ticks == 3 * (uint64_t)0xF0000000u);
}

static void test_a_wrapping_tick_counter_still_gives_the_duration(void) {
  TVMProfilerReset();
  RunOperator(2, 0xFFFFFFF0u, 0x10u);
  CRT_EXPECT_EQ_INT(0x20, TVMProfilerEntries()[2].last_ticks);
}

static void test_the_marks_split_a_run_without_gaps(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  TVMProfilerReset();
  now_ticks = 100;
  TVMProfilerRunStart();
  now_ticks = 130;
  TVMProfilerOperatorDone(0);
  now_ticks = 200;
  TVMProfilerOperatorDone(1);
  now_ticks = 210;
  TVMProfilerOperatorDone(0);
  CRT_EXPECT_EQ_INT(2, entries[0].calls);
  CRT_EXPECT_EQ_INT(10, entries[0].last_ticks);
  CRT_EXPECT_EQ_INT(40, entries[0].total_ticks);
  CRT_EXPECT_EQ_INT(70, entries[1].total_ticks);
  /* Everything from the start to the last mark is some operator's. */
  CRT_EXPECT_EQ_INT(210 - 100, entries[0].total_ticks + entries[1].total_ticks);
  /* A new run starts from its own mark, not from the last one. */
  now_ticks = 1000;
  TVMProfilerRunStart();
  now_ticks = 1004;
  TVMProfilerOperatorDone(1);
  CRT_EXPECT_EQ_INT(4, entries[1].last_ticks);
}

static void test_a_done_before_a_run_starts_is_ignored(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  TVMProfilerReset();
  now_ticks = 1000;
  TVMProfilerOperatorDone(5);
  CRT_EXPECT_EQ_INT(0, entries[5].calls);
  CRT_EXPECT_EQ_INT(0, TVMProfilerEntryCount());
  RunOperator(4, 10, 17);
  CRT_EXPECT_EQ_INT(1, entries[4].calls);
  CRT_EXPECT_EQ_INT(7, entries[4].total_ticks);
  CRT_EXPECT_EQ_INT(5, TVMProfilerEntryCount());
  /* Reset ends the run too. */
  TVMProfilerReset();
  TVMProfilerOperatorDone(4);
  CRT_EXPECT_EQ_INT(0, entries[4].calls);
}

static void test_reset_clears_every_entry_and_the_counts(void) {
  TVMProfilerReset();
  RunOperator(7, 1, 9);
  RunOperator(TVM_CRT_MAX_PROFILED_OPERATORS, 1, 9);
  TVMProfilerReset();
  CRT_EXPECT(NoEntryHasRun());
  CRT_EXPECT_EQ_INT(7, TVMProfilerEntries()[7].operator_index);
  CRT_EXPECT_EQ_INT(0, TVMProfilerEntryCount());
  CRT_EXPECT_EQ_INT(0, TVMProfilerDropped());
}

static void test_an_index_beyond_the_table_is_dropped_not_written(void) {
  static TVMProfileEntry before[TVM_CRT_MAX_PROFILED_OPERATORS];
  TVMProfilerReset();
  RunOperator(TVM_CRT_MAX_PROFILED_OPERATORS - 1, 5, 6); /* the last entry still counts */
  memcpy(before, TVMProfilerEntries(), sizeof(before));
  RunOperator(TVM_CRT_MAX_PROFILED_OPERATORS, 10, 20);
  RunOperator(UINT32_MAX, 10, 20);
  CRT_EXPECT_EQ_INT(2, TVMProfilerDropped());
  CRT_EXPECT(memcmp(before, TVMProfilerEntries(), sizeof(before)) == 0);
  CRT_EXPECT_EQ_INT(TVM_CRT_MAX_PROFILED_OPERATORS, TVMProfilerEntryCount());
  CRT_EXPECT_EQ_INT(1, TVMProfilerEntries()[TVM_CRT_MAX_PROFILED_OPERATORS - 1].calls);
}

static void test_a_dropped_operator_still_moves_the_mark(void) {
  TVMProfilerReset();
  now_ticks = 0;
  TVMProfilerRunStart();
  now_ticks = 10;
  TVMProfilerOperatorDone(TVM_CRT_MAX_PROFILED_OPERATORS);
  now_ticks = 15;
  TVMProfilerOperatorDone(1);
  CRT_EXPECT_EQ_INT(5, TVMProfilerEntries()[1].total_ticks);
  CRT_EXPECT_EQ_INT(1, TVMProfilerDropped());
}

static void test_the_macros_call_the_profiler_when_profiling_is_on(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  TVMProfilerReset();
  now_ticks = 40;
  CRT_EXPECT_EQ_INT(40, TVMProfilerRunStart());
  now_ticks = 52;
  TVM_PROFILE_OPERATOR_DONE(6);
  CRT_EXPECT_EQ_INT(1, entries[6].calls);
  CRT_EXPECT_EQ_INT(12, entries[6].total_ticks);
}

static void test_the_default_timer_runs_on_the_profiler_clock(void) {
  double seconds = -1.0;
  now_ticks = 1000;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformTimerStart());
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformTimerBadState, TVMPlatformTimerStart());
  now_ticks = 1500;
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMPlatformTimerStop(NULL));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformTimerStop(&seconds));
  CRT_EXPECT(seconds == 0.5);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformTimerBadState, TVMPlatformTimerStop(&seconds));
  /* Across a wrap of the counter, too. */
  now_ticks = 0xFFFFFF00u;
  TVMPlatformTimerStart();
  now_ticks = 0x100u + 1500u;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformTimerStop(&seconds));
  CRT_EXPECT(seconds > 2.0119 && seconds < 2.0121);
}

int main(void) {
  CRT_RUN(test_pairs_accumulate_ticks_and_count_calls);
  CRT_RUN(test_total_ticks_go_beyond_32_bits);
  CRT_RUN(test_a_wrapping_tick_counter_still_gives_the_duration);
  CRT_RUN(test_the_marks_split_a_run_without_gaps);
  CRT_RUN(test_a_done_before_a_run_starts_is_ignored);
  CRT_RUN(test_reset_clears_every_entry_and_the_counts);
  CRT_RUN(test_an_index_beyond_the_table_is_dropped_not_written);
  CRT_RUN(test_a_dropped_operator_still_moves_the_mark);
  CRT_RUN(test_the_macros_call_the_profiler_when_profiling_is_on);
  CRT_RUN(test_the_default_timer_runs_on_the_profiler_clock);
  return crt_test_exit_code();
}
