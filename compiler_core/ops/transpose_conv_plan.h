// TRANSPOSE_CONV parameters as TFLite Micro derives them in Prepare: padding
// from the output size, per-output-channel requantisation multipliers and
// the activation clamp. Shared by the reference kernel and the code
// generator.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/attributes.h"
#include "ir/tensor.h"

namespace loupe::reference {

struct TransposeConvPlan {
  int padWidth = 0;
  int padHeight = 0;
  // Quantised variants: one (multiplier, shift) per output channel.
  std::vector<std::int32_t> outputMultipliers;
  std::vector<int> outputShifts;
  std::int32_t inputOffset = 0;   // -input zero point (int8)
  std::int32_t outputOffset = 0;  // output zero point (int8)
  std::int32_t activationMin = 0;
  std::int32_t activationMax = 0;
  // float32
  float floatActivationMin = 0.0f;
  float floatActivationMax = 0.0f;
};

// TFLite's ComputePaddingHeightWidth as TRANSPOSE_CONV uses it: the output's
// spatial size plays the role of the convolution's input size.
int transposeConvPadding(ir::Padding padding, int stride, int outputSize, int filterSize);

// input [N,H,W,Cin], filter [Cout,KH,KW,Cin], output [N,OH,OW,Cout].
TransposeConvPlan planTransposeConv(const ir::Tensor& input, const ir::Tensor& filter,
                                    const ir::Tensor& output, const ir::TransposeConvAttrs& attrs);

}  // namespace loupe::reference
