// TRANSPOSE: output dimension k is input dimension perm[k], perm a constant.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kTransposeKernel;
}

namespace loupe::ops {

namespace {

std::optional<InferredOutput> transposeShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto perm = constantOperand(graph, op, 1);
  if (input == nullptr || !perm) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(input->shape.size());
  if (static_cast<std::int64_t>(perm->size()) != rank) {
    return shapeProblem("a permutation of the " + std::to_string(rank) + " axes of " +
                        tensorText(*input));
  }
  ir::Shape shape;
  for (std::int64_t axis : *perm) {
    if (axis < 0 || axis >= rank) {
      return shapeProblem("a permutation within rank " + std::to_string(rank));
    }
    shape.push_back(input->shape[static_cast<std::size_t>(axis)]);
  }
  return shaped(shape, {input->dtype});
}

}  // namespace

extern const OperatorDefinition kTransposeDefinition{
    .type = ir::OpType::Transpose,
    .dtypes = "float32, int8, int16 (input and output same type; perm constant int32)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::TransposeOptions>(),
               .maxVersion = 6},
    .shape = transposeShape,
    .kernel = &reference::kTransposeKernel,
    .lower = lowering::lowerTranspose,
};

}  // namespace loupe::ops
