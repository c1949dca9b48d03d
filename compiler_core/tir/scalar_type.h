// Element and value types of TIR: what a buffer holds and what an expression
// evaluates to. A smaller set than the graph's DType because TIR only needs
// the types generated C computes with.
#pragma once

#include <cstddef>
#include <string_view>

#include "ir/dtype.h"

namespace loupe::tir {

// Void is only the result type of a call made for its effect (a kernel that
// writes through its pointer arguments); no buffer or value has it.
enum class ScalarType { Bool, Int8, UInt8, Int16, Int32, Int64, Float32, Void };

// TVM script spelling: "int8", "float32", "bool".
std::string_view scalarTypeName(ScalarType type);

// The C99 spelling: "int8_t", "float", "int" (bool is int in C99 without stdbool).
std::string_view cTypeName(ScalarType type);

// The TIR type of a graph tensor's elements; throws for types TIR cannot hold.
ScalarType fromDType(ir::DType dtype);

bool isFloat(ScalarType type);

// Bytes of one element in generated C (bool is a C int: 4 on our targets).
std::size_t scalarTypeBytes(ScalarType type);

}  // namespace loupe::tir
