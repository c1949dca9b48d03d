/*
 * Modules of the embedded runtime (rfcs/001).
 *
 * A CRT module is a struct whose first member is a TVMModule; the runtime only
 * reads its registry. Registering a module puts its pointer in a fixed table
 * (TVM_CRT_MAX_REGISTERED_MODULES entries) and its index there becomes its id,
 * carried in module and function handles. Module functions are called with the
 * module's own TVMModule* as resource_handle.
 */
#ifndef TVM_RUNTIME_CRT_MODULE_H_
#define TVM_RUNTIME_CRT_MODULE_H_

#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TVMModule {
  /*! \brief The functions of this module, usually const and in flash. */
  const TVMFuncRegistry* registry;
} TVMModule;

/*! \brief Register mod in the module table and return its handle. */
int _TVMModCreateFromCModule(const TVMModule* mod, TVMModuleHandle* out_handle);

/*! \brief Entry point of the system lib, supplied by generated code: returns
 * its TVMModule. Called by the first "runtime.SystemLib" call. */
const TVMModule* TVMSystemLibEntryPoint(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_MODULE_H_ */
