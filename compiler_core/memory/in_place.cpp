#include "memory/in_place.h"

namespace loupe::memory {

namespace {

// Operators whose lowering walks the output in row-major order and reads an
// input of the output's shape at the output's own index: the binary ones
// (lower_elementwise_binary) and the one-input ones, which are one flat loop
// of a table load or a helper call per element (lowering/elementwise_unary).
bool isElementWise(ir::OpType type) {
  switch (type) {
    case ir::OpType::Add:
    case ir::OpType::Sub:
    case ir::OpType::Mul:
    case ir::OpType::Logistic:
    case ir::OpType::Tanh:
    case ir::OpType::Relu:
    case ir::OpType::Relu6:
    case ir::OpType::LeakyRelu:
    case ir::OpType::HardSwish:
    case ir::OpType::Quantize:
    case ir::OpType::Dequantize:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool mayWriteInPlace(const ir::Graph& graph, const ir::Operator& op, std::size_t slot) {
  if (!isElementWise(op.type) || op.outputs.size() != 1 || slot >= op.inputs.size()) return false;
  const ir::Tensor* in = graph.input(op, slot);
  if (in == nullptr || in->isConstant || in->isVariable) return false;
  const ir::Tensor& out = graph.output(op, 0);
  return in->shape == out.shape && ir::dtypeSize(in->dtype) == ir::dtypeSize(out.dtype);
}

}  // namespace loupe::memory
