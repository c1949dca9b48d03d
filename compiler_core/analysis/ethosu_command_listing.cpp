#include "analysis/ethosu_command_listing.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "ir/graph_printer.h"
#include "loupe/ethosu/ethosu_payload.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::analysis {

namespace {

using Operation = loupe_ethosu_operation;

std::string ethosuHexWord(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

std::string ethosuShapeText(const loupe_ethosu_feature_map& fm) {
  return std::to_string(fm.height) + "x" + std::to_string(fm.width) + "x" +
         std::to_string(fm.depth);
}

nlohmann::json ethosuShapeJson(const loupe_ethosu_feature_map& fm) {
  return {fm.height, fm.width, fm.depth};
}

bool hasFeatureMaps(const Operation& op) {
  return op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         op.kind == LOUPE_ETHOSU_OPERATION_POOL || op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
}

bool hasKernel(const Operation& op) {
  return op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         op.kind == LOUPE_ETHOSU_OPERATION_POOL;
}

// The undilated kernel extent (the registers hold dilation * (k - 1) + 1).
std::uint32_t undilatedExtent(std::uint32_t extent, std::uint8_t dilation) {
  return dilation == 0 || extent == 0 ? extent : (extent - 1) / dilation + 1;
}

std::int64_t streamBytes(const loupe_ethosu_stream_range* ranges, std::uint8_t count) {
  std::int64_t total = 0;
  for (std::uint8_t i = 0; i < count && i < 2; ++i) total += ranges[i].length;
  return total;
}

// "CONV  49x10x1 -> 25x5x64  kernel 10x4 stride 2x2  weights 2,896 B  block 8x5x16".
std::string operationSummary(const Operation& op) {
  std::string text = loupe_ethosu_operation_name(&op);
  if (op.kind == LOUPE_ETHOSU_OPERATION_DMA) {
    // An internal destination is the NPU's SHRAM (a lookup table), not a region.
    const auto end = [](bool internal, std::uint8_t region, std::uint64_t address) {
      return (internal ? std::string("SHRAM") : "region " + std::to_string(region)) + " +" +
             std::to_string(address);
    };
    return text + "  " + end(op.dma_src_internal, op.dma_src_region, op.dma_src) + " -> " +
           end(op.dma_dst_internal, op.dma_dst_region, op.dma_dst) + ", " +
           ir::groupDigits(static_cast<std::int64_t>(op.dma_length)) + " bytes";
  }
  if (!hasFeatureMaps(op)) return text;
  text += "  " + ethosuShapeText(op.ifm);
  if (op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE) {
    text += op.ifm2_is_scalar ? ", scalar " + std::to_string(op.ifm2_scalar)
                              : ", " + ethosuShapeText(op.ifm2);
  }
  text += " -> " + ethosuShapeText(op.ofm);
  if (hasKernel(op)) {
    text += "  kernel " + std::to_string(undilatedExtent(op.kernel_height, op.dilation_y)) + "x" +
            std::to_string(undilatedExtent(op.kernel_width, op.dilation_x)) + " stride " +
            std::to_string(op.stride_y) + "x" + std::to_string(op.stride_x);
    if (op.dilation_x > 1 || op.dilation_y > 1) {
      text += " dilation " + std::to_string(op.dilation_y) + "x" + std::to_string(op.dilation_x);
    }
  }
  if (op.weight_streams > 0) {
    text += "  weights " + ir::groupDigits(streamBytes(op.weights, op.weight_streams)) + " B";
  }
  return text + "  block " + std::to_string(op.block_height) + "x" +
         std::to_string(op.block_width) + "x" + std::to_string(op.block_depth);
}

nlohmann::json operationJson(const Operation& op) {
  nlohmann::json entry = {{"index", op.index},
                          {"kind", loupe_ethosu_operation_name(&op)},
                          {"words", {op.first_word, op.end_word}},
                          {"macs", frontend::ethosuOperationMacs(op)}};
  if (hasFeatureMaps(op)) {
    entry["ifm"] = ethosuShapeJson(op.ifm);
    entry["ifm2"] = op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE && !op.ifm2_is_scalar
                        ? ethosuShapeJson(op.ifm2)
                        : nlohmann::json(nullptr);
    entry["ofm"] = ethosuShapeJson(op.ofm);
    entry["block"] = {op.block_height, op.block_width, op.block_depth};
    entry["weight_bytes"] = streamBytes(op.weights, op.weight_streams);
    entry["scale_bytes"] = streamBytes(op.scales, op.weight_streams);
  }
  if (hasKernel(op)) {
    entry["kernel"] = {undilatedExtent(op.kernel_height, op.dilation_y),
                       undilatedExtent(op.kernel_width, op.dilation_x)};
    entry["stride"] = {op.stride_y, op.stride_x};
    entry["dilation"] = {op.dilation_y, op.dilation_x};
  }
  if (op.kind == LOUPE_ETHOSU_OPERATION_DMA) {
    entry["dma"] = {{"src_region", op.dma_src_region},
                    {"src", op.dma_src},
                    {"dst_region", op.dma_dst_region},
                    {"dst", op.dma_dst},
                    {"length", op.dma_length}};
  }
  return entry;
}

// One command of the stream, split into its fields by the register table.
struct ListedCommand {
  std::uint32_t offset = 0;  // word offset in the stream
  std::vector<std::uint32_t> words;
  std::string name;
  struct Field {
    std::string name;
    std::int64_t value = 0;
    std::string enumName;  // the value's name for an enumerated field
    bool address = false;  // shown in hex
  };
  std::vector<Field> fields;
};

// The register table's fields by command code, built once.
const std::map<std::uint32_t, std::vector<const loupe_ethosu_field_info*>>& fieldsByCommand() {
  static const auto table = [] {
    std::map<std::uint32_t, std::vector<const loupe_ethosu_field_info*>> byCode;
    for (std::uint32_t i = 0; i < loupe_ethosu_field_count; ++i) {
      byCode[loupe_ethosu_fields[i].command_code].push_back(&loupe_ethosu_fields[i]);
    }
    return byCode;
  }();
  return table;
}

// The commands of words [begin, end) of a stream the decoder accepted.
std::vector<ListedCommand> listCommands(const frontend::EthosUCommandStream& stream,
                                        std::uint32_t begin, std::uint32_t end) {
  std::vector<ListedCommand> commands;
  for (std::uint32_t position = begin; position < end && position < stream.wordCount;) {
    ListedCommand command;
    command.offset = position;
    const std::uint32_t word0 = loupe_le_u32(stream.words + 4u * position);
    const auto* info =
        loupe_ethosu_find_command(word0 & (LOUPE_ETHOSU_OPCODE_MASK | LOUPE_ETHOSU_CONTROL_MASK));
    const std::uint32_t count = info != nullptr ? info->words : 1u;
    std::uint32_t word1 = 0;
    command.words.push_back(word0);
    if (count == 2 && position + 1 < stream.wordCount) {
      word1 = loupe_le_u32(stream.words + 4u * (position + 1));
      command.words.push_back(word1);
    }
    command.name = info != nullptr ? info->name : "UNKNOWN";
    if (info != nullptr) {
      const auto& fields = fieldsByCommand();
      if (const auto found = fields.find(info->code); found != fields.end()) {
        for (const loupe_ethosu_field_info* field : found->second) {
          ListedCommand::Field listed;
          listed.name = field->name;
          // Each branch widened on its own: a ?: of int32_t and uint32_t is
          // uint32_t, which would show a zero point of -128 as 4294967168.
          listed.value =
              field->is_signed
                  ? std::int64_t{loupe_ethosu_field_get_signed(word0, word1, field->lsb,
                                                               field->width)}
                  : std::int64_t{loupe_ethosu_field_get(word0, word1, field->lsb, field->width)};
          if (field->enum_name != nullptr) {
            const char* name =
                loupe_ethosu_enum_name(field->enum_name, static_cast<std::uint32_t>(listed.value));
            if (name != nullptr) listed.enumName = name;
          }
          listed.address = listed.name == "addr" || listed.name == "addr_hi";
          command.fields.push_back(std::move(listed));
        }
      }
    }
    position += static_cast<std::uint32_t>(command.words.size());
    commands.push_back(std::move(command));
  }
  return commands;
}

std::string fieldValueText(const ListedCommand::Field& field) {
  if (!field.enumName.empty()) return field.enumName;
  if (field.address) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(field.value));
    return text;
  }
  return std::to_string(field.value);
}

