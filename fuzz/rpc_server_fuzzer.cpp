// libFuzzer target for the board's session and RPC server (runtime_core/crt
// session.c, rpc_server.c): arbitrary input must never make it read or write
// out of bounds or hit undefined behaviour (ASan, UBSan), and everything it
// writes must decode as whole, valid frames.
// Input: if the first byte is even, the rest is fed to the server as raw link
// bytes. If it is odd, the harness opens a session itself and the rest is a
// list of requests, each [length u8][sequence u8][body], framed with the
// session's nonces so the fuzzer reaches every opcode without solving CRCs.
// Device memory and the model's buffers are exact-size heap blocks, so any
// range check the server gets wrong shows as a heap overflow.
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/module.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>
#include <tvm/runtime/crt/rpc_server.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

constexpr std::size_t kInputBytes = 7;
constexpr std::size_t kOutputBytes = 5;
std::uint8_t* input0;
std::uint8_t* output0;
std::uint8_t* model_inputs[1];
std::uint8_t* model_outputs[1];
const std::uint32_t model_input_bytes[] = {kInputBytes};
const std::uint32_t model_output_bytes[] = {kOutputBytes};

std::int32_t runModel() {
  for (std::size_t i = 0; i < kOutputBytes; ++i)
    output0[i] = static_cast<std::uint8_t>(input0[i] + 1);
  TVMProfilerOperatorDone(0);
  TVMProfilerOperatorDone(1);
  return 0;
}

void resetState() {}

TVMModelDescriptor model;

// Writes every byte of a tensor argument, so a tensor larger than its
// allocation overflows the heap block.
int fillTensors(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, int* ret_code,
                void*) {
  for (int i = 0; i < num_args; ++i) {
    if (type_codes[i] != kTVMDLTensorHandle) continue;
    auto* tensor = static_cast<DLTensor*>(args[i].v_handle);
    std::uint64_t bits = static_cast<std::uint64_t>(tensor->dtype.bits) * tensor->dtype.lanes;
    for (int d = 0; d < tensor->ndim; ++d) bits *= static_cast<std::uint64_t>(tensor->shape[d]);
    auto* data = static_cast<std::uint8_t*>(tensor->data);
    for (std::uint64_t b = 0; b < (bits + 7) / 8; ++b) data[b] = 0xA5;
  }
  ret->v_int64 = num_args;
  *ret_code = kTVMArgInt;
  return 0;
}

const char kSystemLibNames[] =
    "\x01\x00"
    "fill\0";
const TVMBackendPackedCFunc kSystemLibFuncs[] = {fillTensors};
const TVMFuncRegistry kSystemLibRegistry = {kSystemLibNames, kSystemLibFuncs};
const TVMModule kSystemLib = {&kSystemLibRegistry};

// What the server writes: decoded as it comes, every frame must be valid.
std::vector<std::uint8_t> receiveBuffer(1 << 16);
TVMFrameDecoder outputDecoder;
std::uint8_t boardNonce;

tvm_crt_error_t checkOutput(void*, std::uint8_t byte) {
  const TVMFrameEvent event = TVMFrameDecoder_Feed(&outputDecoder, byte);
  check(event == kTvmFrameNone || event == kTvmFrameComplete);
  if (event == kTvmFrameComplete) {
    check(outputDecoder.length >= TVM_SESSION_HEADER_BYTES);
    if (outputDecoder.buffer[0] == kTvmSessionStarted) boardNonce = outputDecoder.buffer[2];
  }
  return kTvmErrorNoError;
}

TVMRpcServer server;
std::vector<std::uint8_t> frame;

tvm_crt_error_t appendByte(void*, std::uint8_t byte) {
  frame.push_back(byte);
  return kTvmErrorNoError;
}

void sendFramed(const std::vector<std::uint8_t>& payload) {
  frame.clear();
  check(TVMFrameEncode(payload.data(), payload.size(), appendByte, nullptr) == kTvmErrorNoError);
  for (std::uint8_t byte : frame) TVMRpcServerFeed(&server, byte);
}

}  // namespace

extern "C" const TVMModule* TVMSystemLibEntryPoint(void) {
  return &kSystemLib;
}

// Exact-size heap blocks instead of the arena: ASan sees every overrun.
extern "C" tvm_crt_error_t TVMPlatformMemoryAllocate(std::size_t num_bytes, void** out_ptr) {
  if (num_bytes > (1u << 20)) return kTvmErrorPlatformNoMemory;
  *out_ptr = std::malloc(num_bytes);
  return *out_ptr != nullptr ? kTvmErrorNoError : kTvmErrorPlatformNoMemory;
}

extern "C" tvm_crt_error_t TVMPlatformMemoryFree(void* ptr) {
  std::free(ptr);
  return kTvmErrorNoError;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static bool initialized = false;
  if (!initialized) {
    check(TVMInitializeRuntime() == kTvmErrorNoError);
    check(TVMFuncRegisterGlobal("fill", fillTensors, 0) == kTvmErrorNoError);
    initialized = true;
  }
  input0 = new std::uint8_t[kInputBytes]();
  output0 = new std::uint8_t[kOutputBytes]();
  model_inputs[0] = input0;
  model_outputs[0] = output0;
  model = TVMModelDescriptor{
      "fuzz", 1, 1, model_inputs, model_input_bytes, model_outputs, model_output_bytes,
      2,      0, 0, runModel,     resetState};
  TVMFrameDecoder_Init(&outputDecoder, receiveBuffer.data(), receiveBuffer.size());
  boardNonce = 0;
  check(TVMRpcServerInit(&server, "fuzz", (data[0] & 2) ? nullptr : &model, checkOutput, nullptr) ==
        kTvmErrorNoError);

  if ((data[0] & 1) == 0) {
    for (std::size_t i = 1; i < size; ++i) TVMRpcServerFeed(&server, data[i]);
  } else {
    const std::uint8_t hostNonce = 0x42;
    sendFramed({kTvmSessionStart, hostNonce, 0, 0, TVM_SESSION_PROTOCOL_VERSION});
    check(boardNonce != 0);
    std::size_t i = 1;
    while (i + 2 <= size) {
      const std::size_t length = data[i];
      const std::uint8_t sequence = data[i + 1];
      i += 2;
      std::vector<std::uint8_t> payload = {kTvmSessionRequest, hostNonce, boardNonce, sequence};
      for (std::size_t k = 0; k < length && i < size; ++k, ++i) payload.push_back(data[i]);
      sendFramed(payload);
    }
  }
  // A new session releases what the input allocated (and frees it for ASan's leak check).
  sendFramed({kTvmSessionStart, 0x43, 0, 0, TVM_SESSION_PROTOCOL_VERSION});
  delete[] input0;
  delete[] output0;
  return 0;
}
