#include "reference/activation_params.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace loupe::reference {

namespace {

float expTransform(float value) {
  return std::exp(value);
}
float oneOverOnePlusXTransform(float value) {
  return 1.0f / (1.0f + value);
}

// The int16 LOGISTIC/TANH tables read their rescaled input as 3 * 4096 units
// per 1.0 ([-8, 8] stretched to [-10.7, 10.7]); 3 integer bits in Q3.12.
constexpr int kSigmoidInt16InputIntegerBits = 3;

SigmoidInt16Params sigmoidInt16Params(float inputScale, bool oneIsPowerOfTwoShift) {
  SigmoidInt16Params params;
  int inputScaleLog2 = 0;
  bool powerOfTwo = checkedLog2(inputScale, &inputScaleLog2);
  params.inputLeftShift = (15 - kSigmoidInt16InputIntegerBits) + inputScaleLog2;
  powerOfTwo = powerOfTwo &&
               (params.inputLeftShift == 0 || (oneIsPowerOfTwoShift && params.inputLeftShift == 1));
  if (powerOfTwo) {
    params.inputMultiplier = 0;
    return params;
  }
  // Rescale to 1/(3 * 4096) per unit with a 16-bit multiplier in
  // (16383.5, 32767] and the matching right shift.
  double multiplier = static_cast<double>(inputScale) * 4096.0 * 3.0;
  params.inputLeftShift = 0;
  while (multiplier <= 32767.0 / 2.0 && params.inputLeftShift <= 30) {
    ++params.inputLeftShift;
    multiplier *= 2.0;
  }
  params.inputMultiplier = static_cast<std::int32_t>(multiplier);
  return params;
}

}  // namespace

int calculateInputRadius(int integerBits, int inputLeftShift, int totalSignedBits) {
  // ((2^integerBits - 1) * 2^(totalSignedBits - integerBits)) / 2^inputLeftShift;
  // ldexp is the same exact division and stays defined for negative shifts.
  const double maxInputRescaled = std::ldexp(
      1.0 * ((1 << integerBits) - 1) * static_cast<double>(1LL << (totalSignedBits - integerBits)),
      -inputLeftShift);
  // floor: the rescaled radius itself must still be representable.
  return static_cast<int>(std::floor(maxInputRescaled));
}

bool checkedLog2(float x, int* log2Rounded) {
  const float xLog2 = std::log(x) * (1.0f / std::log(2.0f));
  const float xLog2Rounded = std::round(xLog2);
  *log2Rounded = static_cast<int>(xLog2Rounded);
  return std::abs(xLog2 - xLog2Rounded) < 1e-3f;
}

SoftmaxInt8Params softmaxInt8Params(float inputScale, float beta) {
  SoftmaxInt8Params params;
  // TFLite's PreprocessSoftmaxScaling: beta * scale in Q5.26, capped so the
  // multiplier stays a valid int32 fixed-point number.
  const double maxRealMultiplier = static_cast<double>((1LL << 31) - 1);
  const double realMultiplier =
      std::min<double>(static_cast<double>(beta) * static_cast<double>(inputScale) *
                           static_cast<double>(1 << (31 - kSoftmaxScaledDiffIntegerBits)),
                       maxRealMultiplier);
  const QuantizedMultiplier quantized = quantizeMultiplier(realMultiplier);
  params.inputMultiplier = quantized.multiplier;
  params.inputLeftShift = quantized.shift;
  params.diffMin = static_cast<std::int32_t>(
      -1.0 * calculateInputRadius(kSoftmaxScaledDiffIntegerBits, params.inputLeftShift));
  return params;
}

SoftmaxInt16Params softmaxInt16Params(float inputScale, float beta) {
  SoftmaxInt16Params params;
  // Input differences in [-65535, 0] cover exp's table range [-10, 0].
  const double rescale =
      static_cast<double>(inputScale) * static_cast<double>(beta) / (10.0 / 65535.0);
  const QuantizedMultiplier quantized = quantizeMultiplier(rescale);
  params.inputMultiplier = quantized.multiplier;
  params.inputLeftShift = quantized.shift;

  const std::int32_t range =
      std::numeric_limits<std::int16_t>::max() - std::numeric_limits<std::int16_t>::min();
  // exp on [-10, 0] and 1/(1+x) on [0, 1], both to the symmetric range [-1, 1].
  loupe_lut_populate_int16(10.0f / static_cast<float>(range), INT16_MAX,
                           2.0f / static_cast<float>(range), 0, expTransform, params.expLut.data());
  loupe_lut_populate_int16(1.0f / static_cast<float>(range), INT16_MIN,
                           2.0f / static_cast<float>(range), 0, oneOverOnePlusXTransform,
                           params.oneOverOnePlusXLut.data());
  return params;
}

