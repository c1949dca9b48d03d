// What ADD, SUB and MUL share: the operand checks (two inputs of one element
// type broadcasting to the output's shape, NumPy rules, at most 6-D) and the
// broadcast evaluation loop. TFLite's broadcast kernels visit the output in
// row-major order; for these operators the order does not change any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/kernel_checks.h"
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

}  // namespace loupe::reference
