// The table of operator definitions, indexed by operator type.
#pragma once

#include <span>

#include "ops/operator_definition.h"

namespace loupe::ops {

// The definition of `type`. OpType::Opaque has one with no rules: an opaque
// operator can be shown, not compiled or run.
const OperatorDefinition& definitionOf(ir::OpType type);

// Every builtin's definition, in ir/op_type.h's order (EthosU, a custom
// operator, and Opaque excluded).
std::span<const OperatorDefinition* const> allDefinitions();

}  // namespace loupe::ops
