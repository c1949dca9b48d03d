/*
 * The functions a platform provides to the embedded runtime (TVMPlatform*).
 *
 * What the platform must supply, and what the runtime supplies by default:
 *   TVMPlatformAbort           - platform MUST define it. Called on a failed
 *                                check (TVM_CRT_CHECK); must not return.
 *   TVMPlatformMemoryAllocate/ - default in src/platform_memory.c: a page
 *   TVMPlatformMemoryFree        allocator over the block given to
 *                                TVMPlatformMemoryInit. A platform replaces
 *                                both by defining them in its own object file:
 *                                the archive member with the defaults is then
 *                                never pulled in by the linker.
 *   TVMSystemLibEntryPoint     - supplied by the generated system lib; needed
 *                                only when "runtime.SystemLib" is linked.
 * Logging is a hook set at run time (tvm/runtime/crt/logging.h), off unless set.
 */
#ifndef TVM_RUNTIME_CRT_PLATFORM_H_
#define TVM_RUNTIME_CRT_PLATFORM_H_

#include <stddef.h>
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
 * (page size TVM_CRT_PAGE_BYTES). Only defined by the default implementation. */
tvm_crt_error_t TVMPlatformMemoryInit(void* block, size_t num_bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PLATFORM_H_ */
