/*
 * Error codes of the embedded C runtime.
 *
 * Every runtime entry point returns one of these (0 on success) and, on
 * failure, also leaves a message for TVMGetLastError. The high byte groups the
 * codes by the part of the runtime that raised them, so a code printed over a
 * serial console says where to look.
 */
#ifndef TVM_RUNTIME_CRT_ERROR_CODES_H_
#define TVM_RUNTIME_CRT_ERROR_CODES_H_

#ifdef __cplusplus
extern "C" {
#endif

#define TVM_CRT_ERROR_CATEGORY_SHIFT 8

typedef enum {
  kTvmErrorCategoryGeneric = 0x00,
  kTvmErrorCategoryFunctionRegistry = 0x01,
  kTvmErrorCategoryModule = 0x02,
  kTvmErrorCategoryFunctionCall = 0x03,
  kTvmErrorCategoryPlatform = 0x04,
  kTvmErrorCategoryExecutor = 0x05,
  kTvmErrorCategoryDevice = 0x06,
  kTvmErrorCategoryRpc = 0x07
} tvm_crt_error_category_t;

typedef enum {
  kTvmErrorNoError = 0,

  /* Generic */
  kTvmErrorInvalidArgument = (kTvmErrorCategoryGeneric << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,
  kTvmErrorRuntimeNotInitialized = (kTvmErrorCategoryGeneric << TVM_CRT_ERROR_CATEGORY_SHIFT) | 2,
  kTvmErrorCheckFailed = (kTvmErrorCategoryGeneric << TVM_CRT_ERROR_CATEGORY_SHIFT) | 3,

  /* Function registry */
  kTvmErrorFunctionNameNotFound =
      (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  kTvmErrorFunctionIndexInvalid =
      (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,
  kTvmErrorFunctionRegistryFull =
      (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 2,
  kTvmErrorFunctionAlreadyDefined =
      (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 3,
  kTvmErrorFunctionNameInvalid =
      (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 4,
  kTvmErrorBufferTooSmall = (kTvmErrorCategoryFunctionRegistry << TVM_CRT_ERROR_CATEGORY_SHIFT) | 5,

  /* Modules */
  kTvmErrorModuleTableFull = (kTvmErrorCategoryModule << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  kTvmErrorModuleHandleInvalid = (kTvmErrorCategoryModule << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,

  /* TVMFuncCall */
  kTvmErrorFunctionHandleInvalid =
      (kTvmErrorCategoryFunctionCall << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  kTvmErrorFunctionCallNumArgs =
      (kTvmErrorCategoryFunctionCall << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,
  kTvmErrorFunctionCallFailed = (kTvmErrorCategoryFunctionCall << TVM_CRT_ERROR_CATEGORY_SHIFT) | 2,

  /* Platform: memory */
  kTvmErrorPlatformNoMemory = (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  kTvmErrorPlatformMemoryInvalidSize =
      (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,
  kTvmErrorPlatformMemoryFreeInvalid =
      (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 2,
  kTvmErrorPlatformMemoryNotInitialized =
      (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 3,
  /* A stack allocator was asked to free what is not its most recent allocation. */
  kTvmErrorPlatformStackAllocBadFree =
      (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 4,

  /* Platform: timer */
  kTvmErrorPlatformTimerBadState = (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 5,
  kTvmErrorPlatformTimerUnavailable =
      (kTvmErrorCategoryPlatform << TVM_CRT_ERROR_CATEGORY_SHIFT) | 6,

  /* Embedded executor interface */
  kTvmErrorExecutorWorkspaceTooSmall =
      (kTvmErrorCategoryExecutor << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  kTvmErrorExecutorWorkspaceMissing =
      (kTvmErrorCategoryExecutor << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,

  /* Device API */
  kTvmErrorDeviceInvalid = (kTvmErrorCategoryDevice << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,

  /* RPC server (docs/session_rpc.md): the request itself is wrong */
  kTvmErrorRpcUnknownOpcode = (kTvmErrorCategoryRpc << TVM_CRT_ERROR_CATEGORY_SHIFT) | 0,
  /* shorter or longer than its opcode's arguments, or a bad type code */
  kTvmErrorRpcMalformedRequest = (kTvmErrorCategoryRpc << TVM_CRT_ERROR_CATEGORY_SHIFT) | 1,
  /* a model opcode, but the firmware has no model */
  kTvmErrorRpcNoModel = (kTvmErrorCategoryRpc << TVM_CRT_ERROR_CATEGORY_SHIFT) | 2
} tvm_crt_error_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_ERROR_CODES_H_ */
