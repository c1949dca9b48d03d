// Compile-time parameters of the core operators: what TFLite (Micro) derives
// once per operator at Prepare time from the tensors' scales, zero points and
// the operator's attributes (requantisation multipliers and shifts, clamp
// ranges of fused activations, the padding of sliding windows). The reference
// kernels call these before evaluating; the code generator calls the same
// functions and bakes the results into the generated C, so both use the same
// integers. Each function names the TFLite computation it reproduces, because
// the floating-point details (float or double products) decide bit-exactness.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/op_type.h"
#include "ir/tensor.h"
#include "loupe/quantized_arith.h"

namespace loupe::reference {

// real = multiplier * 2^shift / 2^31, multiplier in [2^30, 2^31) (or 0).
struct QuantizedMultiplier {
  std::int32_t multiplier = 0;
  int shift = 0;
  bool operator==(const QuantizedMultiplier&) const = default;
};

// TFLite's QuantizeMultiplier.
QuantizedMultiplier quantizeMultiplier(double real);

// --- fused activations -------------------------------------------------------

struct IntRange {
  std::int32_t min = 0;
  std::int32_t max = 0;
  bool operator==(const IntRange&) const = default;
};

struct FloatRange {
  float min = 0.0f;
  float max = 0.0f;
};

// Why a fused activation cannot be applied as a clamp (TANH, SIGN_BIT), or
// nullopt for NONE, RELU, RELU_N1_TO_1 and RELU6.
std::optional<std::string> unsupportedActivation(ir::Activation activation);

// The loupe_fused_activation code of a clamp activation.
int fusedActivationCode(ir::Activation activation);

// TFLite's CalculateActivationRangeQuantized for an int8 or int16 output: the
// clamp bounds quantised with the output's scale and zero point, within the
// output type's range.
IntRange quantizedActivationRange(ir::Activation activation, const ir::Tensor& output);

// TFLite's CalculateActivationRange<float> and <int32_t>.
FloatRange floatActivationRange(ir::Activation activation);
IntRange int32ActivationRange(ir::Activation activation);

// --- sliding windows (CONV_2D, DEPTHWISE_CONV_2D, pooling) -------------------

struct WindowGeometry {
  int outHeight = 0, outWidth = 0;
  int padHeight = 0, padWidth = 0;              // padding before the first row/column
  int padHeightOffset = 0, padWidthOffset = 0;  // extra padding after the last one
};

// TFLite's ComputePaddingHeightWidth: output size from SAME/VALID padding,
// then the padding that centres the windows.
WindowGeometry computeWindowGeometry(ir::Padding padding, int inHeight, int inWidth,
                                     int filterHeight, int filterWidth, int strideHeight,
                                     int strideWidth, int dilationHeight = 1,
                                     int dilationWidth = 1);

// The same for explicit padding (a legalised graph): the windows start `top`
// and `left` before the first element, and the output holds every window
// that fits in the padded extent. padHeightOffset = bottom - top (may be
// negative), padWidthOffset = right - left.
WindowGeometry computeWindowGeometry(const ir::ExplicitPadding& padding, int inHeight, int inWidth,
                                     int filterHeight, int filterWidth, int strideHeight,
                                     int strideWidth, int dilationHeight = 1,
                                     int dilationWidth = 1);

// The geometry an operator's windows use: its explicit padding when it has
// one, SAME/VALID otherwise. Every kernel and pass that walks the windows of
// CONV_2D, DEPTHWISE_CONV_2D and the pools goes through these.
WindowGeometry windowGeometry(const ir::Conv2DAttrs& attrs, int inHeight, int inWidth,
                              int filterHeight, int filterWidth);
WindowGeometry windowGeometry(const ir::DepthwiseConv2DAttrs& attrs, int inHeight, int inWidth,
                              int filterHeight, int filterWidth);
WindowGeometry windowGeometry(const ir::Pool2DAttrs& attrs, int inHeight, int inWidth);

// The padding a geometry applies, spelled out: before the first element and
// after the last one (for SAME, the odd element of an odd total goes after).
ir::ExplicitPadding explicitPaddingOf(const WindowGeometry& geometry);

// "SAME padding", "VALID padding" or "explicit(t=0,b=1,l=0,r=1) padding".
template <typename Attrs>
std::string describePadding(const Attrs& attrs) {
  return (attrs.explicitPadding ? ir::explicitPaddingToString(*attrs.explicitPadding)
                                : std::string(ir::paddingName(attrs.padding))) +
         " padding";
}

// Why an operator's explicit padding cannot be used (a negative amount), or
// nullopt.
std::optional<std::string> checkExplicitPadding(const std::optional<ir::ExplicitPadding>& padding);

// --- requantisation of accumulators -------------------------------------------

// One multiplier per output channel of a convolution (TFLite's
// PopulateConvolutionQuantizationParams): input_scale * filter_scale /
// output_scale in double, the filter scale per channel or broadcast from a
// single per-tensor scale. Also per-channel FULLY_CONNECTED.
std::vector<QuantizedMultiplier> perChannelMultipliers(float inputScale,
                                                       const std::vector<float>& filterScales,
                                                       float outputScale, int channels);

// Per-tensor FULLY_CONNECTED (TFLite's GetQuantizedConvolutionMultipler): the
// product input_scale * filter_scale is rounded to float before the division
// in double, unlike the per-channel form.
QuantizedMultiplier perTensorFullyConnectedMultiplier(float inputScale, float filterScale,
                                                      float outputScale);

// The multiplier of each of a FULLY_CONNECTED's `units`: per channel when
// the weights are quantised per channel, else the per-tensor one repeated.
std::vector<QuantizedMultiplier> fullyConnectedMultipliers(const ir::Tensor& input,
                                                           const ir::Tensor& weights,
                                                           const ir::Tensor& output, int units);

// Whether a 16x8 CONV_2D or FULLY_CONNECTED requantises its 64-bit sum
// (TFLite's MultiplyByQuantizedMultiplier(int64_t, ...), the multiplier
// reduced to Q0.15) rather than the sum's low 32 bits: TFLite Micro sums in
// int32 only with an int32 bias, so a layer without a bias takes the 64-bit
// path (conv.cc and fully_connected.cc with the default
// quantized_bias_type, which Loupe does not import). False for int8.
bool requantizesInt64Sum(const ir::Tensor& input, const ir::Tensor* bias);

// --- element-wise binary operators ---------------------------------------------

// Quantised ADD and SUB (`type`; TFLite Micro's CalculateOpDataAdd/Sub): left
// shift 20 for int8, 15 for int16; input multipliers relative to twice the
// larger input scale, derived in double for ADD and in float for SUB as
// TFLite Micro does. TFLite Micro uses this general rescaling for int16
// whatever the operator's pot_scale_int16 flag says.
loupe_add_sub_params addSubParams(ir::OpType type, const ir::Tensor& input1,
                                  const ir::Tensor& input2, const ir::Tensor& output,
                                  ir::Activation activation);

// Whether addSubParams gives multipliers TFLite accepts: every real multiplier
// must be below 1 (QuantizeMultiplierSmallerThanOneExp), or the reason.
std::optional<std::string> checkAddSubScales(ir::OpType type, const ir::Tensor& input1,
                                             const ir::Tensor& input2, const ir::Tensor& output);

// Quantised MUL (TFLite Micro's CalculateOpDataMul): one multiplier for
// input1_scale * input2_scale / output_scale in double.
loupe_mul_params mulParams(const ir::Tensor& input1, const ir::Tensor& input2,
                           const ir::Tensor& output, ir::Activation activation);

}  // namespace loupe::reference