// The operation each control operation's word is listed with: the next one
// that does work (loupe_ethosu_operation_is_control), by position in the stream.
std::map<std::size_t, std::size_t> controlOperationsListedWith(
    const std::vector<Operation>& operations) {
  std::map<std::size_t, std::size_t> listedWith;
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    if (loupe_ethosu_operation_is_control(&operations[i])) {
      pending.push_back(i);
      continue;
    }
    for (std::size_t control : pending) listedWith[control] = i;
    pending.clear();
  }
  return listedWith;
}

std::string commandLineText(const ListedCommand& command) {
  char head[64];
  std::snprintf(head, sizeof head, "  %5u  ", command.offset);
  std::string text = head;
  std::string words = ethosuHexWord(command.words[0]);
  words += command.words.size() > 1 ? " " + ethosuHexWord(command.words[1]) : std::string(11, ' ');
  text += words + "  " + command.name;
  for (std::size_t i = 0; i < command.fields.size(); ++i) {
    text +=
        (i == 0 ? "  " : " ") + command.fields[i].name + "=" + fieldValueText(command.fields[i]);
  }
  return text + "\n";
}

std::string actionsText(const frontend::EthosUPayload& payload) {
  std::string text =
      "payload: " + std::to_string(payload.payloadWords) + " words; OPTIMIZER_CONFIG " +
      std::string(ir::ethosuAcceleratorName(payload.accelerator)) + " (CONFIG " +
      ethosuHexWord(payload.configWord) + ", ID " + ethosuHexWord(payload.idWord) + ")";
  for (const auto& stream : payload.streams) {
    text += "; COMMAND_STREAM of " + std::to_string(stream.wordCount) + " words at word " +
            std::to_string(stream.payloadWordOffset);
  }
  return text + "\n";
}

}  // namespace

