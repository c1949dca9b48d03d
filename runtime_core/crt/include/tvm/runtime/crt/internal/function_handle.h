/*
 * Encoding of TVMFunctionHandle and TVMModuleHandle values.
 *
 * rfcs/001 lays a function handle out as
 *   bit 31      V: module index valid (1: module function, 0: global function)
 *   bits 30..16 module index
 *   bits 15..0  function index
 * We keep that layout and reserve bit 15 as a function-valid bit that is always
 * set, leaving 15 bits of function index. Without it, global function 0 would
 * encode to the NULL pointer, which callers take for "no function". A module
 * handle is its index with bit 15 set, for the same reason. Registries hold at
 * most TVM_CRT_MAX_REGISTRY_FUNCTIONS (0x7FFF) functions to match.
 */
#ifndef TVM_RUNTIME_CRT_INTERNAL_FUNCTION_HANDLE_H_
#define TVM_RUNTIME_CRT_INTERNAL_FUNCTION_HANDLE_H_

#include <stdint.h>
#include <tvm/runtime/c_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t tvm_module_index_t;

#define TVM_CRT_HANDLE_MODULE_VALID_BIT ((uint32_t)1u << 31)
#define TVM_CRT_HANDLE_MODULE_SHIFT 16
#define TVM_CRT_HANDLE_FUNCTION_VALID_BIT ((uint32_t)1u << 15)
#define TVM_CRT_HANDLE_INDEX_MASK 0x7FFFu
/*! Largest module index and function index a handle can carry. */
#define TVM_CRT_HANDLE_MAX_INDEX 0x7FFFu

/*! \brief Handle of module function function_index of module module_index;
 * both must be <= TVM_CRT_HANDLE_MAX_INDEX. */
static inline TVMFunctionHandle TVMEncodeModuleFunctionHandle(tvm_module_index_t module_index,
                                                              uint16_t function_index) {
  uint32_t bits =
      TVM_CRT_HANDLE_MODULE_VALID_BIT |
      ((uint32_t)(module_index & TVM_CRT_HANDLE_INDEX_MASK) << TVM_CRT_HANDLE_MODULE_SHIFT) |
      TVM_CRT_HANDLE_FUNCTION_VALID_BIT | (function_index & TVM_CRT_HANDLE_INDEX_MASK);
  return (TVMFunctionHandle)(uintptr_t)bits;
}

/*! \brief Handle of global function function_index. */
static inline TVMFunctionHandle TVMEncodeGlobalFunctionHandle(uint16_t function_index) {
  uint32_t bits = TVM_CRT_HANDLE_FUNCTION_VALID_BIT | (function_index & TVM_CRT_HANDLE_INDEX_MASK);
  return (TVMFunctionHandle)(uintptr_t)bits;
}

/*!
 * \brief Split a function handle. Returns 0 for a handle this encoding cannot
 * have produced (NULL, function-valid bit clear, or bits above 31 set).
 */
static inline int TVMDecodeFunctionHandle(TVMFunctionHandle handle, int* out_is_module,
                                          tvm_module_index_t* out_module_index,
                                          uint16_t* out_function_index) {
  uintptr_t raw = (uintptr_t)handle;
  uint32_t bits = (uint32_t)raw;
  if ((uintptr_t)bits != raw || (bits & TVM_CRT_HANDLE_FUNCTION_VALID_BIT) == 0) return 0;
  *out_is_module = (bits & TVM_CRT_HANDLE_MODULE_VALID_BIT) != 0;
  *out_module_index =
      (tvm_module_index_t)((bits >> TVM_CRT_HANDLE_MODULE_SHIFT) & TVM_CRT_HANDLE_INDEX_MASK);
  *out_function_index = (uint16_t)(bits & TVM_CRT_HANDLE_INDEX_MASK);
  if (!*out_is_module && *out_module_index != 0) return 0;
  return 1;
}

static inline TVMModuleHandle TVMEncodeModuleHandle(tvm_module_index_t module_index) {
  return (TVMModuleHandle)(uintptr_t)(TVM_CRT_HANDLE_FUNCTION_VALID_BIT |
                                      (module_index & TVM_CRT_HANDLE_INDEX_MASK));
}

/*! \brief Returns 0 for a value that is not a module handle. */
static inline int TVMDecodeModuleHandle(TVMModuleHandle handle, tvm_module_index_t* out_index) {
  uintptr_t raw = (uintptr_t)handle;
  if ((raw & ~(uintptr_t)(TVM_CRT_HANDLE_FUNCTION_VALID_BIT | TVM_CRT_HANDLE_INDEX_MASK)) != 0 ||
      (raw & TVM_CRT_HANDLE_FUNCTION_VALID_BIT) == 0) {
    return 0;
  }
  *out_index = (tvm_module_index_t)(raw & TVM_CRT_HANDLE_INDEX_MASK);
  return 1;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_INTERNAL_FUNCTION_HANDLE_H_ */
