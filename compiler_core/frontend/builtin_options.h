// Converts a TFLite operator's builtin options table into graph IR attributes,
// checking every value (padding, activation, strides, ...) on the way.
// Internal to the frontend: it sees the flatc-generated schema types.
#pragma once

#include <string>

#include "ir/attributes.h"
#include "ir/op_type.h"
#include "tflite_schema_generated.h"

namespace loupe::frontend {

// `where` prefixes error messages ("operator 3 (CONV_2D)"). Throws ImportError.
ir::Attributes convertBuiltinOptions(const tflite::Operator& op, ir::OpType type,
                                     const std::string& where);

}  // namespace loupe::frontend
