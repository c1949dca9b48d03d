#include "reference/quantized_params.h"

#include <algorithm>
#include <limits>

#include "loupe/fixed_point.h"
#include "loupe/fused_activation.h"
#include "loupe/window_geometry.h"

namespace loupe::reference {

QuantizedMultiplier quantizeMultiplier(double real) {
  QuantizedMultiplier result;
  loupe_quantize_multiplier(real, &result.multiplier, &result.shift);
  return result;
}

std::optional<std::string> unsupportedActivation(ir::Activation activation) {
  switch (activation) {
    case ir::Activation::None:
    case ir::Activation::Relu:
    case ir::Activation::ReluN1To1:
    case ir::Activation::Relu6:
      return std::nullopt;
    case ir::Activation::Tanh:
    case ir::Activation::SignBit:
      break;
  }
  return "fused activation " + std::string(ir::activationName(activation)) +
         " is not supported (expected NONE, RELU, RELU_N1_TO_1 or RELU6)";
}

int fusedActivationCode(ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return LOUPE_ACTIVATION_RELU;
    case ir::Activation::ReluN1To1:
      return LOUPE_ACTIVATION_RELU_N1_TO_1;
    case ir::Activation::Relu6:
      return LOUPE_ACTIVATION_RELU6;
    default:
      return LOUPE_ACTIVATION_NONE;
  }
}

IntRange quantizedActivationRange(ir::Activation activation, const ir::Tensor& output) {
  IntRange types;
  if (output.dtype == ir::DType::Int16) {
    types = {std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()};
  } else {
    types = {std::numeric_limits<std::int8_t>::min(), std::numeric_limits<std::int8_t>::max()};
  }
  IntRange range;
  loupe_quantized_activation_range(fusedActivationCode(activation), output.quantization.scale(),
                                   output.quantization.zeroPoint(), types.min, types.max,
                                   &range.min, &range.max);
  return range;
}

FloatRange floatActivationRange(ir::Activation activation) {
  FloatRange range;
  loupe_float_activation_range(fusedActivationCode(activation), &range.min, &range.max);
  return range;
}

IntRange int32ActivationRange(ir::Activation activation) {
  IntRange range;
  loupe_int32_activation_range(fusedActivationCode(activation), &range.min, &range.max);
  return range;
}

WindowGeometry computeWindowGeometry(ir::Padding padding, int inHeight, int inWidth,
                                     int filterHeight, int filterWidth, int strideHeight,
                                     int strideWidth, int dilationHeight, int dilationWidth) {
  const int code = padding == ir::Padding::Same ? LOUPE_PADDING_SAME : LOUPE_PADDING_VALID;
  WindowGeometry g;
  g.outHeight =
      loupe_window_output_size(code, inHeight, filterHeight, strideHeight, dilationHeight);
  g.outWidth = loupe_window_output_size(code, inWidth, filterWidth, strideWidth, dilationWidth);
  g.padHeight = loupe_window_padding(strideHeight, dilationHeight, inHeight, filterHeight,
                                     g.outHeight, &g.padHeightOffset);
  g.padWidth = loupe_window_padding(strideWidth, dilationWidth, inWidth, filterWidth, g.outWidth,
                                    &g.padWidthOffset);
  return g;
}

namespace {
// The output extent of windows over an explicitly padded input: every window
// that fits in before + input + after. As TFLite, 0 for a zero stride.
int explicitOutputSize(int imageSize, int before, int after, int filterSize, int stride,
                       int dilation) {
  const int padded = imageSize + before + after;
  const int effective = loupe_effective_filter_size(filterSize, dilation);
  if (stride <= 0 || padded < effective) return 0;
  return (padded - effective) / stride + 1;
}
}  // namespace

WindowGeometry computeWindowGeometry(const ir::ExplicitPadding& padding, int inHeight, int inWidth,
                                     int filterHeight, int filterWidth, int strideHeight,
                                     int strideWidth, int dilationHeight, int dilationWidth) {
  WindowGeometry g;
  g.outHeight = explicitOutputSize(inHeight, padding.top, padding.bottom, filterHeight,
                                   strideHeight, dilationHeight);
  g.outWidth = explicitOutputSize(inWidth, padding.left, padding.right, filterWidth, strideWidth,
                                  dilationWidth);
  g.padHeight = padding.top;
  g.padWidth = padding.left;
  g.padHeightOffset = padding.bottom - padding.top;
  g.padWidthOffset = padding.right - padding.left;
  return g;
}

