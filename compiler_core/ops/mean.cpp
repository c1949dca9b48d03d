// MEAN: the average over the constant axes operand, keeping the reduced
// dimensions as 1 with keep_dims.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kMeanKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readReducerOptions(const tflite::Operator& op, const std::string&) {
  ir::ReducerAttrs a;
  if (const auto* o = optionsAs<tflite::ReducerOptions>(op)) a.keepDims = o->keep_dims();
  return a;
}

std::optional<InferredOutput> meanShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto axes = constantOperand(graph, op, 1);
  if (input == nullptr || !axes) return std::nullopt;
  const int rank = static_cast<int>(input->shape.size());
  std::vector<bool> reduced(static_cast<std::size_t>(rank), false);
  for (std::int64_t value : *axes) {
    const auto axis = static_cast<int>(value < 0 ? value + rank : value);
    if (axis < 0 || axis >= rank) {
      return shapeProblem("axis " + std::to_string(value) + " within " + tensorText(*input));
    }
    reduced[axis] = true;
  }
  const auto* attrs = std::get_if<ir::ReducerAttrs>(&op.attributes);
  const bool keepDims = attrs != nullptr && attrs->keepDims;
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      shape.push_back(input->shape[d]);
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  return shaped(shape, {input->dtype});
}

// One per input element.
std::int64_t meanMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  return input ? input->elementCount() : 0;
}

}  // namespace

extern const OperatorDefinition kMeanDefinition{
    .type = ir::OpType::Mean,
    .dtypes = "float32, int8, int16 (input and output same type; axis constant int32)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ReducerOptions>(),
               .maxVersion = 3,
               .readOptions = readReducerOptions},
    .shape = meanShape,
    .kernel = &reference::kMeanKernel,
    .lower = lowering::lowerMean,
    .macs = meanMacs,
};

}  // namespace loupe::ops
