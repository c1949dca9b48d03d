/*
 * Lookup in a const TVMFuncRegistry: a linear scan of the names blob, then a
 * constant-time index into the function table. Works on flash-resident data.
 */
#include <stddef.h>
#include <tvm/runtime/crt/func_registry.h>

uint16_t TVMFuncRegistry_GetNumFuncs(const TVMFuncRegistry* reg) {
  /* Byte by byte: the blob is a char array, with no alignment to rely on. */
  const unsigned char* count = (const unsigned char*)reg->names;
  return (uint16_t)(count[0] | (count[1] << 8));
}

/* Returns 1 when the '\0'-terminated name equals the blob entry at entry. */
static int NameEquals(const char* entry, const char* name) {
  while (*entry != '\0' && *entry == *name) {
    ++entry;
    ++name;
  }
  return *entry == *name;
}

static const char* SkipName(const char* entry) {
  while (*entry != '\0') ++entry;
  return entry + 1;
}

tvm_crt_error_t TVMFuncRegistry_Lookup(const TVMFuncRegistry* reg, const char* name,
                                       tvm_function_index_t* out_index) {
  uint16_t count = TVMFuncRegistry_GetNumFuncs(reg);
  const char* entry = reg->names + TVM_CRT_REGISTRY_COUNT_BYTES;
  tvm_function_index_t index;
  for (index = 0; index < count; ++index) {
    if (NameEquals(entry, name)) {
      *out_index = index;
      return kTvmErrorNoError;
    }
    entry = SkipName(entry);
  }
  return kTvmErrorFunctionNameNotFound;
}

tvm_crt_error_t TVMFuncRegistry_GetByIndex(const TVMFuncRegistry* reg, tvm_function_index_t index,
                                           TVMBackendPackedCFunc* out_func) {
  if (index >= TVMFuncRegistry_GetNumFuncs(reg)) return kTvmErrorFunctionIndexInvalid;
  *out_func = reg->funcs[index];
  return kTvmErrorNoError;
}
