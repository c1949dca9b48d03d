// SQUEEZE: the input without the listed dimensions of size 1 (all of them
// when none are listed).
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kSqueezeKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readSqueezeOptions(const tflite::Operator& op, const std::string&) {
  ir::SqueezeAttrs a;
  if (const auto* o = optionsAs<tflite::SqueezeOptions>(op); o && o->squeeze_dims()) {
    a.squeezeDims.assign(o->squeeze_dims()->begin(), o->squeeze_dims()->end());
  }
  return a;
}

std::optional<InferredOutput> squeezeShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  const int rank = static_cast<int>(input->shape.size());
  std::vector<bool> squeezed(static_cast<std::size_t>(rank), false);
  const auto* attrs = std::get_if<ir::SqueezeAttrs>(&op.attributes);
  if (attrs == nullptr || attrs->squeezeDims.empty()) {
    for (int d = 0; d < rank; ++d) squeezed[d] = input->shape[d] == 1;
  } else {
    for (std::int32_t dim : attrs->squeezeDims) {
      const int axis = dim < 0 ? dim + rank : dim;
      if (axis < 0 || axis >= rank || input->shape[axis] != 1) {
        return shapeProblem("squeeze dimension " + std::to_string(dim) + " of size 1 in " +
                            tensorText(*input));
      }
      squeezed[axis] = true;
    }
  }
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    if (!squeezed[d]) shape.push_back(input->shape[d]);
  }
  return shaped(shape, {input->dtype});
}

}  // namespace

extern const OperatorDefinition kSqueezeDefinition{
    .type = ir::OpType::Squeeze,
    .dtypes = "any (bytes are moved; input and output same type)",
    .import = {.optionsType = optionsTypeOf<tflite::SqueezeOptions>(),
               .maxVersion = 2,
               .readOptions = readSqueezeOptions},
    .shape = squeezeShape,
    .kernel = &reference::kSqueezeKernel,
    .lower = lowering::lowerCopy,
};

}  // namespace loupe::ops
