// SUB with broadcasting. Follows TFLite Micro:
//   float32     a - b, then the fused activation's clamp;
//   int8/int16  the general rescaling path of loupe_sub_element (the same
//               parameters as ADD: left shift 20 for int8, 15 for int16).
// TFLite Micro's SUB has no int32 kernel, so neither has the oracle.
#include <cstdint>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "reference/elementwise_binary_common.h"
#include "reference/kernel.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkSub(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseBinary(
          graph, op, {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16})) {
    return problem;
  }
  if (graph.input(op, 0)->dtype != ir::DType::Float32) {
    if (auto problem = checkBinaryQuantization(graph, op)) return problem;
    return checkAddSubScales(ir::OpType::Sub, *graph.input(op, 0), *graph.input(op, 1),
                             graph.output(op, 0));
  }
  return std::nullopt;
}

void evalSub(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (output.dtype == ir::DType::Float32) {
    evalFloatBinary(graph, op, store, attrs.activation, [](float a, float b) { return a - b; });
    return;
  }
  evalQuantizedBinary(graph, op, store,
                      addSubParams(ir::OpType::Sub, input1, input2, output, attrs.activation),
                      loupe_sub_element);
}

}  // namespace

extern const Kernel kSubKernel{ir::OpType::Sub, checkSub, evalSub};

}  // namespace loupe::reference