namespace {
template <typename Attrs>
WindowGeometry attrsWindowGeometry(const Attrs& attrs, int inHeight, int inWidth, int filterHeight,
                                   int filterWidth, int dilationHeight, int dilationWidth) {
  if (attrs.explicitPadding) {
    return computeWindowGeometry(*attrs.explicitPadding, inHeight, inWidth, filterHeight,
                                 filterWidth, attrs.strideH, attrs.strideW, dilationHeight,
                                 dilationWidth);
  }
  return computeWindowGeometry(attrs.padding, inHeight, inWidth, filterHeight, filterWidth,
                               attrs.strideH, attrs.strideW, dilationHeight, dilationWidth);
}
}  // namespace

WindowGeometry windowGeometry(const ir::Conv2DAttrs& attrs, int inHeight, int inWidth,
                              int filterHeight, int filterWidth) {
  return attrsWindowGeometry(attrs, inHeight, inWidth, filterHeight, filterWidth, attrs.dilationH,
                             attrs.dilationW);
}

WindowGeometry windowGeometry(const ir::DepthwiseConv2DAttrs& attrs, int inHeight, int inWidth,
                              int filterHeight, int filterWidth) {
  return attrsWindowGeometry(attrs, inHeight, inWidth, filterHeight, filterWidth, attrs.dilationH,
                             attrs.dilationW);
}

WindowGeometry windowGeometry(const ir::Pool2DAttrs& attrs, int inHeight, int inWidth) {
  return attrsWindowGeometry(attrs, inHeight, inWidth, attrs.filterH, attrs.filterW, 1, 1);
}

ir::ExplicitPadding explicitPaddingOf(const WindowGeometry& geometry) {
  ir::ExplicitPadding padding;
  padding.top = geometry.padHeight;
  padding.bottom = geometry.padHeight + geometry.padHeightOffset;
  padding.left = geometry.padWidth;
  padding.right = geometry.padWidth + geometry.padWidthOffset;
  return padding;
}

std::optional<std::string> checkExplicitPadding(const std::optional<ir::ExplicitPadding>& padding) {
  if (padding &&
      (padding->top < 0 || padding->bottom < 0 || padding->left < 0 || padding->right < 0)) {
    return "explicit padding " + ir::explicitPaddingToString(*padding) + " holds a negative amount";
  }
  return std::nullopt;
}

std::vector<QuantizedMultiplier> perChannelMultipliers(float inputScale,
                                                       const std::vector<float>& filterScales,
                                                       float outputScale, int channels) {
  std::vector<QuantizedMultiplier> result(static_cast<std::size_t>(channels));
  const bool perChannel = filterScales.size() > 1;
  for (int c = 0; c < channels; ++c) {
    const float filterScale =
        perChannel ? filterScales[static_cast<std::size_t>(c)] : filterScales.front();
    const double effective = static_cast<double>(inputScale) * static_cast<double>(filterScale) /
                             static_cast<double>(outputScale);
    result[static_cast<std::size_t>(c)] = quantizeMultiplier(effective);
  }
  return result;
}

QuantizedMultiplier perTensorFullyConnectedMultiplier(float inputScale, float filterScale,
                                                      float outputScale) {
  // The float product is deliberate: TFLite computes it in float.
  const float product = inputScale * filterScale;
  return quantizeMultiplier(static_cast<double>(product) / static_cast<double>(outputScale));
}

std::vector<QuantizedMultiplier> fullyConnectedMultipliers(const ir::Tensor& input,
                                                           const ir::Tensor& weights,
                                                           const ir::Tensor& output, int units) {
  if (weights.quantization.isPerChannel()) {
    return perChannelMultipliers(input.quantization.scale(), weights.quantization.scales,
                                 output.quantization.scale(), units);
  }
  return std::vector<QuantizedMultiplier>(
      static_cast<std::size_t>(units),
      perTensorFullyConnectedMultiplier(input.quantization.scale(), weights.quantization.scale(),
                                        output.quantization.scale()));
}

