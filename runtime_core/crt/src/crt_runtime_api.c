/*
 * The global function namespace and TVMFuncCall: TVMInitializeRuntime,
 * TVMFuncGetGlobal, TVMFuncRegisterGlobal and the built-in "runtime.SystemLib".
 *
 * The global registry is a TVMMutableFuncRegistry over a static block of
 * TVM_CRT_GLOBAL_FUNC_REGISTRY_BYTES, so the namespace needs no allocator and
 * its RAM cost shows in .bss at link time.
 */
#include <stddef.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/internal/module_table.h>

#include "crt_config.h"

/* A union keeps the block aligned for the function table at its start. */
static union {
  TVMBackendPackedCFunc align_as_function;
  uint8_t bytes[TVM_CRT_GLOBAL_FUNC_REGISTRY_BYTES];
} global_registry_block;
static TVMMutableFuncRegistry global_registry;
static int runtime_initialized;
static int system_lib_created;
static TVMModuleHandle system_lib_handle;

static int SystemLib(TVMValue* args, int* type_codes, int num_args, TVMValue* out_ret_value,
                     int* out_ret_tcode, void* resource_handle) {
  (void)args;
  (void)type_codes;
  (void)num_args;
  (void)resource_handle;
  if (!system_lib_created) {
    int err = _TVMModCreateFromCModule(TVMSystemLibEntryPoint(), &system_lib_handle);
    if (err != kTvmErrorNoError) return err;
    system_lib_created = 1;
  }
  out_ret_value->v_handle = system_lib_handle;
  *out_ret_tcode = kTVMModuleHandle;
  return kTvmErrorNoError;
}

int TVMInitializeRuntime(void) {
  tvm_crt_error_t err;
  runtime_initialized = 0;
  system_lib_created = 0;
  system_lib_handle = NULL;
  TVMModuleTable_Reset();
  TVMAPISetLastError("");
  err = TVMMutableFuncRegistry_Create(&global_registry, global_registry_block.bytes,
                                      sizeof(global_registry_block.bytes));
  if (err == kTvmErrorNoError) {
    err = TVMMutableFuncRegistry_Set(&global_registry, "runtime.SystemLib", &SystemLib, 0);
  }
  if (err != kTvmErrorNoError) {
    TVMAPISetLastError("TVMInitializeRuntime: global registry block too small");
    return err;
  }
  runtime_initialized = 1;
  return kTvmErrorNoError;
}

int TVMFuncGetGlobal(const char* name, TVMFunctionHandle* out) {
  tvm_function_index_t index;
  if (!runtime_initialized) {
    TVMAPISetLastError("TVMFuncGetGlobal: runtime not initialized");
    return kTvmErrorRuntimeNotInitialized;
  }
  if (name == NULL ||
      TVMFuncRegistry_Lookup(&global_registry.registry, name, &index) != kTvmErrorNoError) {
    TVMAPISetLastError("TVMFuncGetGlobal: no such global function");
    return kTvmErrorFunctionNameNotFound;
  }
  *out = TVMEncodeGlobalFunctionHandle(index);
  return kTvmErrorNoError;
}

int TVMFuncRegisterGlobal(const char* name, TVMBackendPackedCFunc f, int override) {
  tvm_crt_error_t err;
  if (!runtime_initialized) {
    TVMAPISetLastError("TVMFuncRegisterGlobal: runtime not initialized");
    return kTvmErrorRuntimeNotInitialized;
  }
  if (f == NULL) {
    TVMAPISetLastError("TVMFuncRegisterGlobal: NULL function");
    return kTvmErrorInvalidArgument;
  }
  err = TVMMutableFuncRegistry_Set(&global_registry, name, f, override);
  if (err != kTvmErrorNoError) TVMAPISetLastError("TVMFuncRegisterGlobal: cannot register");
  return err;
}

/* Resolve a handle to the function and the resource_handle to call it with. */
static int ResolveFunctionHandle(TVMFunctionHandle handle, TVMBackendPackedCFunc* out_func,
                                 void** out_resource_handle) {
  int is_module;
  tvm_module_index_t module_index;
  uint16_t function_index;
  const TVMFuncRegistry* registry;
  if (!TVMDecodeFunctionHandle(handle, &is_module, &module_index, &function_index)) {
    return kTvmErrorFunctionHandleInvalid;
  }
  if (is_module) {
    const TVMModule* module = TVMModuleTable_Get(module_index);
    if (module == NULL) return kTvmErrorFunctionHandleInvalid;
    registry = module->registry;
    /* rfcs/001 O2: a module function receives its own module. */
    *out_resource_handle = (void*)module;
  } else {
    registry = &global_registry.registry;
    *out_resource_handle = NULL;
  }
  if (TVMFuncRegistry_GetByIndex(registry, function_index, out_func) != kTvmErrorNoError) {
    return kTvmErrorFunctionHandleInvalid;
  }
  return kTvmErrorNoError;
}

int TVMFuncCall(TVMFunctionHandle func, TVMValue* arg_values, int* type_codes, int num_args,
                TVMValue* ret_val, int* ret_type_code) {
  TVMBackendPackedCFunc function;
  void* resource_handle;
  int err;
  if (!runtime_initialized) {
    TVMAPISetLastError("TVMFuncCall: runtime not initialized");
    return kTvmErrorRuntimeNotInitialized;
  }
  if (num_args < 0 || num_args > TVM_CRT_MAX_ARGS) {
    TVMAPISetLastError("TVMFuncCall: too many arguments (TVM_CRT_MAX_ARGS)");
    return kTvmErrorFunctionCallNumArgs;
  }
  err = ResolveFunctionHandle(func, &function, &resource_handle);
  if (err != kTvmErrorNoError) {
    TVMAPISetLastError("TVMFuncCall: invalid function handle");
    return err;
  }
  *ret_type_code = kTVMNullptr;
  if (function(arg_values, type_codes, num_args, ret_val, ret_type_code, resource_handle) != 0) {
    /* The function has set its own message; keep it. */
    return kTvmErrorFunctionCallFailed;
  }
  return kTvmErrorNoError;
}
