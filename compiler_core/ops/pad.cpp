// PAD and PADV2: the input with constant paddings before and after each
// dimension, filled with zero (the zero point) or PADV2's constant value.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kPadKernel;
extern const Kernel kPadV2Kernel;
}  // namespace loupe::reference

namespace loupe::ops {

namespace {

std::optional<InferredOutput> padShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto pads = constantOperand(graph, op, 1);
  if (input == nullptr || !pads) return std::nullopt;
  if (pads->size() != input->shape.size() * 2) {
    return shapeProblem("paddings of shape [" + std::to_string(input->shape.size()) + ",2] for " +
                        tensorText(*input));
  }
  ir::Shape shape = input->shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto before = (*pads)[2 * d], after = (*pads)[2 * d + 1];
    if (before < 0 || after < 0) return shapeProblem("non-negative paddings");
    shape[d] = static_cast<std::int32_t>(shape[d] + before + after);
  }
  return shaped(shape, {input->dtype});
}

}  // namespace

extern const OperatorDefinition kPadDefinition{
    .type = ir::OpType::Pad,
    .dtypes = "float32, int8, int16, int32 (input and output same type; paddings constant int32)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::PadOptions>(),
               .maxVersion = 4},
    .shape = padShape,
    .kernel = &reference::kPadKernel,
    .lower = lowering::lowerPad,
};

extern const OperatorDefinition kPadV2Definition{
    .type = ir::OpType::PadV2,
    .dtypes = "float32, int8, int16, int32 (input, output and optional pad value same type)",
    .import = {.minInputs = 2,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::PadV2Options>(),
               .maxVersion = 4},
    .shape = padShape,
    .kernel = &reference::kPadV2Kernel,
    .lower = lowering::lowerPad,
};

}  // namespace loupe::ops
