#include "frontend/vela_operator.h"

#include <algorithm>
#include <cctype>

#include "ir/graph_printer.h"

namespace loupe::frontend {

namespace {

std::int64_t inputBytes(const ir::Graph& graph, const ir::Operator& op, std::size_t slot) {
  if (slot >= op.inputs.size()) return 0;
  const ir::Tensor* tensor = graph.input(op, slot);
  return tensor ? tensor->byteSize() : 0;
}

}  // namespace

std::optional<VelaOperator> velaOperator(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::OpaqueAttrs>(&op.attributes);
  if (op.type != ir::OpType::Opaque || attrs == nullptr || attrs->customCode != kVelaCustomCode ||
      op.inputs.empty()) {
    return std::nullopt;
  }
  const ir::Tensor* stream = graph.input(op, 0);
  if (stream == nullptr || !stream->isConstant) return std::nullopt;
  VelaOperator vela;
  vela.commandStreamBytes = static_cast<std::int64_t>(stream->data.size());
  vela.flashBytes = inputBytes(graph, op, 1);
  vela.scratchBytes = inputBytes(graph, op, 2);
  vela.fastScratchBytes = inputBytes(graph, op, 3);
  if (stream->data.size() >= 4 && std::all_of(stream->data.begin(), stream->data.begin() + 4,
                                              [](std::uint8_t c) { return std::isalnum(c); })) {
    vela.magic.assign(stream->data.begin(), stream->data.begin() + 4);
  }
  return vela;
}

std::string describeVelaOperator(const VelaOperator& vela) {
  std::string text =
      "Ethos-U command stream of " + ir::groupDigits(vela.commandStreamBytes) + " bytes";
  if (!vela.magic.empty()) text += " (" + vela.magic + ")";
  text += ", " + ir::groupDigits(vela.flashBytes) + " bytes of encoded weights, " +
          ir::groupDigits(vela.scratchBytes) + " + " + ir::groupDigits(vela.fastScratchBytes) +
          " bytes of scratch";
  return text;
}

std::string velaRefusal(const VelaOperator& vela) {
  return "precompiled Ethos-U command streams (from Vela) cannot run in Loupe: this operator is "
         "an " +
         describeVelaOperator(vela) +
         " for real Ethos-U hardware, and Loupe's NPU (Ethos-U55-like) compiles from the "
         "original operators instead. Open the model as it was before Vela (the int8 .tflite) "
         "and compile it with --target \"npu -config=npu-128, c\"";
}

}  // namespace loupe::frontend
