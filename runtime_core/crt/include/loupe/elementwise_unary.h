/*
 * One element of the one-input, one-output operators: LOGISTIC, TANH, RELU,
 * RELU6, LEAKY_RELU, HARD_SWISH, QUANTIZE and DEQUANTIZE, as TFLite Micro's
 * reference kernels compute them (default build, double rounding). The
 * reference interpreter calls these for every element; generated C calls
 * them for int16, int32 and float32 inputs, and for 8-bit inputs the compiler
 * calls them for all 256 possible values and emits the results as a table,
 * so both give the same bytes by construction. The parameters (multipliers,
 * shifts, radii, bounds) are derived once per operator by the compiler
 * (compiler_core/reference/activation_params.h).
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_ELEMENTWISE_UNARY_H_
#define LOUPE_ELEMENTWISE_UNARY_H_

#include <math.h>
#include <stdint.h>

#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "loupe/loupe_libm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- LOGISTIC and TANH ---------------------------------------------------- */

/* float logistic with TFLite's cut-offs: 1 above 16.619..., exp(x) below -9,
 * where 1 / (1 + exp(-x)) rounds to those anyway. */
static inline float loupe_logistic_f32(float x) {
  const float cutoff_upper = 16.619047164916992188f;
  const float cutoff_lower = -9.0f;
  if (x > cutoff_upper) return 1.0f;
  if (x < cutoff_lower) return loupe_libm_expf(x);
  return 1.0f / (1.0f + loupe_libm_expf(-x));
}

/* float TANH: Loupe's tanhf (loupe/loupe_libm.h), glibc's bits on every
 * board. */
static inline float loupe_tanh_f32(float x) {
  return loupe_libm_tanhf(x);
}

/* int8 LOGISTIC and TANH rescale x - zero_point to Q4.27. */
#define LOUPE_SIGMOID_INT8_INPUT_INTEGER_BITS 4

/* The int8 path LOGISTIC and TANH share (TFLM's integer_ops): -128 or 127
 * beyond +-input_range_radius, else x - zero_point rescaled to Q4.27 by
 * input_multiplier * 2^input_left_shift, gemmlowp's logistic (or tanh) in
 * Q0.31, rounded to steps of 2^-output_fraction_bits plus output_offset. */
static inline int32_t loupe_sigmoid_family_int8(int32_t x, int32_t input_zero_point,
                                                int32_t input_range_radius,
                                                int32_t input_multiplier, int input_left_shift,
                                                int is_tanh) {
  const int32_t centred = x - input_zero_point;
  int32_t input_q4;
  int32_t output_q0;
  int32_t output;
  if (centred <= -input_range_radius) return -128;
  if (centred >= input_range_radius) return 127;
  input_q4 = loupe_multiply_by_quantized_multiplier(centred, input_multiplier, input_left_shift);
  if (is_tanh) {
    /* Output: steps of 1/128 around 0. */
    output_q0 = loupe_tanh_q31(input_q4, LOUPE_SIGMOID_INT8_INPUT_INTEGER_BITS);
    output = loupe_rounding_divide_by_pot(output_q0, 31 - 7);
  } else {
    /* Output: steps of 1/256 offset by the zero point -128. */
    output_q0 = loupe_logistic_q31(input_q4, LOUPE_SIGMOID_INT8_INPUT_INTEGER_BITS);
    output = loupe_rounding_divide_by_pot(output_q0, 31 - 8) - 128;
  }
  return loupe_clamp_i32(output, -128, 127);
}

/* int8 LOGISTIC: the output has scale 1/256 and zero point -128. */
static inline int32_t loupe_logistic_int8(int32_t x, int32_t input_zero_point,
                                          int32_t input_range_radius, int32_t input_multiplier,
                                          int input_left_shift) {
  return loupe_sigmoid_family_int8(x, input_zero_point, input_range_radius, input_multiplier,
                                   input_left_shift, 0);
}

