/*
 * Checks and the logging hook of the embedded runtime.
 *
 * TVM_CRT_CHECK(cond, code) calls TVMPlatformAbort(code) when cond is false;
 * it guards invariants whose violation means memory is already corrupt (e.g.
 * freeing a pointer the allocator never gave out), not ordinary errors, which
 * are returned as codes. Before aborting it reports file and line through the
 * log hook, if one is set. The hook costs one pointer of RAM; messages are
 * constant strings, so no printf is linked.
 */
#ifndef TVM_RUNTIME_CRT_LOGGING_H_
#define TVM_RUNTIME_CRT_LOGGING_H_

#include <tvm/runtime/crt/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Receives log messages: where they were raised and what they say. */
typedef void (*TVMLogHook)(const char* file, int line, const char* message);

/*! \brief Install (or, with NULL, remove) the log hook. */
void TVMSetLogHook(TVMLogHook hook);

/*! \brief Send one message to the hook, if any. */
void TVMLogMessage(const char* file, int line, const char* message);

/*! \brief Log the failed check, then TVMPlatformAbort(code). */
TVM_CRT_NORETURN void TVMCheckFailed(const char* file, int line, const char* condition,
                                     tvm_crt_error_t code);

#define TVM_CRT_CHECK(cond, code)                                   \
  do {                                                              \
    if (!(cond)) TVMCheckFailed(__FILE__, __LINE__, #cond, (code)); \
  } while (0)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_LOGGING_H_ */
