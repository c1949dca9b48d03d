// What CONV_2D and DEPTHWISE_CONV_2D share: the operand checks that do not
// depend on the filter layout, and the per-output-channel step that turns an
// accumulator into the stored value (bias, requantisation, clamp) in TFLite
// Micro's reference ConvPerChannel and DepthwiseConvPerChannel kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

// Input, filter and output present and 4-D, element types one of the weighted
// combinations (16x8 biases of `int16BiasTypes`), strides and dilation factors
// at least 1 and a clamp activation. `Attrs` is ir::Conv2DAttrs or
// ir::DepthwiseConv2DAttrs.
template <typename Attrs>
std::optional<std::string> checkConvOperands(const ir::Graph& graph, const ir::Operator& op,
                                             const Attrs& attrs,
                                             const std::vector<ir::DType>& int16BiasTypes) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  if (input == nullptr) return "missing the input tensor (input 0)";
  if (filter == nullptr) return "missing the filter tensor (input 1)";
  if (op.outputs.size() != 1)
    return "expected one output, found " + std::to_string(op.outputs.size());
  const ir::Tensor& output = graph.output(op, 0);
  for (const auto& [role, t] :
       {std::pair{"input", input}, {"filter", filter}, {"output", &output}}) {
    if (t->shape.size() != 4) {
      return "expected 4-D input, filter and output; " + describeTensor(role, *t) + " has rank " +
             std::to_string(t->shape.size());
    }
  }
  if (auto problem = checkWeightedDtypes(*input, *filter, bias, output, int16BiasTypes)) {
    return problem;
  }
  if (attrs.strideH < 1 || attrs.strideW < 1 || attrs.dilationH < 1 || attrs.dilationW < 1) {
    return "strides and dilation factors must be at least 1 (stride " +
           std::to_string(attrs.strideH) + "x" + std::to_string(attrs.strideW) + ", dilation " +
           std::to_string(attrs.dilationH) + "x" + std::to_string(attrs.dilationW) + ")";
  }
  return unsupportedActivation(attrs.activation);
}

// The output shape the window gives, one bias value per output channel, and
// the quantisation of a quantised convolution (filter scales per tensor or
// along `channelDimension`). Call after checkConvOperands.
template <typename Attrs>
std::optional<std::string> checkConvOutput(const ir::Graph& graph, const ir::Operator& op,
                                           const Attrs& attrs, int outChannels,
                                           int channelDimension) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = checkExplicitPadding(attrs.explicitPadding)) return problem;
  const WindowGeometry g =
      windowGeometry(attrs, input.shape[1], input.shape[2], filter.shape[1], filter.shape[2]);
  const ir::Shape expected = {input.shape[0], g.outHeight, g.outWidth, outChannels};
  if (output.shape != expected) {
    return describeTensor("output", output) + " does not match the convolution: expected " +
           ir::shapeToString(expected) + " with " + describePadding(attrs);
  }
  if (bias != nullptr && bias->elementCount() != outChannels) {
    return describeTensor("bias", *bias) + " has " + std::to_string(bias->elementCount()) +
           " elements; expected " + std::to_string(outChannels) + " (one per output channel)";
  }
  if (input.dtype != ir::DType::Float32) {
    return checkWeightedQuantization(input, filter, output, outChannels, channelDimension);
  }
  return std::nullopt;
}

// finish(outChannel, acc) of float32: bias added last, then the clamp.
inline auto floatConvFinish(const float* bias, FloatRange range) {
  return [bias, range](int oc, float total) {
    const float biasValue = bias ? bias[oc] : 0.0f;
    return loupe_clamp_f32(total + biasValue, range.min, range.max);
  };
}

// finish(outChannel, acc) with an int32 bias (or none): the int64 accumulator
// wraps to int32, which equals TFLite's int32 accumulation modulo 2^32, then
// per-channel requantisation, output zero point and clamp.
template <typename Out>
auto int32ConvFinish(const std::int32_t* bias, const std::vector<QuantizedMultiplier>& multipliers,
                     std::int32_t outputOffset, IntRange range) {
  return [bias, &multipliers, outputOffset, range](int oc, std::int64_t acc) {
    if (bias) acc += bias[oc];
    const auto& m = multipliers[static_cast<std::size_t>(oc)];
    return static_cast<Out>(loupe_requantize_acc_i32(static_cast<std::int32_t>(acc), m.multiplier,
                                                     m.shift, outputOffset, range.min, range.max));
  };
}

// finish(outChannel, acc) of 16x8 with an int64 bias (or none): int64
// requantisation, no output zero point, clamp.
inline auto int64ConvFinish(const std::int64_t* bias,
                            const std::vector<QuantizedMultiplier>& multipliers, IntRange range) {
  return [bias, &multipliers, range](int oc, std::int64_t acc) {
    if (bias) acc += bias[oc];
    const auto& m = multipliers[static_cast<std::size_t>(oc)];
    return static_cast<std::int16_t>(
        loupe_requantize_acc_i64(acc, m.multiplier, m.shift, range.min, range.max));
  };
}

}  // namespace loupe::reference
