// The RPC client: see rpc_client.h and docs/session_rpc.md.
#include "rpc_client.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "wire_bytes.h"

namespace loupe::host {
namespace {

constexpr std::size_t kOpcodeBytes = 1;
// GET_OUTPUT and COPY_FROM_DEVICE return at most (max request - 16) bytes.
constexpr std::size_t kReadChunkReserve = 16;
constexpr std::size_t kProfileEntryBytes = 4 + 8;

std::uint64_t littleEndian(const std::array<std::uint8_t, 8>& bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) value |= std::uint64_t{bytes[i]} << (8 * i);
  return value;
}

std::string hexByte(std::uint8_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", value);
  return text;
}

void checkRange(std::string_view what, std::uint32_t offset, std::size_t length) {
  if (std::uint64_t{offset} + length > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument(std::string(what) + ": offset " + std::to_string(offset) + " + " +
                                std::to_string(length) +
                                " bytes exceeds the protocol's 32-bit offsets");
  }
}

}  // namespace

std::string_view opcodeName(RpcOpcode opcode) {
  switch (opcode) {
    case RpcOpcode::GetGlobalFunc:
      return "GET_GLOBAL_FUNC";
    case RpcOpcode::CallFunc:
      return "CALL_FUNC";
    case RpcOpcode::Alloc:
      return "ALLOC";
    case RpcOpcode::Free:
      return "FREE";
    case RpcOpcode::CopyToDevice:
      return "COPY_TO_DEVICE";
    case RpcOpcode::CopyFromDevice:
      return "COPY_FROM_DEVICE";
    case RpcOpcode::ModelInfo:
      return "MODEL_INFO";
    case RpcOpcode::SetInput:
      return "SET_INPUT";
    case RpcOpcode::Run:
      return "RUN";
    case RpcOpcode::GetOutput:
      return "GET_OUTPUT";
    case RpcOpcode::GetProfile:
      return "GET_PROFILE";
    case RpcOpcode::ResetState:
      return "RESET_STATE";
  }
  return "UNKNOWN";
}

std::int64_t CallResult::asInt() const {
  return static_cast<std::int64_t>(littleEndian(value));
}

