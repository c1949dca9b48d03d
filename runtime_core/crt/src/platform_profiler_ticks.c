/*
 * The default profiler clock: none. The profiler then still counts calls, with
 * zero ticks. A board links its own TVMPlatformProfilerTicks and
 * TVMPlatformProfilerTicksPerSecond (both: they live in one archive member
 * here) and this file is never pulled in.
 */
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>

uint32_t TVMPlatformProfilerTicks(void) {
  return 0;
}

uint32_t TVMPlatformProfilerTicksPerSecond(void) {
  return 0;
}