/* int8 TANH: the output is computed for scale 1/128 and zero point 0. */
static inline int32_t loupe_tanh_int8(int32_t x, int32_t input_zero_point,
                                      int32_t input_range_radius, int32_t input_multiplier,
                                      int input_left_shift) {
  return loupe_sigmoid_family_int8(x, input_zero_point, input_range_radius, input_multiplier,
                                   input_left_shift, 1);
}

/* int16 LOGISTIC and TANH are loupe_logistic_int16_lut and loupe_tanh_int16_lut
 * of loupe/fixed_point_math.h (shared with the int16 LSTM). */

/* ---- RELU, RELU6, LEAKY_RELU ---------------------------------------------- */

/* float RELU; a NaN passes through. */
static inline float loupe_relu_f32(float x) {
  return x < 0.0f ? 0.0f : x;
}

/* int8/int16 RELU: x - input_zero_point requantised to the output scale, plus
 * the output zero point, clamped to [qmin, qmax] (qmin is the output zero
 * point unless the type's minimum is larger). */
static inline int32_t loupe_relu_quantized(int32_t x, int32_t input_zero_point, int32_t multiplier,
                                           int shift, int32_t output_zero_point, int32_t qmin,
                                           int32_t qmax) {
  const int32_t scaled =
      loupe_multiply_by_quantized_multiplier(x - input_zero_point, multiplier, shift);
  return loupe_clamp_i32(output_zero_point + scaled, qmin, qmax);
}

/* float RELU6; a NaN passes through. */
static inline float loupe_relu6_f32(float x) {
  return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x);
}

/* int8/int16 RELU6: x clamped to the input's quantised 0 and 6, upper bound
 * first (TFLM's order, which decides the result should zero exceed six). */
static inline int32_t loupe_relu6_quantized(int32_t x, int32_t zero, int32_t six) {
  return x > six ? six : (x < zero ? zero : x);
}

/* float LEAKY_RELU: x for x > 0, else alpha * x (alpha may exceed 1 or be
 * negative, so this is not max(x, alpha * x)). */
static inline float loupe_leaky_relu_f32(float x, float alpha) {
  return x > 0.0f ? x : x * alpha;
}

/* int8/int16 LEAKY_RELU: x - input_zero_point requantised with the identity
 * multiplier when it is >= 0 and with the alpha multiplier below, plus the
 * output zero point, clamped to the output type's [qmin, qmax]. A negative
 * alpha multiplier scales by its magnitude and negates the result, as TFLite
 * Micro's QuantizeLeakyRelu does: the doubling high multiply rounds ties up,
 * so scaling by the negative multiplier itself rounds some ties the other
 * way (alpha -0.5, equal scales: -1 gives 0 in TFLM, 1 that way). */
static inline int32_t loupe_leaky_relu_quantized(int32_t x, int32_t input_zero_point,
                                                 int32_t output_zero_point,
                                                 int32_t identity_multiplier, int identity_shift,
                                                 int32_t alpha_multiplier, int alpha_shift,
                                                 int32_t qmin, int32_t qmax) {
  const int32_t centred = x - input_zero_point;
  int32_t scaled;
  if (centred >= 0) {
    scaled = loupe_multiply_by_quantized_multiplier(centred, identity_multiplier, identity_shift);
  } else if (alpha_multiplier < 0) {
    const int32_t magnitude = (int32_t)(0u - (uint32_t)alpha_multiplier);
    scaled = -loupe_multiply_by_quantized_multiplier(centred, magnitude, alpha_shift);
  } else {
    scaled = loupe_multiply_by_quantized_multiplier(centred, alpha_multiplier, alpha_shift);
  }
  return loupe_clamp_i32(output_zero_point + scaled, qmin, qmax);
}

/* ---- HARD_SWISH ------------------------------------------------------------- */

/* float HARD_SWISH, x * relu6(x + 3) / 6, with std::max/std::min's
 * comparisons (a NaN in x + 3 becomes 0 in the factor). */
static inline float loupe_hard_swish_f32(float x) {
  const float shifted = x + 3.0f;
  const float relu = 0.0f < shifted ? shifted : 0.0f;
  const float relu6 = relu < 6.0f ? relu : 6.0f;
  return x * relu6 / 6.0f;
}

