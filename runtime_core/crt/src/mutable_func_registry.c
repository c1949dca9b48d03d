/*
 * TVMMutableFuncRegistry: a registry in RAM that Set can extend. The block is
 * split once, at creation, into the function table (first, so it keeps the
 * block's alignment) and the names blob. The capacity assumes names of
 * TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES; longer names can fill the names area
 * first, which Set reports as full too.
 */
#include <stddef.h>
#include <tvm/runtime/crt/func_registry.h>

#include "crt_config.h"

/* Count bytes and final '\0' of the names blob. */
#define NAMES_OVERHEAD_BYTES (TVM_CRT_REGISTRY_COUNT_BYTES + 1)

tvm_crt_error_t TVMMutableFuncRegistry_Create(TVMMutableFuncRegistry* reg, uint8_t* buffer,
                                              size_t buffer_size_bytes) {
  const size_t per_function =
      sizeof(TVMBackendPackedCFunc) + TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1;
  size_t max_functions;
  char* names;
  if (buffer == NULL || buffer_size_bytes < NAMES_OVERHEAD_BYTES + per_function) {
    return kTvmErrorBufferTooSmall;
  }
  max_functions = (buffer_size_bytes - NAMES_OVERHEAD_BYTES) / per_function;
  if (max_functions > TVM_CRT_MAX_REGISTRY_FUNCTIONS)
    max_functions = TVM_CRT_MAX_REGISTRY_FUNCTIONS;

  names = (char*)(buffer + max_functions * sizeof(TVMBackendPackedCFunc));
  names[0] = 0;
  names[1] = 0;
  names[2] = '\0';
  reg->registry.names = names;
  reg->registry.funcs = (const TVMBackendPackedCFunc*)(void*)buffer;
  reg->max_functions = max_functions;
  reg->names_capacity = buffer_size_bytes - max_functions * sizeof(TVMBackendPackedCFunc);
  return kTvmErrorNoError;
}

static size_t NameLength(const char* name) {
  size_t n = 0;
  while (name[n] != '\0') ++n;
  return n;
}

tvm_crt_error_t TVMMutableFuncRegistry_Set(TVMMutableFuncRegistry* reg, const char* name,
                                           TVMBackendPackedCFunc func, int override) {
  /* The registry owns its block, so casting away the const view is sound. */
  TVMBackendPackedCFunc* funcs = (TVMBackendPackedCFunc*)(void*)reg->registry.funcs;
  char* names = (char*)reg->registry.names;
  uint16_t count = TVMFuncRegistry_GetNumFuncs(&reg->registry);
  tvm_function_index_t index;
  size_t length;
  size_t end;
  size_t i;

  if (name == NULL || name[0] == '\0') return kTvmErrorFunctionNameInvalid;
  length = NameLength(name);
  if (length + 1 > TVM_CRT_MAX_FUNCTION_NAME_BYTES) return kTvmErrorFunctionNameInvalid;

  if (TVMFuncRegistry_Lookup(&reg->registry, name, &index) == kTvmErrorNoError) {
    if (!override) return kTvmErrorFunctionAlreadyDefined;
    funcs[index] = func;
    return kTvmErrorNoError;
  }
  if (count >= reg->max_functions) return kTvmErrorFunctionRegistryFull;

  /* end: offset of the final '\0', where the new name goes. */
  end = TVM_CRT_REGISTRY_COUNT_BYTES;
  for (i = 0; i < count; ++i) end += NameLength(names + end) + 1;
  if (end + length + 2 > reg->names_capacity) return kTvmErrorFunctionRegistryFull;

  for (i = 0; i <= length; ++i) names[end + i] = name[i];
  names[end + length + 1] = '\0';
  funcs[count] = func;
  ((unsigned char*)names)[0] = (unsigned char)((count + 1) & 0xFFu);
  ((unsigned char*)names)[1] = (unsigned char)((count + 1) >> 8);
  return kTvmErrorNoError;
}
