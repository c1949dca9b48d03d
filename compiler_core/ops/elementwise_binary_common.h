// What ADD, SUB and MUL share: the operand checks (element-wise attributes
// with a clamp activation, two inputs of one element type broadcasting to the
// output's shape, NumPy rules, at most 6-D, per-tensor quantisation) and the
// broadcast evaluation loops. TFLite's broadcast kernels visit the output in
// row-major order; for these operators the order does not change any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/fused_activation.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

inline constexpr std::size_t kMaxBroadcastRank = 6;

// Checks operand count, element types (both inputs and the output of one of
// `types`) and shapes.
inline std::optional<std::string> checkBinaryOperands(const ir::Graph& graph,
                                                      const ir::Operator& op,
                                                      const std::vector<ir::DType>& types) {
  const ir::Tensor* input1 = graph.input(op, 0);
  const ir::Tensor* input2 = graph.input(op, 1);
  if (input1 == nullptr || input2 == nullptr) return "expected two input tensors";
  if (op.outputs.size() != 1)
    return "expected one output, found " + std::to_string(op.outputs.size());
  const ir::Tensor& output = graph.output(op, 0);
  bool typeOk = false;
  for (ir::DType type : types) typeOk = typeOk || input1->dtype == type;
  if (!typeOk || input2->dtype != input1->dtype || output.dtype != input1->dtype) {
    return "unsupported element types (input1 " + describeDtype(input1->dtype) + ", input2 " +
           describeDtype(input2->dtype) + ", output " + describeDtype(output.dtype) +
           "); expected the same type, " + describeDtypes(types) + ", for all three";
  }
  const auto shape = broadcastShape(input1->shape, input2->shape);
  if (!shape) {
    return "input shapes " + ir::shapeToString(input1->shape) + " and " +
           ir::shapeToString(input2->shape) + " do not broadcast";
  }
  if (*shape != output.shape) {
    return describeTensor("output", output) + " does not match the broadcast shape " +
           ir::shapeToString(*shape) + " of the inputs";
  }
  if (output.shape.size() > kMaxBroadcastRank) {
    return "output rank " + std::to_string(output.shape.size()) + " exceeds the supported " +
           std::to_string(kMaxBroadcastRank);
  }
  return std::nullopt;
}

// The checks ADD, SUB and MUL begin with: element-wise attributes, the
// operands (checkBinaryOperands) and a fused activation that is a clamp.
inline std::optional<std::string> checkElementwiseBinary(const ir::Graph& graph,
                                                         const ir::Operator& op,
                                                         const std::vector<ir::DType>& types) {
  const auto* attrs = attributesOf<ir::ElementwiseAttrs>(op);
  if (attrs == nullptr) return op.typeName() + " operator carries no element-wise attributes";
  if (auto problem = checkBinaryOperands(graph, op, types)) return problem;
  return unsupportedActivation(attrs->activation);
}

// Both inputs and the output quantised per tensor (quantised ADD, SUB, MUL).
inline std::optional<std::string> checkBinaryQuantization(const ir::Graph& graph,
                                                          const ir::Operator& op) {
  if (auto problem = checkPerTensorQuantization("input1", *graph.input(op, 0))) return problem;
  if (auto problem = checkPerTensorQuantization("input2", *graph.input(op, 1))) return problem;
  return checkPerTensorQuantization("output", graph.output(op, 0));
}

// output[i] = combine(input1[j], input2[k]) over the broadcast.
template <typename T, typename Combine>
void evalBinaryBroadcast(const ir::Graph& graph, const ir::Operator& op, TensorStore& store,
                         Combine combine) {
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  const T* a = store.data<T>(op.inputs[0]);
  const T* b = store.data<T>(op.inputs[1]);
  T* out = store.mutableData<T>(op.outputs[0]);
  forEachBroadcastElement(
      output.shape, input1.shape, input2.shape,
      [&](std::int64_t i, std::int64_t j, std::int64_t k) { out[i] = combine(a[j], b[k]); });
}

// float32: output[i] = combine(a, b) clamped to the fused activation's range.
template <typename Combine>
void evalFloatBinary(const ir::Graph& graph, const ir::Operator& op, TensorStore& store,
                     ir::Activation activation, Combine combine) {
  const FloatRange range = floatActivationRange(activation);
  evalBinaryBroadcast<float>(graph, op, store, [&](float a, float b) {
    return loupe_clamp_f32(combine(a, b), range.min, range.max);
  });
}

// int8 or int16 (the output's type): output[i] = element(a, b, &params), the
// quantised element function of loupe/quantized_arith.h.
template <typename Params, typename Element>
void evalQuantizedBinary(const ir::Graph& graph, const ir::Operator& op, TensorStore& store,
                         const Params& params, Element element) {
  if (graph.output(op, 0).dtype == ir::DType::Int8) {
    evalBinaryBroadcast<std::int8_t>(graph, op, store, [&](std::int8_t a, std::int8_t b) {
      return static_cast<std::int8_t>(element(a, b, &params));
    });
  } else {
    evalBinaryBroadcast<std::int16_t>(graph, op, store, [&](std::int16_t a, std::int16_t b) {
      return static_cast<std::int16_t>(element(a, b, &params));
    });
  }
}

}  // namespace loupe::reference
