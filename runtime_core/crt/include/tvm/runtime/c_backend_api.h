/*
 * The backend API: what generated code (operators, the AOT entry, the system
 * lib) is written against.
 *
 * TVMBackendPackedCFunc has the sixth resource_handle argument of rfcs/001
 * (options A4 + O2): when the runtime calls a module function it passes that
 * module's own TVMModule*; for a global function it passes NULL. The AOT code
 * passes the operator's device instead (rfcs/000).
 */
#ifndef TVM_RUNTIME_C_BACKEND_API_H_
#define TVM_RUNTIME_C_BACKEND_API_H_

#include <tvm/runtime/c_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*!
 * \brief Signature of every function the runtime can call.
 * \return 0 on success; non-zero on failure, after TVMAPISetLastError.
 */
typedef int (*TVMBackendPackedCFunc)(TVMValue* args, int* type_codes, int num_args,
                                     TVMValue* out_ret_value, int* out_ret_tcode,
                                     void* resource_handle);

/*! \brief Add (or, when override is non-zero, replace) a global function; it is
 * called with resource_handle == NULL. Takes the function pointer itself, not
 * a TVMFunctionHandle: ISO C has no conversion between function and object
 * pointers. */
TVM_DLL int TVMFuncRegisterGlobal(const char* name, TVMBackendPackedCFunc f, int override);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_C_BACKEND_API_H_ */
