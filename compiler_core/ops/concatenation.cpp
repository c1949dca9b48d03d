// CONCATENATION: the inputs joined along one axis.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kConcatenationKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readConcatenationOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::ConcatenationOptions>(op);
  return ir::ConcatenationAttrs{o->axis(), readActivation(o->fused_activation_function(), where)};
}

std::optional<InferredOutput> concatenationShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* first = graph.input(op, 0);
  if (first == nullptr) return shapeProblem("at least one input");
  const auto rank = static_cast<int>(first->shape.size());
  const auto& attrs = std::get<ir::ConcatenationAttrs>(op.attributes);
  const int axis = attrs.axis < 0 ? attrs.axis + rank : attrs.axis;
  if (axis < 0 || axis >= rank) {
    return shapeProblem("axis " + std::to_string(attrs.axis) + " within " + tensorText(*first));
  }
  ir::Shape shape = first->shape;
  shape[axis] = 0;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr) return shapeProblem("no absent inputs");
    bool matches = input->shape.size() == first->shape.size();
    for (int d = 0; matches && d < rank; ++d) {
      matches = d == axis || input->shape[d] == first->shape[d];
    }
    if (!matches) {
      return shapeProblem(tensorText(*input) + " to match " + tensorText(*first) + " off axis " +
                          std::to_string(axis));
    }
    shape[axis] += input->shape[axis];
  }
  return shaped(shape, {first->dtype});
}

}  // namespace

extern const OperatorDefinition kConcatenationDefinition{
    .type = ir::OpType::Concatenation,
    .dtypes = "float32, int8, int16, int32, int64, bool (all inputs and output same type)",
    .import = {.maxInputs = -1,
               .optionsType = optionsTypeOf<tflite::ConcatenationOptions>(),
               .optionsRequired = true,
               .maxVersion = 4,
               .readOptions = readConcatenationOptions},
    .shape = concatenationShape,
    .kernel = &reference::kConcatenationKernel,
    .lower = lowering::lowerConcatenation,
};

}  // namespace loupe::ops
