#include "rpc_firmware.h"

#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/module.h>
#include <tvm/runtime/crt/platform.h>

#include "model_descriptor.h"

/* An AOT model has no system lib; a model that has one replaces this. */
static const char kNoFunctionNames[] = {0, 0, 0}; /* count 0 (two bytes), final '\0' */
static const TVMFuncRegistry kNoFunctions = {kNoFunctionNames, NULL};
static const TVMModule kEmptySystemLib = {&kNoFunctions};

__attribute__((weak)) const TVMModule* TVMSystemLibEntryPoint(void) {
  return &kEmptySystemLib;
}

void loupe_rpc_firmware_start(TVMRpcServer* server, const char* board_name, uint8_t* arena,
                              size_t arena_bytes, TVMFrameByteWriter write, void* write_context) {
  if (TVMInitializeRuntime() != kTvmErrorNoError) TVMPlatformAbort(kTvmErrorRuntimeNotInitialized);
  if (TVMPlatformMemoryInit(arena, arena_bytes) != kTvmErrorNoError) {
    TVMPlatformAbort(kTvmErrorPlatformMemoryNotInitialized);
  }
  TVMRpcServerInit(server, board_name, loupe_model_descriptor(), write, write_context);
}

void loupe_rpc_abort_text(tvm_crt_error_t error_code, char text[LOUPE_RPC_ABORT_TEXT_BYTES]) {
  static const char kHex[] = "0123456789abcdef";
  static const char kPrefix[] = "abort 0x";
  int i;
  for (i = 0; i < 8; ++i) text[i] = kPrefix[i];
  for (i = 0; i < 8; ++i) text[8 + i] = kHex[((uint32_t)error_code >> (28 - 4 * i)) & 0xFu];
  text[16] = '\0';
}
