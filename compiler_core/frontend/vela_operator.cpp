#include "frontend/vela_operator.h"

#include <algorithm>
#include <cstring>

#include "frontend/ethosu_payload_reader.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"

namespace loupe::frontend {

namespace {

// The file's operand slots of the Vela operator.
constexpr std::size_t kPayloadSlot = 0, kFlashSlot = 1, kScratchSlot = 2, kFastScratchSlot = 3,
                      kFirstFeatureMapSlot = 4;

[[noreturn]] void failVela(const std::string& where, const std::string& what) {
  throw ImportError(where + ": " + what);
}

std::string velaTensorLabel(const ir::Tensor& tensor) {
  return "tensor " + std::to_string(tensor.index) + " '" + tensor.name + "'";
}

struct ArenaSpan {
  std::int64_t begin = 0, end = 0;
  int tensor = -1;
};

// The offset of a feature map in the scratch arena, checked to lie inside it.
std::int64_t featureMapOffset(const ir::Graph& graph, int index, std::int64_t scratchStart,
                              std::int64_t scratchBytes,
                              const std::vector<std::int32_t>& arenaOffsets, const char* role,
                              const std::string& where) {
  const ir::Tensor& tensor = graph.tensor(index);
  if (tensor.isConstant) {
    failVela(where, std::string(role) + " " + velaTensorLabel(tensor) +
                        " is a constant; Vela's feature maps live in the scratch arena");
  }
  const std::int32_t offset = arenaOffsets.at(static_cast<std::size_t>(index));
  if (offset < 0) {
    failVela(where, std::string(role) + " " + velaTensorLabel(tensor) +
                        " has no offset in OfflineMemoryAllocation");
  }
  const std::int64_t relative = offset - scratchStart;
  if (relative < 0 || relative + tensor.byteSize() > scratchBytes) {
    failVela(where, std::string(role) + " " + velaTensorLabel(tensor) + " (" +
                        std::to_string(tensor.byteSize()) + " bytes at arena offset " +
                        std::to_string(offset) + ") lies outside the scratch area (" +
                        std::to_string(scratchBytes) + " bytes at offset " +
                        std::to_string(scratchStart) + ")");
  }
  return relative;
}

// Two inputs (or two outputs) in the same bytes would make one overwrite the
// other as they are copied in (out).
void requireDisjoint(const ir::Graph& graph, std::vector<ArenaSpan> spans, const char* role,
                     const std::string& where) {
  std::sort(spans.begin(), spans.end(),
            [](const ArenaSpan& a, const ArenaSpan& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < spans.size(); ++i) {
    const ArenaSpan& a = spans[i - 1];
    const ArenaSpan& b = spans[i];
    if (a.tensor != b.tensor && b.begin < a.end) {
      failVela(where, std::string(role) + "s " + velaTensorLabel(graph.tensor(a.tensor)) + " and " +
                          velaTensorLabel(graph.tensor(b.tensor)) +
                          " overlap in the scratch arena (offsets " + std::to_string(a.begin) +
                          " and " + std::to_string(b.begin) + ")");
    }
  }
}

}  // namespace

std::vector<std::int32_t> parseOfflineMemoryAllocation(std::span<const std::uint8_t> bytes,
                                                       std::size_t tensorCount) {
  const std::string what = "metadata OfflineMemoryAllocation";
  if (bytes.size() % 4 != 0 || bytes.size() < 12) {
    throw ImportError(what + " has " + std::to_string(bytes.size()) +
                      " bytes; expected int32 words: version, subgraph, count, offsets");
  }
  std::vector<std::int32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  // words[1] is not checked: Vela writes the number of subgraphs there, and
  // TFLite Micro, which plans subgraph 0 with it, ignores it.
  if (words[2] < 0 || static_cast<std::size_t>(words[2]) != tensorCount) {
    throw ImportError(what + " gives " + std::to_string(words[2]) + " offsets but subgraph 0 has " +
                      std::to_string(tensorCount) + " tensors");
  }
  if (words.size() - 3 < tensorCount) {
    throw ImportError(what + " is truncated: " + std::to_string(words.size() - 3) +
                      " offsets for " + std::to_string(tensorCount) + " tensors");
  }
  for (std::size_t i = 0; i < tensorCount; ++i) {
    if (words[3 + i] < -1) {
      throw ImportError(what + " gives tensor " + std::to_string(i) + " the offset " +
                        std::to_string(words[3 + i]));
    }
  }
  return {words.begin() + 3, words.begin() + 3 + static_cast<std::ptrdiff_t>(tensorCount)};
}

ir::Operator velaOperatorToEthosU(const ir::Graph& graph, ir::Operator op,
                                  const std::vector<std::int32_t>& arenaOffsets,
                                  const std::string& where) {
  if (op.inputs.size() < kFirstFeatureMapSlot || op.outputs.empty()) {
    failVela(where, "has " + std::to_string(op.inputs.size()) + " inputs and " +
                        std::to_string(op.outputs.size()) +
                        " outputs; expected the payload, flash, scratch and fast scratch, then "
                        "the feature maps, and at least one output");
  }
  const ir::Tensor* payload = graph.input(op, kPayloadSlot);
  if (payload == nullptr || !payload->isConstant || payload->data.empty()) {
    failVela(where, "input 0 (the Ethos-U driver payload) must be a constant holding it");
  }
  const ir::Tensor* flash = graph.input(op, kFlashSlot);
  if (flash != nullptr && !flash->isConstant && flash->byteSize() > 0) {
    failVela(where, "input 1 (the flash: encoded weights) " + velaTensorLabel(*flash) +
                        " is not a constant");
  }
  const ir::Tensor* scratch = graph.input(op, kScratchSlot);
  const ir::Tensor* fastScratch = graph.input(op, kFastScratchSlot);
  for (const ir::Tensor* area : {scratch, fastScratch}) {
    if (area != nullptr && area->isConstant) {
      failVela(where, "the scratch area " + velaTensorLabel(*area) + " is a constant");
    }
  }
  if (scratch == nullptr) failVela(where, "has no scratch area (input 2)");

  EthosUPayload decoded;
  try {
    decoded = readEthosUPayload({payload->data.data(), payload->data.size()});
  } catch (const EthosUPayloadError& error) {
    failVela(where, std::string("malformed Ethos-U payload: ") + error.what());
  }

  if (arenaOffsets.empty()) {
    failVela(where,
             "the model has no metadata OfflineMemoryAllocation, which places the "
             "feature maps in the scratch area the command stream addresses");
  }
  ir::EthosUAttrs attrs;
  attrs.accelerator = decoded.accelerator;
  attrs.workspaceValues = decoded.workspaceValues;
  attrs.npuOperations = decoded.operationCount();
  attrs.macs = decoded.macs();
  attrs.scratchBytes = scratch->byteSize();
  const std::int32_t scratchStart = arenaOffsets.at(static_cast<std::size_t>(scratch->index));
  if (scratchStart < 0) {
    failVela(where, "the scratch area " + velaTensorLabel(*scratch) +
                        " has no offset in OfflineMemoryAllocation");
  }
  if (fastScratch != nullptr) {
    attrs.fastScratchBytes = fastScratch->byteSize();
    const std::int32_t fastStart = arenaOffsets.at(static_cast<std::size_t>(fastScratch->index));
    const std::int64_t relative = std::int64_t{fastStart} - scratchStart;
    // On the U55 Vela puts both in the one SRAM: the same bytes, as TFLite
    // Micro then hands the NPU.
    if (fastStart >= 0 && relative >= 0 &&
        relative + attrs.fastScratchBytes <= attrs.scratchBytes) {
      attrs.fastScratchOffset = relative;
    } else if (fastStart >= 0 && relative < attrs.scratchBytes &&
               relative + attrs.fastScratchBytes > 0) {
      failVela(where, "the fast scratch area " + velaTensorLabel(*fastScratch) +
                          " partly overlaps the scratch area in the arena");
    }
  }

  std::vector<int> inputs = {op.inputs[kPayloadSlot],
                             flash != nullptr && flash->isConstant ? flash->index : ir::kNoTensor};
  std::vector<ArenaSpan> inputSpans, outputSpans;
  for (std::size_t slot = kFirstFeatureMapSlot; slot < op.inputs.size(); ++slot) {
    const int index = op.inputs[slot];
    if (index == ir::kNoTensor) failVela(where, "input " + std::to_string(slot) + " is absent");
    const std::int64_t offset = featureMapOffset(graph, index, scratchStart, attrs.scratchBytes,
                                                 arenaOffsets, "input", where);
    attrs.inputOffsets.push_back(offset);
    inputSpans.push_back({offset, offset + graph.tensor(index).byteSize(), index});
    inputs.push_back(index);
  }
  for (int index : op.outputs) {
    const std::int64_t offset = featureMapOffset(graph, index, scratchStart, attrs.scratchBytes,
                                                 arenaOffsets, "output", where);
    attrs.outputOffsets.push_back(offset);
    outputSpans.push_back({offset, offset + graph.tensor(index).byteSize(), index});
  }
  requireDisjoint(graph, inputSpans, "input", where);
  requireDisjoint(graph, outputSpans, "output", where);

  op.type = ir::OpType::EthosU;
  op.inputs = std::move(inputs);
  op.attributes = std::move(attrs);
  return op;
}

std::string describeEthosUOperator(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::EthosUAttrs>(&op.attributes);
  if (op.type != ir::OpType::EthosU || attrs == nullptr) return "";
  const ir::Tensor* payload = graph.input(op, kPayloadSlot);
  const ir::Tensor* flash = graph.input(op, kFlashSlot);
  std::string text =
      "Ethos-U command stream for " + std::string(ir::ethosuAcceleratorName(attrs->accelerator)) +
      ": " + ir::groupDigits(payload ? payload->byteSize() : 0) + " bytes, " +
      std::to_string(attrs->npuOperations) + " NPU operations, " +
      ir::groupDigits(flash ? flash->byteSize() : 0) + " bytes of encoded weights, " +
      ir::groupDigits(attrs->scratchBytes) + " bytes of scratch";
  if (attrs->fastScratchOffset < 0 && attrs->fastScratchBytes > 0) {
    text += " + " + ir::groupDigits(attrs->fastScratchBytes) + " of fast scratch";
  }
  return text;
}

}  // namespace loupe::frontend
