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
  const auto* attrs = attributesOf<ir::ElementwiseAttrs>(op);
  if (attrs == nullptr) return "SUB operator carries no element-wise attributes";
  if (auto problem =
          checkBinaryOperands(graph, op, {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16})) {
    return problem;
  }
  if (auto problem = unsupportedActivation(attrs->activation)) return problem;
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input1.dtype != ir::DType::Float32) {
    if (auto problem = checkPerTensorQuantization("input1", input1)) return problem;
    if (auto problem = checkPerTensorQuantization("input2", input2)) return problem;
    if (auto problem = checkPerTensorQuantization("output", output)) return problem;
    if (auto problem = checkAddSubScales(input1, input2, output)) return problem;
  }
  return std::nullopt;
}

void evalSub(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  switch (output.dtype) {
    case ir::DType::Float32: {
      const FloatRange range = floatActivationRange(attrs.activation);
      evalBinaryBroadcast<float>(graph, op, store, [&](float a, float b) {
        return loupe_clamp_f32(a - b, range.min, range.max);
      });
      break;
    }
    case ir::DType::Int8: {
      const loupe_add_sub_params p = addSubParams(input1, input2, output, attrs.activation);
      evalBinaryBroadcast<std::int8_t>(graph, op, store, [&](std::int8_t a, std::int8_t b) {
        return static_cast<std::int8_t>(loupe_sub_element(a, b, &p));
      });
      break;
    }
    default: {
      const loupe_add_sub_params p = addSubParams(input1, input2, output, attrs.activation);
      evalBinaryBroadcast<std::int16_t>(graph, op, store, [&](std::int16_t a, std::int16_t b) {
        return static_cast<std::int16_t>(loupe_sub_element(a, b, &p));
      });
      break;
    }
  }
}

}  // namespace

extern const Kernel kSubKernel{ir::OpType::Sub, checkSub, evalSub};

}  // namespace loupe::reference
