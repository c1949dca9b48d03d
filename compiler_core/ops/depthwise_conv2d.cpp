// DEPTHWISE_CONV_2D: each input channel convolved with depth_multiplier
// filters of a [1, KH, KW, I x multiplier] filter, plus an optional bias.
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/quantized_params.h"

namespace loupe::reference {
extern const Kernel kDepthwiseConv2DKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readDepthwiseOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::DepthwiseConv2DOptions>(op);
  ir::DepthwiseConv2DAttrs a;
  a.padding = readPadding(o->padding(), where);
  a.strideW = readPositive(o->stride_w(), "stride_w", where);
  a.strideH = readPositive(o->stride_h(), "stride_h", where);
  a.dilationW = readPositive(o->dilation_w_factor(), "dilation_w_factor", where);
  a.dilationH = readPositive(o->dilation_h_factor(), "dilation_h_factor", where);
  if (o->depth_multiplier() < 0) {
    failOptions(where, "depth_multiplier is " + std::to_string(o->depth_multiplier()));
  }
  a.depthMultiplier = o->depth_multiplier();
  a.activation = readActivation(o->fused_activation_function(), where);
  return a;
}

std::optional<InferredOutput> depthwiseShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = graph.input(op, 1);
  if (input == nullptr || filter == nullptr) return shapeProblem("an input and a filter");
  if (input->shape.size() != 4 || filter->shape.size() != 4) {
    return shapeProblem("4-D input and filter, found " + tensorText(*input) + " and " +
                        tensorText(*filter));
  }
  const auto& attrs = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
  if (input->shape[3] * attrs.depthMultiplier != filter->shape[3]) {
    return shapeProblem("filter channels = input depth x depth multiplier " +
                        std::to_string(attrs.depthMultiplier) + ", found " + tensorText(*input) +
                        " and " + tensorText(*filter));
  }
  const auto g = reference::windowGeometry(attrs, input->shape[1], input->shape[2],
                                           filter->shape[1], filter->shape[2]);
  return windowedOutput(*input, g.outHeight, g.outWidth, filter->shape[3]);
}

// One MAC per filter tap and output element (filter [1, KH, KW, O]).
std::int64_t depthwiseMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* filter = graph.input(op, 1);
  return graph.output(op, 0).elementCount() * dimensionOf(filter, 1) * dimensionOf(filter, 2);
}

}  // namespace

extern const OperatorDefinition kDepthwiseConv2DDefinition{
    .type = ir::OpType::DepthwiseConv2D,
    .dtypes =
        "float32, int8 (int32 bias), int16 (16x8: int16 activations, int8 weights, int64 bias)",
    .import = {.minInputs = 2,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::DepthwiseConv2DOptions>(),
               .optionsRequired = true,
               .maxVersion = 7,
               .readOptions = readDepthwiseOptions},
    .shape = depthwiseShape,
    .kernel = &reference::kDepthwiseConv2DKernel,
    .lower = lowering::lowerDepthwiseConv2D,
    .lowerSimd = lowering::lowerDepthwiseConv2DSimd,
    .simdKnobs = lowering::depthwiseConv2DSimdKnobs,
    .macs = depthwiseMacs,
};

}  // namespace loupe::ops
