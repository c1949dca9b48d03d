// Small helpers the reference kernels share for their `check` functions and
// for reading operands: describing shapes and dtypes in diagnostics, reading
// constant integer operands, and walking shapes. Private to
// compiler_core/reference; the messages say what was expected and what was
// found.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::reference {

inline std::string describeShape(const ir::Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

inline std::string describeDtype(ir::DType type) {
  return std::string(ir::dtypeName(type));
}

// "input 1 ('name')" / "output 0 ('name')" for diagnostics.
inline std::string describeOperand(const char* role, std::size_t slot, const ir::Tensor& tensor) {
  return std::string(role) + " " + std::to_string(slot) + " ('" + tensor.name + "')";
}

inline bool hasInput(const ir::Operator& op, std::size_t slot) {
  return slot < op.inputs.size() && op.inputs[slot] != ir::kNoTensor;
}

// Reads a constant int32 or int64 operand as int64 values; nullopt when the
// tensor is not constant, not integer, or its data is short.
inline std::optional<std::vector<std::int64_t>> constantIntegers(const ir::Tensor& tensor) {
  if (!tensor.isConstant) return std::nullopt;
  const auto count = static_cast<std::size_t>(tensor.elementCount());
  std::vector<std::int64_t> values(count);
  if (tensor.dtype == ir::DType::Int32) {
    if (tensor.data.size() < count * 4) return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      std::int32_t v;
      std::memcpy(&v, tensor.data.data() + i * 4, 4);
      values[i] = v;
    }
    return values;
  }
  if (tensor.dtype == ir::DType::Int64) {
    if (tensor.data.size() < count * 8) return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      std::int64_t v;
      std::memcpy(&v, tensor.data.data() + i * 8, 8);
      values[i] = v;
    }
    return values;
  }
  return std::nullopt;
}

// Products of dimensions [begin, end) of a shape.
inline std::int64_t dimensionProduct(const ir::Shape& shape, std::size_t begin, std::size_t end) {
  std::int64_t product = 1;
  for (std::size_t i = begin; i < end && i < shape.size(); ++i) product *= shape[i];
  return product;
}

// Checks the operator has at least `inputs` present inputs in slots [0,
// inputs) and exactly one output; returns the reason otherwise.
inline std::optional<std::string> checkArity(const ir::Operator& op, const char* opName,
                                             std::size_t inputs, std::size_t outputs = 1) {
  for (std::size_t slot = 0; slot < inputs; ++slot) {
    if (!hasInput(op, slot)) {
      return std::string(opName) + " needs input " + std::to_string(slot) + " (expected " +
             std::to_string(inputs) + " inputs, found " + std::to_string(op.inputs.size()) + ")";
    }
  }
  if (op.outputs.size() != outputs) {
    return std::string(opName) + " expects " + std::to_string(outputs) + " output(s), found " +
           std::to_string(op.outputs.size());
  }
  return std::nullopt;
}

}  // namespace loupe::reference
