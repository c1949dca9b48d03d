// EXPAND_DIMS: the input with a dimension of size 1 inserted at the constant
// axis operand.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kExpandDimsKernel;
}

namespace loupe::ops {

namespace {

std::optional<InferredOutput> expandDimsShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto axisValues = constantOperand(graph, op, 1);
  if (input == nullptr || !axisValues || axisValues->size() != 1) return std::nullopt;
  const int rank = static_cast<int>(input->shape.size());
  auto axis = static_cast<int>(axisValues->front());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) return shapeProblem("an axis within " + tensorText(*input));
  ir::Shape shape = input->shape;
  shape.insert(shape.begin() + axis, 1);
  return shaped(shape, {input->dtype});
}

}  // namespace

extern const OperatorDefinition kExpandDimsDefinition{
    .type = ir::OpType::ExpandDims,
    .dtypes = "any (bytes are moved; input and output same type; axis constant int32)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ExpandDimsOptions>()},
    .shape = expandDimsShape,
    .kernel = &reference::kExpandDimsKernel,
    .lower = lowering::lowerCopy,
};

}  // namespace loupe::ops