double CallResult::asFloat() const {
  const std::uint64_t bits = littleEndian(value);
  double result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

std::uint64_t CallResult::asHandle() const {
  return littleEndian(value);
}

std::vector<std::uint8_t> RpcClient::call(RpcOpcode opcode,
                                          std::span<const std::uint8_t> arguments) {
  const std::string name(opcodeName(opcode));
  std::vector<std::uint8_t> body{static_cast<std::uint8_t>(opcode)};
  body.insert(body.end(), arguments.begin(), arguments.end());
  const auto timeout =
      opcode == RpcOpcode::Run ? session_.options().runTimeout : session_.options().responseTimeout;
  const std::vector<std::uint8_t> response = session_.request(body, name, timeout);

  WireReader reader(response, "RESPONSE to " + name);
  const std::uint8_t echoed = reader.u8();
  if (echoed != static_cast<std::uint8_t>(opcode)) {
    throw SessionError(SessionErrorKind::Protocol,
                       "the board answered " + name + " with the opcode " + hexByte(echoed));
  }
  const std::int32_t status = reader.i32();
  if (status != 0) {
    throw SessionError(SessionErrorKind::RemoteError,
                       name + " failed on the board: " + describeCrtError(status), status);
  }
  const auto results = reader.rest();
  return {results.begin(), results.end()};
}

std::size_t RpcClient::chunkCapacity(std::size_t argumentBytes) const {
  const std::size_t fixed = kSessionHeaderBytes + kOpcodeBytes + argumentBytes;
  const std::size_t maxRequest = session_.boardInfo().maxRequest;
  return maxRequest > fixed ? maxRequest - fixed : 1;
}

std::size_t RpcClient::readChunkCapacity() const {
  const std::size_t maxRequest = session_.boardInfo().maxRequest;
  return maxRequest > kReadChunkReserve ? maxRequest - kReadChunkReserve : 1;
}

std::uint64_t RpcClient::getGlobalFunction(std::string_view name) {
  WireWriter args;
  args.text(name);
  const auto results = call(RpcOpcode::GetGlobalFunc, args.data());
  WireReader reader(results, "RESPONSE to GET_GLOBAL_FUNC");
  const std::uint64_t handle = reader.u64();
  reader.expectEnd();
  return handle;
}

CallResult RpcClient::callFunction(std::uint64_t handle, std::span<const CallArgument> arguments) {
  if (arguments.size() > std::numeric_limits<std::uint8_t>::max()) {
    throw std::invalid_argument("CALL_FUNC: " + std::to_string(arguments.size()) +
                                " arguments, the protocol counts at most 255");
  }
  WireWriter args;
  args.u64(handle);
  args.u8(static_cast<std::uint8_t>(arguments.size()));
  for (const CallArgument& argument : arguments) {
    if (const auto* value = std::get_if<std::int64_t>(&argument)) {
      args.u8(static_cast<std::uint8_t>(ArgTypeCode::Int));
      args.i64(*value);
    } else if (const auto* real = std::get_if<double>(&argument)) {
      args.u8(static_cast<std::uint8_t>(ArgTypeCode::Float));
      args.f64(*real);
    } else if (const auto* opaque = std::get_if<HandleArgument>(&argument)) {
      args.u8(static_cast<std::uint8_t>(ArgTypeCode::Handle));
      args.u64(opaque->value);
    } else if (std::holds_alternative<NullArgument>(argument)) {
      args.u8(static_cast<std::uint8_t>(ArgTypeCode::Null));
    } else {
      const auto& tensor = std::get<TensorArgument>(argument);
      if (tensor.shape.size() > std::numeric_limits<std::uint8_t>::max()) {
        throw std::invalid_argument("CALL_FUNC: a tensor of " +
                                    std::to_string(tensor.shape.size()) + " dimensions");
      }
      args.u8(static_cast<std::uint8_t>(ArgTypeCode::DLTensor));
      args.u64(tensor.deviceHandle);
      args.u8(static_cast<std::uint8_t>(tensor.shape.size()));
      args.u8(tensor.dtypeCode);
      args.u8(tensor.bits);
      args.u16(tensor.lanes);
      for (std::int64_t extent : tensor.shape) args.i64(extent);
    }
  }
  const auto results = call(RpcOpcode::CallFunc, args.data());
  WireReader reader(results, "RESPONSE to CALL_FUNC");
  CallResult result;
  result.typeCode = reader.u8();
  const auto value = reader.bytes(result.value.size());
  std::copy(value.begin(), value.end(), result.value.begin());
  reader.expectEnd();
  return result;
}

std::uint64_t RpcClient::alloc(std::uint32_t bytes) {
  WireWriter args;
  args.u32(bytes);
  const auto results = call(RpcOpcode::Alloc, args.data());
  WireReader reader(results, "RESPONSE to ALLOC");
  const std::uint64_t handle = reader.u64();
  reader.expectEnd();
  return handle;
}

void RpcClient::free(std::uint64_t deviceHandle) {
  WireWriter args;
  args.u64(deviceHandle);
  WireReader(call(RpcOpcode::Free, args.data()), "RESPONSE to FREE").expectEnd();
}

void RpcClient::copyToDevice(std::uint64_t deviceHandle, std::uint32_t offset,
                             std::span<const std::uint8_t> bytes) {
  checkRange("COPY_TO_DEVICE", offset, bytes.size());
  const std::size_t chunk = chunkCapacity(8 + 4);
  for (std::size_t done = 0; done < bytes.size();) {
    const std::size_t count = std::min(chunk, bytes.size() - done);
    WireWriter args;
    args.u64(deviceHandle);
    args.u32(static_cast<std::uint32_t>(offset + done));
    args.bytes(bytes.subspan(done, count));
    WireReader(call(RpcOpcode::CopyToDevice, args.data()), "RESPONSE to COPY_TO_DEVICE")
        .expectEnd();
    done += count;
  }
}

std::vector<std::uint8_t> RpcClient::readChunked(RpcOpcode opcode,
                                                 std::span<const std::uint8_t> prefix,
                                                 std::uint32_t offset, std::uint32_t length) {
  const std::string name(opcodeName(opcode));
  checkRange(name, offset, length);
  const std::size_t chunk = readChunkCapacity();
  // Grown as bytes arrive, never sized from a length the board sent.
  std::vector<std::uint8_t> out;
  while (out.size() < length) {
    const std::size_t want = std::min<std::size_t>(chunk, length - out.size());
    WireWriter args;
    args.bytes(prefix);
    args.u32(static_cast<std::uint32_t>(offset + out.size()));
    args.u32(static_cast<std::uint32_t>(want));
    const auto results = call(opcode, args.data());
    if (results.empty() || results.size() > want) {
      throw SessionError(SessionErrorKind::Protocol,
                         "the board returned " + std::to_string(results.size()) + " bytes to " +
                             name + " for " + std::to_string(want) + " asked");
    }
    out.insert(out.end(), results.begin(), results.end());
  }
  return out;
}

std::vector<std::uint8_t> RpcClient::copyFromDevice(std::uint64_t deviceHandle,
                                                    std::uint32_t offset, std::uint32_t length) {
  WireWriter prefix;
  prefix.u64(deviceHandle);
  return readChunked(RpcOpcode::CopyFromDevice, prefix.data(), offset, length);
}

ModelInfo RpcClient::modelInfo() {
  const auto results = call(RpcOpcode::ModelInfo, {});
  WireReader reader(results, "RESPONSE to MODEL_INFO");
  ModelInfo info;
  info.name = reader.text(reader.u8());
  const std::uint8_t inputs = reader.u8();
  const std::uint8_t outputs = reader.u8();
  for (int i = 0; i < inputs; ++i) info.inputBytes.push_back(reader.u32());
  for (int i = 0; i < outputs; ++i) info.outputBytes.push_back(reader.u32());
  info.operatorCount = reader.u32();
  info.workspaceBytes = reader.u32();
  info.stateBytes = reader.u32();
  reader.expectEnd();
  modelInfo_ = info;
  return info;
}

void RpcClient::setInput(std::uint8_t index, std::span<const std::uint8_t> bytes,
                         std::uint32_t offset) {
  checkRange("SET_INPUT", offset, bytes.size());
  const std::size_t chunk = chunkCapacity(1 + 4);
  for (std::size_t done = 0; done < bytes.size();) {
    const std::size_t count = std::min(chunk, bytes.size() - done);
    WireWriter args;
    args.u8(index);
    args.u32(static_cast<std::uint32_t>(offset + done));
    args.bytes(bytes.subspan(done, count));
    WireReader(call(RpcOpcode::SetInput, args.data()), "RESPONSE to SET_INPUT").expectEnd();
    done += count;
  }
}

RunResult RpcClient::run() {
  const auto results = call(RpcOpcode::Run, {});
  WireReader reader(results, "RESPONSE to RUN");
  RunResult result;
  result.modelStatus = reader.i32();
  result.ticks = reader.u64();
  reader.expectEnd();
  return result;
}

std::vector<std::uint8_t> RpcClient::getOutput(std::uint8_t index, std::uint32_t offset,
                                               std::uint32_t length) {
  const std::array<std::uint8_t, 1> prefix{index};
  return readChunked(RpcOpcode::GetOutput, prefix, offset, length);
}

std::vector<std::uint8_t> RpcClient::getOutput(std::uint8_t index) {
  if (!modelInfo_) modelInfo();
  if (index >= modelInfo_->outputBytes.size()) {
    throw std::out_of_range("GET_OUTPUT: output " + std::to_string(index) + " of a model with " +
                            std::to_string(modelInfo_->outputBytes.size()) + " outputs");
  }
  return getOutput(index, 0, modelInfo_->outputBytes[index]);
}

std::vector<OperatorProfile> RpcClient::getProfile() {
  const std::uint32_t page = static_cast<std::uint32_t>(
      std::max<std::size_t>(1, readChunkCapacity() / kProfileEntryBytes));
  std::vector<OperatorProfile> entries;
  std::optional<std::uint32_t> operators;
  while (!operators || entries.size() < *operators) {
    WireWriter args;
    args.u32(static_cast<std::uint32_t>(entries.size()));
    args.u32(page);
    const auto results = call(RpcOpcode::GetProfile, args.data());
    WireReader reader(results, "RESPONSE to GET_PROFILE");
    const std::uint32_t total = reader.u32();
    const std::uint32_t returned = reader.u32();
    if (operators && total != *operators) {
      throw SessionError(SessionErrorKind::Protocol,
                         "GET_PROFILE: the operator count changed from " +
                             std::to_string(*operators) + " to " + std::to_string(total));
    }
    operators = total;
    if (returned > page || entries.size() + returned > total ||
        (returned == 0 && entries.size() < total)) {
      throw SessionError(SessionErrorKind::Protocol,
                         "GET_PROFILE: the board returned " + std::to_string(returned) +
                             " entries from operator " + std::to_string(entries.size()) + " of " +
                             std::to_string(total) + " for " + std::to_string(page) + " asked");
    }
    for (std::uint32_t i = 0; i < returned; ++i) {
      OperatorProfile entry;
      entry.calls = reader.u32();
      entry.lastTicks = reader.u64();
      entries.push_back(entry);
    }
    reader.expectEnd();
  }
  return entries;
}

void RpcClient::resetState() {
  WireReader(call(RpcOpcode::ResetState, {}), "RESPONSE to RESET_STATE").expectEnd();
}

std::optional<double> RpcClient::ticksToNanoseconds(std::uint64_t ticks) const {
  const std::uint32_t rate = session_.boardInfo().tickRate;
  if (rate == 0) return std::nullopt;
  return static_cast<double>(ticks) * 1e9 / rate;
}

}  // namespace loupe::host
