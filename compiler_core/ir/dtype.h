// Element types of graph tensors. The set mirrors TFLite's TensorType for the
// types Loupe can hold; sizes are what a tensor's raw buffer uses per element.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace loupe::ir {

enum class DType {
  Float32,
  Float16,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  Bool,
};

// Bytes one element occupies in a raw little-endian buffer.
std::size_t dtypeSize(DType type);

// Lower-case name as used in manifests and JSON: "int8", "float32", ...
std::string_view dtypeName(DType type);

std::optional<DType> dtypeFromName(std::string_view name);

}  // namespace loupe::ir
