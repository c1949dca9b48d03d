/*
 * Life cycle of the embedded runtime (rfcs/001): no global initialisers, one
 * explicit call the application makes once its memory and clocks are set up.
 */
#ifndef TVM_RUNTIME_CRT_CRT_H_
#define TVM_RUNTIME_CRT_CRT_H_

#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief Initialise the runtime: empty module table, fresh global registry
 * holding "runtime.SystemLib". Call before any other runtime function; calling
 * it again resets the runtime. Returns 0 or a tvm_crt_error_t.
 */
int TVMInitializeRuntime(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_CRT_H_ */
