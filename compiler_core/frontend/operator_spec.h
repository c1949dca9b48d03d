// What the importer requires of each supported TFLite operator: how many
// inputs and outputs, which builtin options table it carries, and the newest
// operator version Loupe understands.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/op_type.h"

namespace loupe::frontend {

struct OperatorSpec {
  ir::OpType type;
  int minInputs;
  int maxInputs;  // -1: any number (CONCATENATION)
  int outputs;
  std::uint8_t optionsType;  // TFLite BuiltinOptions union value; 0 when none
  bool optionsRequired;      // options hold values with no usable default (strides, ...)
  int maxVersion;
};

const OperatorSpec& operatorSpec(ir::OpType type);

}  // namespace loupe::frontend
