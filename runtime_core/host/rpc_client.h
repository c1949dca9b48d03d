// Typed calls for every RPC opcode of docs/session_rpc.md over a Session:
// functions, device memory, the model's inputs, outputs and profile. Copies
// larger than the board's max request are split into chunks; a non-zero
// status from the board becomes a RemoteError SessionError naming the opcode
// and the tvm_crt_error_t.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "session.h"

namespace loupe::host {

enum class RpcOpcode : std::uint8_t {
  GetGlobalFunc = 0x01,
  CallFunc = 0x02,
  Alloc = 0x03,
  Free = 0x04,
  CopyToDevice = 0x05,
  CopyFromDevice = 0x06,
  ModelInfo = 0x10,
  SetInput = 0x11,
  Run = 0x12,
  GetOutput = 0x13,
  GetProfile = 0x14,
  ResetState = 0x15,
};
std::string_view opcodeName(RpcOpcode opcode);  // "GET_OUTPUT"

// TVM's argument type codes, as CALL_FUNC sends them.
enum class ArgTypeCode : std::uint8_t { Int = 0, Float = 2, Handle = 3, Null = 4, DLTensor = 7 };

struct HandleArgument {
  std::uint64_t value = 0;
};
struct NullArgument {};
// A DLTensor the board builds over one of its allocations.
struct TensorArgument {
  std::uint64_t deviceHandle = 0;
  std::uint8_t dtypeCode = 2;  // DLDataTypeCode: 0 int, 1 uint, 2 float
  std::uint8_t bits = 32;
  std::uint16_t lanes = 1;
  std::vector<std::int64_t> shape;
};
using CallArgument =
    std::variant<std::int64_t, double, HandleArgument, NullArgument, TensorArgument>;

// CALL_FUNC's return value: its type code and 8 raw bytes.
struct CallResult {
  std::uint8_t typeCode = static_cast<std::uint8_t>(ArgTypeCode::Null);
  std::array<std::uint8_t, 8> value{};

  std::int64_t asInt() const;
  double asFloat() const;
  std::uint64_t asHandle() const;
};

struct ModelInfo {
  std::string name;
  std::vector<std::uint32_t> inputBytes;
  std::vector<std::uint32_t> outputBytes;
  std::uint32_t operatorCount = 0;
  std::uint32_t workspaceBytes = 0;
  std::uint32_t stateBytes = 0;
};

struct RunResult {
  std::int32_t modelStatus = 0;  // what tvmgen_<name>_run returned
  std::uint64_t ticks = 0;       // profiler ticks around the run, 0 without a profiler
};

struct OperatorProfile {
  std::uint32_t calls = 0;
  std::uint64_t lastTicks = 0;  // ticks of the last call
};

class RpcClient {
 public:
  // The session must be started before any call.
  explicit RpcClient(Session& session) : session_(session) {}

  std::uint64_t getGlobalFunction(std::string_view name);
  CallResult callFunction(std::uint64_t handle, std::span<const CallArgument> arguments);

  std::uint64_t alloc(std::uint32_t bytes);
  void free(std::uint64_t deviceHandle);
  void copyToDevice(std::uint64_t deviceHandle, std::uint32_t offset,
                    std::span<const std::uint8_t> bytes);
  std::vector<std::uint8_t> copyFromDevice(std::uint64_t deviceHandle, std::uint32_t offset,
                                           std::uint32_t length);

  ModelInfo modelInfo();
  void setInput(std::uint8_t index, std::span<const std::uint8_t> bytes, std::uint32_t offset = 0);
  RunResult run();  // waits up to the session's run time-out per attempt
  std::vector<std::uint8_t> getOutput(std::uint8_t index, std::uint32_t offset,
                                      std::uint32_t length);
  // The whole output buffer, its size from MODEL_INFO (asked once, then kept).
  std::vector<std::uint8_t> getOutput(std::uint8_t index);
  std::vector<OperatorProfile> getProfile();
  void resetState();

  // Ticks as nanoseconds with STARTED's tick rate; nullopt without a profiler.
  std::optional<double> ticksToNanoseconds(std::uint64_t ticks) const;

 private:
  // Sends opcode + arguments, checks the echoed opcode and the status, and
  // returns the results after them.
  std::vector<std::uint8_t> call(RpcOpcode opcode, std::span<const std::uint8_t> arguments);
  std::vector<std::uint8_t> readChunked(RpcOpcode opcode, std::span<const std::uint8_t> prefix,
                                        std::uint32_t offset, std::uint32_t length);
  std::size_t chunkCapacity(std::size_t argumentBytes) const;
  std::size_t readChunkCapacity() const;

  Session& session_;
  std::optional<ModelInfo> modelInfo_;
};

}  // namespace loupe::host