bool requantizesInt64Sum(const ir::Tensor& input, const ir::Tensor* bias) {
  return input.dtype == ir::DType::Int16 && (bias == nullptr || bias->dtype == ir::DType::Int64);
}

namespace {

struct AddSubReals {
  double input1 = 0.0, input2 = 0.0, output = 0.0;
  int leftShift = 20;
};

AddSubReals addSubReals(ir::OpType type, const ir::Tensor& input1, const ir::Tensor& input2,
                        const ir::Tensor& output) {
  AddSubReals reals;
  reals.leftShift = output.dtype == ir::DType::Int16 ? 15 : 20;
  if (type == ir::OpType::Sub) {
    // TFLite Micro's sub_common.cc divides in float and widens the quotients
    // (add_common.cc divides in double): the multipliers differ in their last
    // bits, and about one output in a million with them.
    const float twiceMax =
        2.0f * std::max(input1.quantization.scale(), input2.quantization.scale());
    reals.input1 = static_cast<double>(input1.quantization.scale() / twiceMax);
    reals.input2 = static_cast<double>(input2.quantization.scale() / twiceMax);
    reals.output = static_cast<double>(
        twiceMax / (static_cast<float>(1 << reals.leftShift) * output.quantization.scale()));
    return reals;
  }
  const double twiceMaxInputScale =
      2.0 * static_cast<double>(std::max(input1.quantization.scale(), input2.quantization.scale()));
  reals.input1 = static_cast<double>(input1.quantization.scale()) / twiceMaxInputScale;
  reals.input2 = static_cast<double>(input2.quantization.scale()) / twiceMaxInputScale;
  reals.output = twiceMaxInputScale / (static_cast<double>(1 << reals.leftShift) *
                                       static_cast<double>(output.quantization.scale()));
  return reals;
}

}  // namespace

std::optional<std::string> checkAddSubScales(ir::OpType type, const ir::Tensor& input1,
                                             const ir::Tensor& input2, const ir::Tensor& output) {
  const AddSubReals reals = addSubReals(type, input1, input2, output);
  if (!(reals.input1 > 0.0) || !(reals.input2 > 0.0)) {
    return std::string("input scales must be positive");
  }
  if (!(reals.output > 0.0) || reals.output >= 1.0) {
    return "the output rescale factor " + std::to_string(reals.output) +
           " is outside (0, 1): output scale too small for the inputs' scales";
  }
  return std::nullopt;
}

loupe_add_sub_params addSubParams(ir::OpType type, const ir::Tensor& input1,
                                  const ir::Tensor& input2, const ir::Tensor& output,
                                  ir::Activation activation) {
  const AddSubReals reals = addSubReals(type, input1, input2, output);
  loupe_add_sub_params p{};
  p.input1_offset = -input1.quantization.zeroPoint();
  p.input2_offset = -input2.quantization.zeroPoint();
  p.output_offset = output.quantization.zeroPoint();
  p.left_shift = reals.leftShift;
  const auto m1 = quantizeMultiplier(reals.input1);
  const auto m2 = quantizeMultiplier(reals.input2);
  const auto mo = quantizeMultiplier(reals.output);
  p.input1_multiplier = m1.multiplier;
  p.input1_shift = m1.shift;
  p.input2_multiplier = m2.multiplier;
  p.input2_shift = m2.shift;
  p.output_multiplier = mo.multiplier;
  p.output_shift = mo.shift;
  const IntRange range = quantizedActivationRange(activation, output);
  p.act_min = range.min;
  p.act_max = range.max;
  return p;
}

loupe_mul_params mulParams(const ir::Tensor& input1, const ir::Tensor& input2,
                           const ir::Tensor& output, ir::Activation activation) {
  loupe_mul_params p{};
  p.input1_offset = -input1.quantization.zeroPoint();
  p.input2_offset = -input2.quantization.zeroPoint();
  p.output_offset = output.quantization.zeroPoint();
  const double real = static_cast<double>(input1.quantization.scale()) *
                      static_cast<double>(input2.quantization.scale()) /
                      static_cast<double>(output.quantization.scale());
  const auto m = quantizeMultiplier(real);
  p.output_multiplier = m.multiplier;
  p.output_shift = m.shift;
  const IntRange range = quantizedActivationRange(activation, output);
  p.act_min = range.min;
  p.act_max = range.max;
  return p;
}

}  // namespace loupe::reference
