/*
 * Function registries (rfcs/001): name -> TVMBackendPackedCFunc tables.
 *
 * A TVMFuncRegistry is two pointers and can be const, names and table
 * included, so generated code places it in flash. Its names blob is
 *   bytes 0, 1  : N, the number of functions, little-endian (rfcs/001 had one
 *                 byte, which capped a model at 255 operator functions)
 *   bytes 2...  : N names, each terminated by '\0'
 *   last byte   : an extra '\0' (so a non-empty blob ends in "\0\0")
 * and funcs[i] is the function named by the i-th name. Lookup scans the blob.
 * N is at most TVM_CRT_MAX_REGISTRY_FUNCTIONS, the largest function index a
 * function handle carries (internal/function_handle.h).
 *
 * A TVMMutableFuncRegistry lives in RAM, in one block the caller gives: the
 * function table at the start of the block, the names blob after it. The
 * capacity is fixed when it is created, from TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES;
 * Set also fails when the names themselves no longer fit.
 */
#ifndef TVM_RUNTIME_CRT_FUNC_REGISTRY_H_
#define TVM_RUNTIME_CRT_FUNC_REGISTRY_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Index of a function in a registry. */
typedef uint16_t tvm_function_index_t;

/*! \brief Most functions in one registry: 15 bits of function index in a handle. */
#define TVM_CRT_MAX_REGISTRY_FUNCTIONS 0x7FFFu
/*! \brief Bytes of the function count at the start of the names blob. */
#define TVM_CRT_REGISTRY_COUNT_BYTES 2u

typedef struct TVMFuncRegistry {
  /*! \brief Two count bytes, '\0'-terminated names, terminating '\0'. */
  const char* names;
  /*! \brief Function pointers, in the order of their names. */
  const TVMBackendPackedCFunc* funcs;
} TVMFuncRegistry;

/*! \brief Number of functions in the registry (bytes 0 and 1 of names). */
uint16_t TVMFuncRegistry_GetNumFuncs(const TVMFuncRegistry* reg);

/*! \brief Find name; kTvmErrorFunctionNameNotFound when absent. */
tvm_crt_error_t TVMFuncRegistry_Lookup(const TVMFuncRegistry* reg, const char* name,
                                       tvm_function_index_t* out_index);

/*! \brief The function at index; kTvmErrorFunctionIndexInvalid when out of range. */
tvm_crt_error_t TVMFuncRegistry_GetByIndex(const TVMFuncRegistry* reg, tvm_function_index_t index,
                                           TVMBackendPackedCFunc* out_func);

typedef struct TVMMutableFuncRegistry {
  TVMFuncRegistry registry;
  /*! \brief Maximum number of functions this registry can hold. */
  size_t max_functions;
  /*! \brief Bytes available to the names blob (count bytes and final '\0' included). */
  size_t names_capacity;
} TVMMutableFuncRegistry;

/*!
 * \brief Make an empty registry inside buffer (aligned for a function pointer).
 * kTvmErrorBufferTooSmall if not even one function of average name length fits.
 */
tvm_crt_error_t TVMMutableFuncRegistry_Create(TVMMutableFuncRegistry* reg, uint8_t* buffer,
                                              size_t buffer_size_bytes);

/*!
 * \brief Add name -> func, or replace the function of an existing name when
 * override is non-zero (kTvmErrorFunctionAlreadyDefined otherwise).
 * kTvmErrorFunctionRegistryFull when the table or the names area is full.
 */
tvm_crt_error_t TVMMutableFuncRegistry_Set(TVMMutableFuncRegistry* reg, const char* name,
                                           TVMBackendPackedCFunc func, int override);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_FUNC_REGISTRY_H_ */
