// Prepare-time parameters of the activation and (de)quantisation operators:
// what TFLite Micro's Prepare functions derive from the tensors' scales and
// zero points (fixed-point multipliers and shifts, input radii, int16 lookup
// tables). The reference kernels evaluate with these, and the code generator
// emits the same numbers, so both stay bit-exact with TFLM by construction.
// Each function takes plain numbers, not graph tensors, and performs no
// validation: the kernels' check functions say when TFLM would refuse.
#pragma once

#include <array>
#include <cstdint>

#include "loupe/elementwise_unary.h"
#include "loupe/fixed_point_math.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

// TFLite's CalculateInputRadius: the largest |input - zero_point| whose
// rescaled value still fits the fixed-point format with `integerBits`.
int calculateInputRadius(int integerBits, int inputLeftShift, int totalSignedBits = 31);

// TFLite's CheckedLog2: whether x is a power of two (within 1e-3 in log2),
// and round(log2(x)) in `log2Rounded`. Computed in float as TFLite does.
bool checkedLog2(float x, int* log2Rounded);

// SOFTMAX with int8 input (int8 or int16 output). The input differences to
// the row maximum are rescaled by beta * input_scale into Q5.26; differences
// below diffMin contribute nothing.
struct SoftmaxInt8Params {
  std::int32_t inputMultiplier = 0;
  int inputLeftShift = 0;
  std::int32_t diffMin = 0;
};
inline constexpr int kSoftmaxScaledDiffIntegerBits = LOUPE_SOFTMAX_SCALED_DIFF_INTEGER_BITS;
inline constexpr int kSoftmaxAccumulationIntegerBits = LOUPE_SOFTMAX_ACCUMULATION_INTEGER_BITS;
SoftmaxInt8Params softmaxInt8Params(float inputScale, float beta);

// SOFTMAX with int16 input and output: the input differences are rescaled so
// that [-65535, 0] covers [-10, 0], then exp and 1/(1+x) come from tables.
struct SoftmaxInt16Params {
  std::int32_t inputMultiplier = 0;
  int inputLeftShift = 0;
  std::array<std::int16_t, LOUPE_INT16_LUT_SIZE> expLut{};
  std::array<std::int16_t, LOUPE_INT16_LUT_SIZE> oneOverOnePlusXLut{};
};
SoftmaxInt16Params softmaxInt16Params(float inputScale, float beta);

// int8 LOGISTIC and TANH: the input minus its zero point is rescaled to Q4.27
// for gemmlowp's logistic/tanh; beyond +-inputRangeRadius the output saturates.
struct SigmoidInt8Params {
  std::int32_t inputZeroPoint = 0;
  std::int32_t inputRangeRadius = 0;
  std::int32_t inputMultiplier = 0;
  int inputLeftShift = 0;
};
inline constexpr int kSigmoidInt8InputIntegerBits = LOUPE_SIGMOID_INT8_INPUT_INTEGER_BITS;
// Both operators derive the same numbers (TFLM logistic_common.cc, tanh.cc).
SigmoidInt8Params sigmoidInt8Params(float inputScale, std::int32_t inputZeroPoint);

// int16 LOGISTIC and TANH: parameters of loupe_logistic_int16_lut /
// loupe_tanh_int16_lut. A multiplier of 0 means the input scale is the
// power of two the table expects (after a left shift, for TANH 0 or 1).
struct SigmoidInt16Params {
  std::int32_t inputMultiplier = 0;
  int inputLeftShift = 0;
};
SigmoidInt16Params logisticInt16Params(float inputScale);
SigmoidInt16Params tanhInt16Params(float inputScale);

// int8 HARD_SWISH (TFLM hard_swish_common.cc): 16-bit multipliers from the
// input on a 2^-7 finer scale to the output scale and to the "reluish" scale
// on which 3.0 is 32768.
struct HardSwishParams {
  std::int32_t inputZeroPoint = 0;
  std::int32_t outputZeroPoint = 0;
  std::int16_t outputMultiplierFixedpointInt16 = 0;
  int outputMultiplierExponent = 0;
  std::int16_t reluishMultiplierFixedpointInt16 = 0;
  int reluishMultiplierExponent = 0;
};
HardSwishParams hardSwishParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                std::int32_t outputZeroPoint);

// TFLite's DownScaleInt32ToInt16Multiplier (rounding, saturating at 32767).
std::int16_t downScaleInt32ToInt16Multiplier(std::int32_t multiplier);

// int8/int16 LEAKY_RELU: one multiplier for x >= 0 (identity) and one for
// x < 0 (alpha), both from the input to the output scale.
struct LeakyReluParams {
  std::int32_t inputZeroPoint = 0;
  std::int32_t outputZeroPoint = 0;
  QuantizedMultiplier alpha;
  QuantizedMultiplier identity;
};
LeakyReluParams leakyReluParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                std::int32_t outputZeroPoint, float alpha);

// int8/int16 RELU: requantise, then clamp to [output zero point, type max].
struct ReluParams {
  std::int32_t inputZeroPoint = 0;
  std::int32_t outputZeroPoint = 0;
  QuantizedMultiplier requantize;
  std::int32_t quantizedMin = 0;
  std::int32_t quantizedMax = 0;
};
ReluParams reluParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                      std::int32_t outputZeroPoint, std::int32_t typeMin, std::int32_t typeMax);

// int8/int16 RELU6: a clamp to the input's quantised 0 and 6 (TFLM ignores
// the output's quantisation and does not requantise).
struct Relu6Params {
  std::int32_t zero = 0;
  std::int32_t six = 0;
};
Relu6Params relu6Params(float inputScale, std::int32_t inputZeroPoint, std::int32_t typeMin,
                        std::int32_t typeMax);

// QUANTIZE between integer types: input to output scale.
struct RequantizeParams {
  std::int32_t inputZeroPoint = 0;
  std::int32_t outputZeroPoint = 0;
  QuantizedMultiplier requantize;
};
RequantizeParams requantizeParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                  std::int32_t outputZeroPoint);

}  // namespace loupe::reference
