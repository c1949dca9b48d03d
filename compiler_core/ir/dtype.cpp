#include "ir/dtype.h"

#include <array>
#include <utility>

namespace loupe::ir {

namespace {
struct DTypeInfo {
  DType type;
  std::string_view name;
  std::size_t size;
};
constexpr std::array kDTypes = {
    DTypeInfo{DType::Float32, "float32", 4}, DTypeInfo{DType::Float16, "float16", 2},
    DTypeInfo{DType::Int8, "int8", 1},       DTypeInfo{DType::UInt8, "uint8", 1},
    DTypeInfo{DType::Int16, "int16", 2},     DTypeInfo{DType::UInt16, "uint16", 2},
    DTypeInfo{DType::Int32, "int32", 4},     DTypeInfo{DType::UInt32, "uint32", 4},
    DTypeInfo{DType::Int64, "int64", 8},     DTypeInfo{DType::Bool, "bool", 1},
};

const DTypeInfo& info(DType type) {
  for (const auto& entry : kDTypes) {
    if (entry.type == type) return entry;
  }
  return kDTypes[0];  // unreachable: every enumerator is listed above
}
}  // namespace

std::size_t dtypeSize(DType type) {
  return info(type).size;
}

std::string_view dtypeName(DType type) {
  return info(type).name;
}

std::optional<DType> dtypeFromName(std::string_view name) {
  for (const auto& entry : kDTypes) {
    if (entry.name == name) return entry.type;
  }
  return std::nullopt;
}

}  // namespace loupe::ir