SigmoidInt8Params sigmoidInt8Params(float inputScale, std::int32_t inputZeroPoint) {
  SigmoidInt8Params params;
  params.inputZeroPoint = inputZeroPoint;
  const double realMultiplier = static_cast<double>(inputScale) *
                                static_cast<double>(1 << (31 - kSigmoidInt8InputIntegerBits));
  // TFLM rounds frexp's mantissa itself here, without QuantizeMultiplier's
  // care for a mantissa that rounds up to 2^31.
  const double mantissa = std::frexp(realMultiplier, &params.inputLeftShift);
  const auto fixed =
      static_cast<std::int64_t>(std::round(mantissa * static_cast<double>(1LL << 31)));
  // x86 turns the out-of-range conversion TFLM then does into INT32_MIN.
  params.inputMultiplier = fixed == (1LL << 31) ? std::numeric_limits<std::int32_t>::min()
                                                : static_cast<std::int32_t>(fixed);
  params.inputRangeRadius =
      calculateInputRadius(kSigmoidInt8InputIntegerBits, params.inputLeftShift);
  return params;
}

SigmoidInt16Params logisticInt16Params(float inputScale) {
  return sigmoidInt16Params(inputScale, /*oneIsPowerOfTwoShift=*/false);
}

SigmoidInt16Params tanhInt16Params(float inputScale) {
  return sigmoidInt16Params(inputScale, /*oneIsPowerOfTwoShift=*/true);
}

std::int16_t downScaleInt32ToInt16Multiplier(std::int32_t multiplier) {
  constexpr std::int32_t kRounding = 1 << 15;
  if (multiplier >= std::numeric_limits<std::int32_t>::max() - kRounding) {
    return std::numeric_limits<std::int16_t>::max();
  }
  return static_cast<std::int16_t>((multiplier + kRounding) >> 16);
}

HardSwishParams hardSwishParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                std::int32_t outputZeroPoint) {
  HardSwishParams params;
  params.inputZeroPoint = inputZeroPoint;
  params.outputZeroPoint = outputZeroPoint;
  // All in float first, as TFLM does: the input on a 128x finer scale, and the
  // scale on which 3.0 is represented by 32768.
  const float hiresInputScale = (1.0f / 128.0f) * inputScale;
  const float reluishScale = 3.0f / 32768.0f;
  const QuantizedMultiplier output =
      quantizeMultiplier(static_cast<double>(hiresInputScale / outputScale));
  params.outputMultiplierFixedpointInt16 = downScaleInt32ToInt16Multiplier(output.multiplier);
  params.outputMultiplierExponent = output.shift;
  const QuantizedMultiplier reluish =
      quantizeMultiplier(static_cast<double>(hiresInputScale / reluishScale));
  params.reluishMultiplierFixedpointInt16 = downScaleInt32ToInt16Multiplier(reluish.multiplier);
  params.reluishMultiplierExponent = reluish.shift;
  return params;
}

LeakyReluParams leakyReluParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                std::int32_t outputZeroPoint, float alpha) {
  LeakyReluParams params;
  params.inputZeroPoint = inputZeroPoint;
  params.outputZeroPoint = outputZeroPoint;
  // Float quotients, as TFLM computes them (so does RELU).
  params.alpha = quantizeMultiplier(static_cast<double>(inputScale * alpha / outputScale));
  params.identity = quantizeMultiplier(static_cast<double>(inputScale / outputScale));
  return params;
}

ReluParams reluParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                      std::int32_t outputZeroPoint, std::int32_t typeMin, std::int32_t typeMax) {
  ReluParams params;
  params.inputZeroPoint = inputZeroPoint;
  params.outputZeroPoint = outputZeroPoint;
  // The quotient in float, widened (activations_common.cc's
  // CalculateReluOpData at TFLM 90b983c; dividing in double instead puts
  // some outputs one step off).
  params.requantize = quantizeMultiplier(static_cast<double>(inputScale / outputScale));
  // The quantised real 0 (round(0 / scale) is 0); no upper bound but the type's.
  params.quantizedMin = std::max(typeMin, outputZeroPoint);
  params.quantizedMax = typeMax;
  return params;
}

Relu6Params relu6Params(float inputScale, std::int32_t inputZeroPoint, std::int32_t typeMin,
                        std::int32_t typeMax) {
  Relu6Params params;
  params.zero = inputZeroPoint;
  // TFLM's FloatToQuantizedType<T>(6.0f, scale, zero_point).
  const auto six = static_cast<std::int32_t>(std::round(static_cast<double>(6.0f / inputScale)) +
                                             inputZeroPoint);
  params.six = std::min(std::max(six, typeMin), typeMax);
  return params;
}

RequantizeParams requantizeParams(float inputScale, std::int32_t inputZeroPoint, float outputScale,
                                  std::int32_t outputZeroPoint) {
  RequantizeParams params;
  params.inputZeroPoint = inputZeroPoint;
  params.outputZeroPoint = outputZeroPoint;
  params.requantize =
      quantizeMultiplier(static_cast<double>(inputScale) / static_cast<double>(outputScale));
  return params;
}

}  // namespace loupe::reference
