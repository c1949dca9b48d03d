/*
 * The C runtime API of the embedded runtime: values, type codes, handles and
 * the calls a host (or the RPC server) uses to find and call functions.
 *
 * This is the subset of TVM's c_runtime_api.h that rfcs/001 needs on a board.
 * Type code numbers follow TVM's ABI so values can cross an RPC link as-is.
 * All functions return 0 on success or a tvm_crt_error_t code, and leave a
 * message for TVMGetLastError on failure.
 */
#ifndef TVM_RUNTIME_C_RUNTIME_API_H_
#define TVM_RUNTIME_C_RUNTIME_API_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TVM_DLL
#define TVM_DLL
#endif

/*! \brief Type code of a TVMValue, numbered as in TVM. */
typedef enum {
  kTVMArgInt = 0,
  kTVMArgUInt = 1,
  kTVMArgFloat = 2,
  kTVMOpaqueHandle = 3,
  kTVMNullptr = 4,
  kTVMDataType = 5,
  kDLDevice = 6,
  kTVMDLTensorHandle = 7,
  kTVMObjectHandle = 8,
  kTVMModuleHandle = 9,
  kTVMPackedFuncHandle = 10,
  kTVMStr = 11,
  kTVMBytes = 12
} TVMArgTypeCode;

/*! \brief One argument or return value; its meaning is given by a type code. */
typedef union {
  int64_t v_int64;
  double v_float64;
  void* v_handle;
  const char* v_str;
} TVMValue;

/*! \brief A function handle: see tvm/runtime/crt/internal/function_handle.h. */
typedef void* TVMFunctionHandle;
/*! \brief A module handle: encodes the module's index in the module table. */
typedef void* TVMModuleHandle;

/*! \brief The message of the last error raised in this runtime ("" if none). */
TVM_DLL const char* TVMGetLastError(void);

/*! \brief Record msg (truncated to TVM_CRT_MAX_ERROR_MESSAGE_BYTES) as the last error. */
TVM_DLL void TVMAPISetLastError(const char* msg);

/*! \brief Find a function in the global registry. */
TVM_DLL int TVMFuncGetGlobal(const char* name, TVMFunctionHandle* out);

/*! \brief Find a function of a module. query_imports is accepted and ignored:
 * modules on a board have no imports. */
TVM_DLL int TVMModGetFunction(TVMModuleHandle mod, const char* func_name, int query_imports,
                              TVMFunctionHandle* out);

/*! \brief Call a function found by TVMFuncGetGlobal or TVMModGetFunction.
 * Returns the function's own non-zero result as kTvmErrorFunctionCallFailed. */
TVM_DLL int TVMFuncCall(TVMFunctionHandle func, TVMValue* arg_values, int* type_codes, int num_args,
                        TVMValue* ret_val, int* ret_type_code);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_C_RUNTIME_API_H_ */
