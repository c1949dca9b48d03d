// SQUEEZE: removes size-1 dimensions; the bytes are copied unchanged. The
// check recomputes the output shape from the squeeze dimensions (all size-1
// dimensions when none are given) and requires the model's output shape to
// match it.
#include <algorithm>

#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkSqueeze(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "SQUEEZE", 1)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != output.dtype) {
    return "input dtype " + describeDtype(input.dtype) + " differs from output dtype " +
           describeDtype(output.dtype);
  }
  const int rank = static_cast<int>(input.shape.size());
  if (rank > 8) return "input rank " + std::to_string(rank) + " exceeds 8";
  std::vector<bool> squeezed(static_cast<std::size_t>(rank), false);
  const auto* attrs = std::get_if<ir::SqueezeAttrs>(&op.attributes);
  if (attrs == nullptr || attrs->squeezeDims.empty()) {
    for (int d = 0; d < rank; ++d) squeezed[d] = input.shape[d] == 1;
  } else {
    for (std::int32_t dim : attrs->squeezeDims) {
      const int current = dim < 0 ? dim + rank : dim;
      if (current < 0 || current >= rank) {
        return "squeeze dimension " + std::to_string(dim) + " is out of range for input shape " +
               ir::shapeToString(input.shape);
      }
      if (input.shape[current] != 1) {
        return "squeeze dimension " + std::to_string(dim) + " has size " +
               std::to_string(input.shape[current]) + " in input shape " +
               ir::shapeToString(input.shape) + " (expected 1)";
      }
      squeezed[current] = true;
    }
  }
  ir::Shape expected;
  for (int d = 0; d < rank; ++d) {
    if (!squeezed[d]) expected.push_back(input.shape[d]);
  }
  if (expected != output.shape) {
    return "squeezing input shape " + ir::shapeToString(input.shape) + " gives " +
           ir::shapeToString(expected) + " but output '" + output.name + "' has shape " +
           ir::shapeToString(output.shape);
  }
  return std::nullopt;
}

void evalSqueeze(const ir::Graph&, const ir::Operator& op, TensorStore& store) {
  auto in = store.bytes(op.inputs[0]);
  std::copy(in.begin(), in.end(), store.mutableBytes(op.outputs[0]).begin());
}

}  // namespace

extern const Kernel kSqueezeKernel{ir::OpType::Squeeze, checkSqueeze, evalSqueeze};

}  // namespace loupe::reference
