// TRANSPOSE_CONV: the gradient of a convolution (an upsampling convolution);
// operand 0 states the output shape.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kTransposeConvKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readTransposeConvOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::TransposeConvOptions>(op);
  ir::TransposeConvAttrs a;
  a.padding = readPadding(o->padding(), where);
  a.strideW = readPositive(o->stride_w(), "stride_w", where);
  a.strideH = readPositive(o->stride_h(), "stride_h", where);
  a.activation = readActivation(o->fused_activation_function(), where);
  return a;
}

std::optional<InferredOutput> transposeConvShape(const ir::Graph& graph, const ir::Operator& op) {
  const auto shapeValues = constantOperand(graph, op, 0);
  const ir::Tensor* input = graph.input(op, 2);
  if (!shapeValues || input == nullptr) return std::nullopt;
  ir::Shape shape(shapeValues->begin(), shapeValues->end());
  return shaped(shape, {input->dtype});
}

// Every input element times every filter tap of its output channel
// (inputs: output shape, filter [O, KH, KW, I], input).
std::int64_t transposeConvMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* filter = graph.input(op, 1);
  const ir::Tensor* input = graph.input(op, 2);
  return (input ? input->elementCount() : 0) * dimensionOf(filter, 0) * dimensionOf(filter, 1) *
         dimensionOf(filter, 2);
}

}  // namespace

extern const OperatorDefinition kTransposeConvDefinition{
    .type = ir::OpType::TransposeConv,
    .dtypes =
        "float32, int8 (int32 bias), int16 (16x8: int16 activations, int8 weights, int64/int16 "
        "bias)",
    .import = {.minInputs = 3,
               .maxInputs = 4,
               .optionsType = optionsTypeOf<tflite::TransposeConvOptions>(),
               .optionsRequired = true,
               .maxVersion = 5,
               .readOptions = readTransposeConvOptions},
    .shape = transposeConvShape,
    .kernel = &reference::kTransposeConvKernel,
    .lower = lowering::lowerTransposeConv,
    .macs = transposeConvMacs,
};

}  // namespace loupe::ops