frontend::EthosUPayload ethosuPayloadOf(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* payload = op.type == ir::OpType::EthosU ? graph.input(op, 0) : nullptr;
  if (payload == nullptr || !payload->isConstant) {
    throw frontend::EthosUPayloadError("operator " + std::to_string(op.index) +
                                       " is not an ethos-u operator with a payload");
  }
  return frontend::readEthosUPayload({payload->data.data(), payload->data.size()});
}

std::string npuOperationsText(const frontend::EthosUPayload& payload, const std::string& indent) {
  std::string text;
  for (const auto& stream : payload.streams) {
    for (const Operation& op : stream.operations) {
      if (op.kind == LOUPE_ETHOSU_OPERATION_STOP) continue;
      char head[32];
      std::snprintf(head, sizeof head, "npu %3u  ", op.index);
      text += indent + head + operationSummary(op) + "\n";
    }
  }
  return text;
}

nlohmann::json npuOperationsJson(const frontend::EthosUPayload& payload) {
  nlohmann::json operations = nlohmann::json::array();
  for (const auto& stream : payload.streams) {
    for (const Operation& op : stream.operations) {
      if (op.kind != LOUPE_ETHOSU_OPERATION_STOP) operations.push_back(operationJson(op));
    }
  }
  return operations;
}

