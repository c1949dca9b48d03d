/*
 * The functions a platform provides to the embedded runtime (TVMPlatform*).
 *
 * What the platform must supply, and what the runtime supplies by default:
 *   TVMPlatformAbort           - default in src/platform_abort.c: spins
 *                                forever. Called on a failed check
 *                                (TVM_CRT_CHECK); must not return. A board
 *                                defines its own to report the failure.
 *   TVMPlatformMemoryAllocate/ - default in src/platform_memory.c: a page
 *   TVMPlatformMemoryFree        allocator (or, with TVM_CRT_PLATFORM_STACK_-
 *                                ALLOCATOR, a stack allocator) over the block
 *                                given to TVMPlatformMemoryInit. A platform
 *                                replaces both by defining them in its own
 *                                object file: the archive member with the
 *                                defaults is then never pulled in by the linker.
 *   TVMPlatformProfilerTicks/  - default in src/platform_profiler_ticks.c: no
 *   TVMPlatformProfilerTicks-    clock (0 ticks, 0 ticks per second), so the
 *   PerSecond                    profiler counts calls but not time. A board
 *                                replaces both together, the same way (e.g.
 *                                with DWT->CYCCNT and the core clock).
 *   TVMPlatformTimerStart/     - default in src/platform_timer.c, built on the
 *   TVMPlatformTimerStop         profiler ticks; replaced both together too.
 *   TVMSystemLibEntryPoint     - supplied by the generated system lib; needed
 *                                only when "runtime.SystemLib" is linked.
 * Each default lives in its own source file, hence its own archive member, so
 * replacing one pair never clashes with the defaults of another.
 * Logging is a hook set at run time (tvm/runtime/crt/logging.h), off unless set.
 */
#ifndef TVM_RUNTIME_CRT_PLATFORM_H_
#define TVM_RUNTIME_CRT_PLATFORM_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TVM_CRT_NORETURN __attribute__((noreturn))
#else
#define TVM_CRT_NORETURN
#endif

/*! \brief Called when a check fails; never returns (halt, reset, or longjmp in tests). */
TVM_CRT_NORETURN void TVMPlatformAbort(tvm_crt_error_t error_code);

/*! \brief Allocate num_bytes of RAM for the runtime; never calls malloc on a board. */
tvm_crt_error_t TVMPlatformMemoryAllocate(size_t num_bytes, void** out_ptr);

/*! \brief Return memory obtained from TVMPlatformMemoryAllocate. */
tvm_crt_error_t TVMPlatformMemoryFree(void* ptr);

/*! \brief Give the default TVMPlatformMemoryAllocate/Free a block to manage
 * (page size TVM_CRT_PAGE_BYTES, or as a stack if TVM_CRT_PLATFORM_STACK_ALLOCATOR).
 * Only defined by the default implementation. */
tvm_crt_error_t TVMPlatformMemoryInit(void* block, size_t num_bytes);

/*! \brief Start the platform timer (TVM's name; used to time whole runs).
 * kTvmErrorPlatformTimerBadState if already started. */
tvm_crt_error_t TVMPlatformTimerStart(void);

/*! \brief Stop the timer and give the seconds since TVMPlatformTimerStart.
 * kTvmErrorPlatformTimerBadState if it was not started. */
tvm_crt_error_t TVMPlatformTimerStop(double* elapsed_time_seconds);

/*! \brief A monotonic tick counter for the profiler; wraps modulo 2^32, so
 * one operator must take fewer than 2^32 ticks. Integer only: cheap to call
 * around every operator, no floating point on cores without an FPU. */
uint32_t TVMPlatformProfilerTicks(void);

/*! \brief The rate of TVMPlatformProfilerTicks; 0 means the platform has no clock. */
uint32_t TVMPlatformProfilerTicksPerSecond(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PLATFORM_H_ */
