// RESHAPE (and the other no-copy shape operators): the output holds the input's
// bytes unchanged; only the shape differs, and the importer already checked
// that both have the same number of elements.
#include <algorithm>

#include "reference/kernel.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkReshape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input == nullptr) return "RESHAPE needs an input tensor";
  if (input->byteSize() != output.byteSize()) {
    return "input has " + std::to_string(input->byteSize()) + " bytes but output '" + output.name +
           "' has " + std::to_string(output.byteSize());
  }
  return std::nullopt;
}

void evalReshape(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  (void)graph;
  auto in = store.bytes(op.inputs[0]);
  std::copy(in.begin(), in.end(), store.mutableBytes(op.outputs[0]).begin());
}

}  // namespace

extern const Kernel kReshapeKernel{ir::OpType::Reshape, checkReshape, evalReshape};

}  // namespace loupe::reference
