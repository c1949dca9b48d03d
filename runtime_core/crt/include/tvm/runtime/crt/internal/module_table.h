/*
 * The table of registered modules, shared by TVMModGetFunction and TVMFuncCall.
 * Internal: applications register modules through _TVMModCreateFromCModule.
 */
#ifndef TVM_RUNTIME_CRT_INTERNAL_MODULE_TABLE_H_
#define TVM_RUNTIME_CRT_INTERNAL_MODULE_TABLE_H_

#include <tvm/runtime/crt/internal/function_handle.h>
#include <tvm/runtime/crt/module.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Forget every registered module (TVMInitializeRuntime). */
void TVMModuleTable_Reset(void);

/*! \brief The module with this index, or NULL if none is registered there. */
const TVMModule* TVMModuleTable_Get(tvm_module_index_t index);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_INTERNAL_MODULE_TABLE_H_ */