/* int8 HARD_SWISH (TFLM's reference_ops::HardSwish in 16-bit fixed point):
 * the input on a 2^-7 finer scale, a "reluish" factor in [0, 1] from x
 * rescaled so that 3.0 is 32768, and their product rounded toward zero to
 * cancel the rounding biases. output_exponent <= 0. */
static inline int32_t loupe_hard_swish_int8(int32_t x, int32_t input_zero_point,
                                            int32_t output_zero_point, int16_t output_multiplier,
                                            int output_exponent, int16_t reluish_multiplier,
                                            int reluish_exponent) {
  const int16_t input_value = (int16_t)(x - input_zero_point);
  /* As many significant bits as int16 holds for an int8 difference. */
  const int16_t hires_input = (int16_t)(input_value * (1 << 7));
  const int16_t preshift_output_scale =
      loupe_saturating_rounding_doubling_high_mul_i16(hires_input, output_multiplier);
  int16_t reluish = hires_input;
  int16_t preshift_output;
  int16_t output;
  /* Left shifts happen in two steps so that any saturation is decided by
   * the last bit only. */
  if (reluish_exponent > 0) {
    reluish = loupe_saturating_left_shift_i16(reluish, reluish_exponent - 1);
  }
  reluish = loupe_saturating_rounding_doubling_high_mul_i16(reluish, reluish_multiplier);
  if (reluish_exponent > 0) reluish = loupe_saturating_left_shift_i16(reluish, 1);
  if (reluish_exponent < 0) reluish = loupe_rounding_divide_by_pot_i16(reluish, -reluish_exponent);
  /* [-1, 1] to [0, 1]. */
  reluish = (int16_t)((reluish + (1 << 15)) >> 1);
  preshift_output = loupe_saturating_doubling_high_mul_i16(reluish, preshift_output_scale);
  output = loupe_rounding_divide_by_pot_i16(preshift_output, -output_exponent);
  output = (int16_t)(output + output_zero_point);
  return output < -128 ? -128 : (output > 127 ? 127 : output);
}

/* ---- QUANTIZE and DEQUANTIZE ------------------------------------------------ */

/* float QUANTIZE: zero_point + round(x / scale) (half away from zero), clamped
 * to the output type's [qmin, qmax]. The float-to-int32 conversion behaves as
 * x86's cvttss2si, where TFLM made the golden data: NaN and values outside
 * int32 become INT32_MIN (which C leaves undefined); the zero point is added
 * wrapping. */
static inline int32_t loupe_quantize_f32(float x, float scale, int32_t zero_point, int32_t qmin,
                                         int32_t qmax) {
  const float rounded = roundf(x / scale);
  const int32_t truncated =
      rounded >= -2147483648.0f && rounded < 2147483648.0f ? (int32_t)rounded : INT32_MIN;
  return loupe_clamp_i32(loupe_wrapping_add_i32(truncated, zero_point), qmin, qmax);
}

/* QUANTIZE between integer types: x - input_zero_point (wrapping) scaled by
 * multiplier * 2^shift, plus the output zero point in 64 bits, clamped to
 * the output type's [qmin, qmax]. */
static inline int32_t loupe_requantize(int32_t x, int32_t input_zero_point, int32_t multiplier,
                                       int shift, int32_t output_zero_point, int32_t qmin,
                                       int32_t qmax) {
  const int32_t centred = loupe_wrapping_sub_i32(x, input_zero_point);
  const int64_t output =
      (int64_t)loupe_multiply_by_quantized_multiplier(centred, multiplier, shift) +
      output_zero_point;
  return output < qmin ? qmin : (output > qmax ? qmax : (int32_t)output);
}

/* DEQUANTIZE: scale * (q - zero_point) in float. */
static inline float loupe_dequantize(int32_t q, float scale, int32_t zero_point) {
  return scale * (float)(q - zero_point);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ELEMENTWISE_UNARY_H_ */