std::string commandListingText(const frontend::EthosUPayload& payload) {
  std::string text = actionsText(payload);
  for (std::size_t s = 0; s < payload.streams.size(); ++s) {
    const auto& stream = payload.streams[s];
    text += "\ncommand stream " + std::to_string(s) + " (" + std::to_string(stream.wordCount) +
            " words, offsets in words from its start):\n";
    // A wait is listed among the words of the operation it precedes, marked
    // with its own operation number, under no heading of its own.
    std::map<std::uint32_t, std::uint32_t> controlIndexAt;
    for (const Operation& op : stream.operations) {
      if (loupe_ethosu_operation_is_control(&op)) controlIndexAt[op.first_word] = op.index;
    }
    std::uint32_t listedTo = 0;
    for (const Operation& op : stream.operations) {
      listedTo = std::max(listedTo, op.end_word);
      if (loupe_ethosu_operation_is_control(&op)) continue;
      text += "\noperation " + std::to_string(op.index) + ": " + operationSummary(op) + "\n";
      for (const auto& command : listCommands(stream, op.first_word, op.end_word)) {
        std::string line = commandLineText(command);
        if (const auto control = controlIndexAt.find(command.offset);
            control != controlIndexAt.end()) {
          line.insert(line.size() - 1, "  (operation " + std::to_string(control->second) + ")");
        }
        text += line;
      }
    }
    // Words after the last operation (after STOP): listed, not dropped.
    if (listedTo < stream.wordCount) {
      text += "\nafter the last operation:\n";
      for (const auto& command : listCommands(stream, listedTo, stream.wordCount)) {
        text += commandLineText(command);
      }
    }
  }
  return text;
}

nlohmann::json commandListingJson(const frontend::EthosUPayload& payload) {
  nlohmann::json streams = nlohmann::json::array();
  for (const auto& stream : payload.streams) {
    nlohmann::json operations = nlohmann::json::array();
    const auto listedWith = controlOperationsListedWith(stream.operations);
    for (std::size_t i = 0; i < stream.operations.size(); ++i) {
      const Operation& op = stream.operations[i];
      nlohmann::json entry = operationJson(op);
      nlohmann::json commands = nlohmann::json::array();
      // One entry per operation, so the entries line up with the decoder's
      // operations; a control operation's word is among the commands of
      // the operation it is listed with.
      if (const auto with = listedWith.find(i); with != listedWith.end()) {
        entry["listed_with"] = stream.operations[with->second].index;
        entry["commands"] = std::move(commands);
        operations.push_back(std::move(entry));
        continue;
      }
      for (const auto& command : listCommands(stream, op.first_word, op.end_word)) {
        nlohmann::json words = nlohmann::json::array();
        for (std::uint32_t word : command.words) words.push_back(ethosuHexWord(word));
        nlohmann::json fields = nlohmann::json::array();
        for (const auto& field : command.fields) {
          nlohmann::json f = {{"name", field.name}, {"value", field.value}};
          if (!field.enumName.empty()) f["enum"] = field.enumName;
          fields.push_back(std::move(f));
        }
        commands.push_back({{"offset", command.offset},
                            {"words", words},
                            {"command", command.name},
                            {"fields", fields}});
      }
      entry["commands"] = std::move(commands);
      operations.push_back(std::move(entry));
    }
    streams.push_back({{"payload_word_offset", stream.payloadWordOffset},
                       {"words", stream.wordCount},
                       {"operations", operations}});
  }
  return {{"accelerator", std::string(ir::ethosuAcceleratorName(payload.accelerator))},
          {"config_word", ethosuHexWord(payload.configWord)},
          {"id_word", ethosuHexWord(payload.idWord)},
          {"payload_words", payload.payloadWords},
          {"workspace_values", payload.workspaceValues},
          {"streams", streams}};
}

}  // namespace loupe::analysis
