/*
 * The profiler with the runtime's default platform hooks (no clock: the test
 * defines neither TVMPlatformProfilerTicks nor TVMPlatformTimerStart): calls
 * are still counted with zero ticks, and the default timer says it has no
 * clock instead of dividing by zero. Compiled without TVM_CRT_PROFILING, so
 * the macros must do nothing, not even evaluate their argument.
 */
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>

#include "crt_test.h"

static void test_the_default_clock_has_no_ticks(void) {
  CRT_EXPECT_EQ_INT(0, TVMPlatformProfilerTicks());
  CRT_EXPECT_EQ_INT(0, TVMPlatformProfilerTicksPerSecond());
}

static void test_calls_are_counted_without_a_clock(void) {
  const TVMProfileEntry* entries = TVMProfilerEntries();
  TVMProfilerReset();
  TVMProfilerRunStart();
  TVMProfilerOperatorDone(2);
  CRT_EXPECT_EQ_INT(1, entries[2].calls);
  CRT_EXPECT_EQ_INT(0, entries[2].total_ticks);
  CRT_EXPECT_EQ_INT(3, TVMProfilerEntryCount());
}

static void test_the_default_timer_reports_no_clock(void) {
  double seconds = -1.0;
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformTimerUnavailable, TVMPlatformTimerStart());
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformTimerBadState, TVMPlatformTimerStop(&seconds));
  CRT_EXPECT(seconds == -1.0);
}

static void test_the_macros_are_compiled_out_without_profiling(void) {
  uint32_t evaluated = 0;
  TVMProfilerReset();
  TVMProfilerRunStart();
  TVM_PROFILE_OPERATOR_DONE(evaluated++);
  CRT_EXPECT_EQ_INT(0, evaluated);
  CRT_EXPECT_EQ_INT(0, TVMProfilerEntryCount());
  CRT_EXPECT_EQ_INT(0, TVMProfilerEntries()[0].calls);
}

int main(void) {
  CRT_RUN(test_the_default_clock_has_no_ticks);
  CRT_RUN(test_calls_are_counted_without_a_clock);
  CRT_RUN(test_the_default_timer_reports_no_clock);
  CRT_RUN(test_the_macros_are_compiled_out_without_profiling);
  return crt_test_exit_code();
}
