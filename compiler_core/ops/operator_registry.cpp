#include "ops/operator_registry.h"

namespace loupe::ops {

// Each operator's file defines `const OperatorDefinition k<Type>Definition`.
// The list is ir/op_type.h's, so an operator type without a definition fails
// to link, and registration does not depend on static initialisation order.
#define LOUPE_DECLARE_DEFINITION(name, tflite, code) \
  extern const OperatorDefinition k##name##Definition;
LOUPE_OP_TYPES(LOUPE_DECLARE_DEFINITION)
#undef LOUPE_DECLARE_DEFINITION
extern const OperatorDefinition kEthosUDefinition;

namespace {

#define LOUPE_DEFINITION_ADDRESS(name, tflite, code) &k##name##Definition,
const OperatorDefinition* const kDefinitions[] = {LOUPE_OP_TYPES(LOUPE_DEFINITION_ADDRESS)};
#undef LOUPE_DEFINITION_ADDRESS

const OperatorDefinition kOpaqueDefinition{
    .type = ir::OpType::Opaque,
    .dtypes = "",
    .import = {.minInputs = 0, .maxInputs = -1, .outputs = -1}};

}  // namespace

const OperatorDefinition& definitionOf(ir::OpType type) {
  if (type == ir::OpType::EthosU) return kEthosUDefinition;
  const auto index = static_cast<std::size_t>(type);
  return index < std::size(kDefinitions) ? *kDefinitions[index] : kOpaqueDefinition;
}

std::span<const OperatorDefinition* const> allDefinitions() {
  return kDefinitions;
}

}  // namespace loupe::ops
