/*
 * The module table and the module half of the handle API: registering a
 * module, and TVMModGetFunction, which turns a name into a handle carrying
 * the module index and the function index.
 */
#include <stddef.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/internal/module_table.h>

#include "crt_config.h"

#if TVM_CRT_MAX_REGISTERED_MODULES > TVM_CRT_HANDLE_MAX_INDEX + 1
#error "TVM_CRT_MAX_REGISTERED_MODULES exceeds what a module handle can encode"
#endif

static const TVMModule* registered_modules[TVM_CRT_MAX_REGISTERED_MODULES];

void TVMModuleTable_Reset(void) {
  size_t i;
  for (i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; ++i) registered_modules[i] = NULL;
}

const TVMModule* TVMModuleTable_Get(tvm_module_index_t index) {
  if (index >= TVM_CRT_MAX_REGISTERED_MODULES) return NULL;
  return registered_modules[index];
}

int _TVMModCreateFromCModule(const TVMModule* mod, TVMModuleHandle* out_handle) {
  tvm_module_index_t i;
  if (mod == NULL || mod->registry == NULL || out_handle == NULL) {
    TVMAPISetLastError("module: NULL module or registry");
    return kTvmErrorInvalidArgument;
  }
  for (i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; ++i) {
    if (registered_modules[i] == NULL) {
      registered_modules[i] = mod;
      *out_handle = TVMEncodeModuleHandle(i);
      return kTvmErrorNoError;
    }
  }
  TVMAPISetLastError("module: table full (TVM_CRT_MAX_REGISTERED_MODULES)");
  return kTvmErrorModuleTableFull;
}

int TVMModGetFunction(TVMModuleHandle mod, const char* func_name, int query_imports,
                      TVMFunctionHandle* out) {
  tvm_module_index_t module_index;
  tvm_function_index_t function_index;
  const TVMModule* module;
  (void)query_imports;
  if (!TVMDecodeModuleHandle(mod, &module_index) ||
      (module = TVMModuleTable_Get(module_index)) == NULL) {
    TVMAPISetLastError("TVMModGetFunction: invalid module handle");
    return kTvmErrorModuleHandleInvalid;
  }
  if (func_name == NULL ||
      TVMFuncRegistry_Lookup(module->registry, func_name, &function_index) != kTvmErrorNoError) {
    TVMAPISetLastError("TVMModGetFunction: no such function in module");
    return kTvmErrorFunctionNameNotFound;
  }
  *out = TVMEncodeModuleFunctionHandle(module_index, function_index);
  return kTvmErrorNoError;
}
