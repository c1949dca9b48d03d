// CONV_2D: a 2-D convolution over NHWC input with an [O, KH, KW, I] filter
// (I may divide the input depth: grouped convolution) and an optional bias.
// Float32 input with an int8 filter is the hybrid kernel
// (ops/conv2d_hybrid.h); every other combination the reference kernel and
// lowerings of ops/conv2d_reference.cpp, _lowering.cpp and _simd.cpp.
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "ops/conv2d_hybrid.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/quantized_params.h"

namespace loupe::reference {
extern const Kernel kConv2DKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readConv2DOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::Conv2DOptions>(op);
  ir::Conv2DAttrs a;
  a.padding = readPadding(o->padding(), where);
  a.strideW = readPositive(o->stride_w(), "stride_w", where);
  a.strideH = readPositive(o->stride_h(), "stride_h", where);
  a.dilationW = readPositive(o->dilation_w_factor(), "dilation_w_factor", where);
  a.dilationH = readPositive(o->dilation_h_factor(), "dilation_h_factor", where);
  a.activation = readActivation(o->fused_activation_function(), where);
  return a;
}

std::optional<InferredOutput> conv2DShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = graph.input(op, 1);
  if (input == nullptr || filter == nullptr) return shapeProblem("an input and a filter");
  if (input->shape.size() != 4 || filter->shape.size() != 4) {
    return shapeProblem("4-D input and filter, found " + tensorText(*input) + " and " +
                        tensorText(*filter));
  }
  if (filter->shape[3] <= 0 || input->shape[3] % filter->shape[3] != 0) {
    return shapeProblem("the filter depth " + std::to_string(filter->shape[3]) +
                        " divides the input depth of " + tensorText(*input));
  }
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const auto g = reference::windowGeometry(attrs, input->shape[1], input->shape[2],
                                           filter->shape[1], filter->shape[2]);
  return windowedOutput(*input, g.outHeight, g.outWidth, filter->shape[0]);
}

// One MAC per filter tap and output element.
std::int64_t conv2DMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* filter = graph.input(op, 1);
  return graph.output(op, 0).elementCount() * dimensionOf(filter, 1) * dimensionOf(filter, 2) *
         dimensionOf(filter, 3);
}

std::optional<std::string> checkConv2D(const ir::Graph& graph, const ir::Operator& op) {
  if (isHybridConv2D(graph, op)) return checkHybridConv2D(graph, op);
  return reference::kConv2DKernel.check(graph, op);
}

void evalConv2D(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  if (isHybridConv2D(graph, op)) return evalHybridConv2D(graph, op, store);
  reference::kConv2DKernel.eval(graph, op, store);
}

tir::PrimFunc lowerConv2D(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  if (isHybridConv2D(graph, op)) return lowerHybridConv2D(graph, op, functionName);
  return lowering::lowerConv2D(graph, op, functionName);
}

// The DSP/MVE kernels cover integer activations only.
std::optional<tir::PrimFunc> lowerConv2DSimd(const ir::Graph& graph, const ir::Operator& op,
                                             const std::string& functionName, target::CpuIsa isa,
                                             const lowering::Schedule& schedule) {
  if (isHybridConv2D(graph, op)) return std::nullopt;
  return lowering::lowerConv2DSimd(graph, op, functionName, isa, schedule);
}

const reference::Kernel kConv2DKernel{ir::OpType::Conv2D, checkConv2D, evalConv2D};

}  // namespace

extern const OperatorDefinition kConv2DDefinition{
    .type = ir::OpType::Conv2D,
    .dtypes =
        "float32, int8 (int32 bias), int16 (16x8: int16 activations, int8 weights, int32 or int64 "
        "bias); hybrid: float32 activations, int8 per-tensor or per-channel filter (TFLite's "
        "kernel)",
    .import = {.minInputs = 2,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::Conv2DOptions>(),
               .optionsRequired = true,
               .maxVersion = 8,
               .readOptions = readConv2DOptions},
    .shape = conv2DShape,
    .kernel = &kConv2DKernel,
    .lower = lowerConv2D,
    .lowerSimd = lowerConv2DSimd,
    .simdKnobs = lowering::conv2DSimdKnobs,
    .macs = conv2DMacs,
};

}  // namespace loupe::ops
