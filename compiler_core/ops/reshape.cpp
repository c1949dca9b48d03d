// RESHAPE: the same elements in a new shape, given by the constant shape
// operand or by the options (at most one -1, which takes what is left).
#include "ir/graph_printer.h"
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kReshapeKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readReshapeOptions(const tflite::Operator& op, const std::string&) {
  ir::ReshapeAttrs a;
  if (const auto* o = optionsAs<tflite::ReshapeOptions>(op); o && o->new_shape()) {
    a.newShape.assign(o->new_shape()->begin(), o->new_shape()->end());
  }
  return a;
}

std::optional<InferredOutput> reshapeShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  std::vector<std::int64_t> requested;
  if (const ir::Tensor* shapeOperand = graph.input(op, 1)) {
    const auto values = constantOperand(graph, op, 1);
    if (!values || shapeOperand->shape.size() != 1) return std::nullopt;  // dynamic: no rule
    requested = *values;
  } else if (const auto* attrs = std::get_if<ir::ReshapeAttrs>(&op.attributes);
             attrs != nullptr && !attrs->newShape.empty()) {
    requested.assign(attrs->newShape.begin(), attrs->newShape.end());
  } else {
    return std::nullopt;
  }
  ir::Shape shape;
  std::int64_t known = 1;
  int unknownAxis = -1;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (requested[i] == -1 && unknownAxis < 0) {
      unknownAxis = static_cast<int>(i);
      shape.push_back(1);
      continue;
    }
    if (requested[i] < 0) return shapeProblem("a new shape with at most one -1");
    known *= requested[i];
    shape.push_back(static_cast<std::int32_t>(requested[i]));
  }
  if (unknownAxis >= 0) {
    if (known == 0 || input->elementCount() % known != 0) {
      return shapeProblem("a new shape that divides the " + std::to_string(input->elementCount()) +
                          " elements of " + tensorText(*input));
    }
    shape[static_cast<std::size_t>(unknownAxis)] =
        static_cast<std::int32_t>(input->elementCount() / known);
  }
  if (ir::elementCount(shape) != input->elementCount()) {
    return shapeProblem("new shape " + ir::shapeToString(shape) + " to hold the " +
                        std::to_string(input->elementCount()) + " elements of " +
                        tensorText(*input));
  }
  return shaped(shape, {input->dtype});
}

}  // namespace

extern const OperatorDefinition kReshapeDefinition{
    .type = ir::OpType::Reshape,
    .dtypes = "any (bytes are moved; only byte sizes compared, in/out dtypes not checked)",
    .import = {.maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ReshapeOptions>(),
               .readOptions = readReshapeOptions},
    .shape = reshapeShape,
    .kernel = &reference::kReshapeKernel,
    .lower = lowering::lowerCopy,
};

}  // namespace loupe::ops
