#include "frontend/ethosu_payload_reader.h"

#include <algorithm>
#include <memory>

#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::frontend {

namespace {

[[noreturn]] void failWithDecoderError(const loupe_ethosu_error& error) {
  throw EthosUPayloadError(error.message[0] != 0 ? error.message
                                                 : loupe_ethosu_status_name(error.code));
}

std::string hexWord(std::uint32_t value) {
  static const char* kHex = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) text += kHex[(value >> shift) & 15u];
  return text;
}

}  // namespace

std::uint32_t EthosUPayload::operationCount() const {
  std::uint32_t count = 0;
  for (const EthosUCommandStream& stream : streams) {
    for (const loupe_ethosu_operation& op : stream.operations) {
      count += op.kind == LOUPE_ETHOSU_OPERATION_STOP ? 0u : 1u;
    }
  }
  return count;
}

std::int64_t EthosUPayload::macs() const {
  std::int64_t total = 0;
  for (const EthosUCommandStream& stream : streams) {
    for (const loupe_ethosu_operation& op : stream.operations) total += ethosuOperationMacs(op);
  }
  return total;
}

std::int64_t ethosuOperationMacs(const loupe_ethosu_operation& op) {
  const std::int64_t outputs = std::int64_t{op.ofm.height} * op.ofm.width * op.ofm.depth;
  // The registers hold the dilated extent: dilation * (k - 1) + 1.
  const auto undilated = [](std::uint32_t extent, std::uint8_t dilation) -> std::int64_t {
    return dilation == 0 || extent == 0 ? extent : (extent - 1) / dilation + 1;
  };
  const std::int64_t kernel =
      undilated(op.kernel_height, op.dilation_y) * undilated(op.kernel_width, op.dilation_x);
  switch (op.kind) {
    case LOUPE_ETHOSU_OPERATION_CONV:
      return outputs * kernel * op.ifm.depth;
    case LOUPE_ETHOSU_OPERATION_DEPTHWISE:
    case LOUPE_ETHOSU_OPERATION_POOL:
      return outputs * kernel;
    case LOUPE_ETHOSU_OPERATION_ELEMENTWISE:
      return outputs;
    default:
      return 0;
  }
}

EthosUPayload readEthosUPayload(std::span<const std::uint8_t> payload) {
  EthosUPayload result;
  loupe_ethosu_error error{};
  loupe_ethosu_payload_cursor cursor;
  if (loupe_ethosu_payload_begin(&cursor, payload.data(), payload.size(), &error) < 0) {
    failWithDecoderError(error);
  }
  result.payloadWords = cursor.words;
  bool configured = false;
  loupe_ethosu_action action;
  int status = 0;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, &error)) == 1) {
    if (action.kind == LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG && !configured) {
      configured = true;
      result.configWord = action.config_word;
      result.idWord = action.id_word;
      result.velaRelease = action.release;
      result.velaPatch = action.patch;
      result.accelerator = loupe_ethosu_accelerator_from_config_word(action.config_word);
      if (result.accelerator < 0) {
        throw EthosUPayloadError(
            "payload: OPTIMIZER_CONFIG names an NPU Loupe does not model "
            "(CONFIG word " +
            hexWord(action.config_word) + ")");
      }
    } else if (action.kind == LOUPE_ETHOSU_DA_COMMAND_STREAM) {
      EthosUCommandStream stream;
      stream.payloadWordOffset =
          static_cast<std::uint32_t>((action.command_stream - payload.data()) / 4);
      stream.wordCount = action.command_stream_words;
      stream.words = action.command_stream;
      result.streams.push_back(std::move(stream));
    }
  }
  if (status < 0) failWithDecoderError(error);
  if (!configured) {
    throw EthosUPayloadError(
        "payload: no OPTIMIZER_CONFIG action, so the NPU it was compiled for is unknown");
  }
  loupe_ethosu_npu_config config;
  loupe_ethosu_npu_config_init(&config, result.accelerator);
  const std::uint8_t* firstStream = nullptr;
  std::uint32_t firstStreamWords = 0;
  // The whole payload as the driver will check it, configuration included.
  if (loupe_ethosu_payload_parse(payload.data(), payload.size(), &config, &firstStream,
                                 &firstStreamWords, &error) < 0) {
    failWithDecoderError(error);
  }

  // The decoder and machine are a few KiB each: on the heap, not the stack.
  auto decoder = std::make_unique<loupe_ethosu_command_decoder>();
  auto machine = std::make_unique<loupe_ethosu_machine>();
  loupe_ethosu_machine_init(machine.get(), &config, nullptr, 0);
  for (EthosUCommandStream& stream : result.streams) {
    loupe_ethosu_command_decoder_init(decoder.get(), stream.words, stream.wordCount);
    loupe_ethosu_operation op;
    while ((status = loupe_ethosu_command_decoder_next(decoder.get(), &op, &error)) == 1) {
      const std::uint32_t needed = loupe_ethosu_workspace_needed(machine.get(), &op);
      // Refused here, before a host allocates the workspace: a corrupt
      // kernel or IFM depth can ask for gigabytes.
      if (needed > LOUPE_ETHOSU_MAX_WORKSPACE_VALUES) {
        throw EthosUPayloadError("command stream: operation " + std::to_string(op.index) + " (" +
                                 loupe_ethosu_operation_name(&op) + ") needs " +
                                 std::to_string(needed) +
                                 " workspace values for one OFM block of weights, more than the "
                                 "functional model's " +
                                 std::to_string(LOUPE_ETHOSU_MAX_WORKSPACE_VALUES));
      }
      result.workspaceValues = std::max(result.workspaceValues, needed);
      stream.operations.push_back(op);
    }
    if (status < 0) failWithDecoderError(error);
  }
  return result;
}

}  // namespace loupe::frontend
