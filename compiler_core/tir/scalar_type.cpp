#include "tir/scalar_type.h"

#include <stdexcept>
#include <string>

namespace loupe::tir {

std::string_view scalarTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::Int8:
      return "int8";
    case ScalarType::UInt8:
      return "uint8";
    case ScalarType::Int16:
      return "int16";
    case ScalarType::Int32:
      return "int32";
    case ScalarType::Int64:
      return "int64";
    case ScalarType::Float32:
      return "float32";
    case ScalarType::Void:
      return "void";
  }
  return "?";
}

std::string_view cTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::Bool:
      return "int";
    case ScalarType::Int8:
      return "int8_t";
    case ScalarType::UInt8:
      return "uint8_t";
    case ScalarType::Int16:
      return "int16_t";
    case ScalarType::Int32:
      return "int32_t";
    case ScalarType::Int64:
      return "int64_t";
    case ScalarType::Float32:
      return "float";
    case ScalarType::Void:
      return "void";
  }
  return "?";
}

ScalarType fromDType(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::Int8:
      return ScalarType::Int8;
    case ir::DType::UInt8:
      return ScalarType::UInt8;
    case ir::DType::Int16:
      return ScalarType::Int16;
    case ir::DType::Int32:
      return ScalarType::Int32;
    case ir::DType::Int64:
      return ScalarType::Int64;
    case ir::DType::Float32:
      return ScalarType::Float32;
    case ir::DType::Bool:
      return ScalarType::Bool;
    default:
      break;
  }
  throw std::invalid_argument("TIR has no element type for " + std::string(ir::dtypeName(dtype)));
}

bool isFloat(ScalarType type) {
  return type == ScalarType::Float32;
}

std::size_t scalarTypeBytes(ScalarType type) {
  switch (type) {
    case ScalarType::Int8:
    case ScalarType::UInt8:
      return 1;
    case ScalarType::Int16:
      return 2;
    case ScalarType::Bool:
    case ScalarType::Int32:
    case ScalarType::Float32:
      return 4;
    case ScalarType::Int64:
      return 8;
    case ScalarType::Void:
      return 0;
  }
  return 8;
}

}  // namespace loupe::tir
