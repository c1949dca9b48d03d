/*
 * The default TVMPlatformTimerStart/Stop (TVM's names), built on the profiler
 * clock so that a board supplying TVMPlatformProfilerTicks gets both. Integer
 * ticks until Stop, which converts once to seconds. A board with a better timer
 * defines both functions and never links this file.
 */
#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>

static uint32_t timer_start_ticks;
static int timer_running;

tvm_crt_error_t TVMPlatformTimerStart(void) {
  if (timer_running) return kTvmErrorPlatformTimerBadState;
  if (TVMPlatformProfilerTicksPerSecond() == 0) return kTvmErrorPlatformTimerUnavailable;
  timer_running = 1;
  timer_start_ticks = TVMPlatformProfilerTicks();
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMPlatformTimerStop(double* elapsed_time_seconds) {
  uint32_t now = TVMPlatformProfilerTicks();
  if (elapsed_time_seconds == NULL) return kTvmErrorInvalidArgument;
  if (!timer_running) return kTvmErrorPlatformTimerBadState;
  timer_running = 0;
  *elapsed_time_seconds =
      (double)(uint32_t)(now - timer_start_ticks) / (double)TVMPlatformProfilerTicksPerSecond();
  return kTvmErrorNoError;
}
