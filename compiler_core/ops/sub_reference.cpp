// SUB with broadcasting. Follows TFLite Micro:
//   float32     a - b, then the fused activation's clamp;
//   int32       a - b (unquantised), wrapping in two's complement, then the
//               fused activation's clamp (unlike ADD, TFLM's int32 SUB
//               applies it);
//   int8/int16  the general rescaling path of loupe_sub_element (the same
//               parameters as ADD: left shift 20 for int8, 15 for int16).
#include <cstdint>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "ops/elementwise_binary_common.h"
#include "reference/kernel.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkSub(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseBinary(
          graph, op, {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16, ir::DType::Int32})) {
    return problem;
  }
  if (graph.input(op, 0)->dtype == ir::DType::Int32) {
    for (const auto& [role, t] : {std::pair{"input1", graph.input(op, 0)},
                                  {"input2", graph.input(op, 1)},
                                  {"output", &graph.output(op, 0)}}) {
      if (t->quantization.isQuantized()) {
        return "int32 SUB is supported unquantised only; " + describeTensor(role, *t) +
               " has quantisation parameters";
      }
    }
    return std::nullopt;
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
  if (output.dtype == ir::DType::Int32) {
    const IntRange range = int32ActivationRange(attrs.activation);
    evalBinaryBroadcast<std::int32_t>(graph, op, store, [&](std::int32_t a, std::int32_t b) {
      const auto difference =
          static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
      return loupe_clamp_i32(difference, range.min, range.max);
    });
    return;
  }
  evalQuantizedBinary(graph, op, store,
                      addSubParams(ir::OpType::Sub, input1, input2, output, attrs.activation),
                      loupe_sub_element);
}

}  // namespace

extern const Kernel kSubKernel{ir::OpType::Sub, checkSub, evalSub};

}  // namespace loupe::reference
