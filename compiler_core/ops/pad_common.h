// What PAD and PADV2 share: the operand checks and the copy into the padded
// output. Follows TFLite Micro: up to 5-D, constant int32 paddings of shape
// [rank, 2] (before, after), and the pad value chosen by padValueOf.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/kernel_checks.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

inline constexpr std::size_t kMaxPadRank = 5;

// Checks input, paddings and, for PADV2, the optional constant value in slot 2.
inline std::optional<std::string> checkPadOperands(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* paddings = graph.input(op, 1);
  const ir::Tensor* value = graph.input(op, 2);
  if (input == nullptr) return "missing the input tensor (input 0)";
  if (paddings == nullptr) return "missing the paddings tensor (input 1)";
  if (op.outputs.size() != 1)
    return "expected one output, found " + std::to_string(op.outputs.size());
  const ir::Tensor& output = graph.output(op, 0);
  const auto type = input->dtype;
  if (type != output.dtype || (type != ir::DType::Float32 && type != ir::DType::Int8 &&
                               type != ir::DType::Int16 && type != ir::DType::Int32)) {
    return "unsupported element types (input " + describeDtype(type) + ", output " +
           describeDtype(output.dtype) + "); expected float32, int8, int16 or int32 for both";
  }
  if (input->shape.size() > kMaxPadRank) {
    return describeTensor("input", *input) + " has rank " + std::to_string(input->shape.size()) +
           "; at most " + std::to_string(kMaxPadRank) + " is supported";
  }
  if (output.shape.size() != input->shape.size()) {
    return describeTensor("output", output) + describeTensor(" and input", *input) +
           " differ in rank";
  }
  if (paddings->dtype != ir::DType::Int32 || !paddings->isConstant) {
    return describeTensor("paddings", *paddings) +
           " must be a constant int32 tensor (TFLite Micro reads them when preparing)";
  }
  const auto rank = static_cast<std::int64_t>(input->shape.size());
  if (paddings->elementCount() != rank * 2 ||
      paddings->data.size() != static_cast<std::size_t>(rank * 2 * 4)) {
    return describeTensor("paddings", *paddings) + " must hold " + std::to_string(rank * 2) +
           " values ([rank, 2])";
  }
  std::vector<std::int32_t> pads(static_cast<std::size_t>(rank * 2));
  std::memcpy(pads.data(), paddings->data.data(), pads.size() * sizeof(std::int32_t));
  for (std::size_t d = 0; d < input->shape.size(); ++d) {
    const std::int32_t before = pads[2 * d], after = pads[2 * d + 1];
    if (before < 0 || after < 0) {
      return "negative padding " + std::to_string(before) + "/" + std::to_string(after) +
             " in dimension " + std::to_string(d);
    }
    if (output.shape[d] != input->shape[d] + before + after) {
      return describeTensor("output", output) + " dimension " + std::to_string(d) + " is " +
             std::to_string(output.shape[d]) + "; expected " + std::to_string(input->shape[d]) +
             " + " + std::to_string(before) + " + " + std::to_string(after);
    }
  }
  if (value != nullptr) {
    if (value->dtype != type || value->elementCount() != 1) {
      return describeTensor("constant value", *value) + " must be a single " + describeDtype(type) +
             " element";
    }
    if (type == ir::DType::Int8 &&
        (value->quantization.zeroPoint() != output.quantization.zeroPoint() ||
         value->quantization.scale() != output.quantization.scale())) {
      return describeTensor("constant value", *value) +
             " must have the output's scale and zero point";
    }
  } else if (type == ir::DType::Int8 && !output.quantization.isQuantized()) {
    return describeTensor("output", output) +
           " has no quantisation parameters (the pad value is its zero point)";
  }
  return std::nullopt;
}

// TFLite Micro's pad value: the constant input when there is one; otherwise
// the output zero point for int8, and 0 for float32, int16 and int32 (int16
// is symmetric, so its zero point is not consulted).
template <typename T>
T padValueOf(const ir::Graph& graph, const ir::Operator& op, const TensorStore& store) {
  if (graph.input(op, 2) != nullptr) return *store.data<T>(op.inputs[2]);
  if constexpr (std::is_same_v<T, std::int8_t>) {
    return static_cast<T>(graph.output(op, 0).quantization.zeroPoint());
  }
  return T{};
}

// Writes the padded copy: the pad value outside the input's box, the input
// element inside it.
template <typename T>
void evalPadTyped(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const T* in = store.data<T>(op.inputs[0]);
  T* out = store.mutableData<T>(op.outputs[0]);
  const T value = padValueOf<T>(graph, op, store);
  const std::int32_t* pads = store.data<std::int32_t>(op.inputs[1]);
  const std::size_t rank = output.shape.size();
  std::vector<std::int32_t> counter(rank, 0);
  const std::int64_t total = output.elementCount();
  for (std::int64_t i = 0; i < total; ++i) {
    bool inside = true;
    std::int64_t inIndex = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      const std::int32_t position = counter[d] - pads[2 * d];
      if (position < 0 || position >= input.shape[d]) {
        inside = false;
        break;
      }
      inIndex = inIndex * input.shape[d] + position;
    }
    out[i] = inside ? in[inIndex] : value;
    for (std::size_t d = rank; d-- > 0;) {
      if (++counter[d] < output.shape[d]) break;
      counter[d] = 0;
    }
  }
}

inline void evalPad(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  switch (graph.output(op, 0).dtype) {
    case ir::DType::Float32:
      evalPadTyped<float>(graph, op, store);
      break;
    case ir::DType::Int8:
      evalPadTyped<std::int8_t>(graph, op, store);
      break;
    case ir::DType::Int16:
      evalPadTyped<std::int16_t>(graph, op, store);
      break;
    default:
      evalPadTyped<std::int32_t>(graph, op, store);
      break;
  }
}

}  // namespace loupe::reference
