/*
 * Fixed-point arithmetic of quantised kernels, shared by the desktop
 * reference interpreter and the generated C so both give TFLite's bytes.
 * The definitions follow TFLite (Micro)'s default build (double rounding,
 * i.e. TFLITE_SINGLE_ROUNDING undefined) and gemmlowp's fixed-point helpers.
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_FIXED_POINT_H_
#define LOUPE_FIXED_POINT_H_

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline int32_t loupe_min_i32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t loupe_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t loupe_clamp_i32(int32_t x, int32_t lo, int32_t hi) {
  return loupe_min_i32(loupe_max_i32(x, lo), hi);
}

/* gemmlowp SaturatingRoundingDoublingHighMul: the high 32 bits of 2*a*b,
 * rounded to nearest, saturating the single overflow case INT32_MIN^2. */
static inline int32_t loupe_saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  const int64_t ab = (int64_t)a * (int64_t)b;
  const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  if (a == b && a == INT32_MIN) return INT32_MAX;
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away
 * from zero. exponent in [0, 31]. */
static inline int32_t loupe_rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x * multiplier * 2^shift with multiplier a Q0.31 value; TFLite's
 * MultiplyByQuantizedMultiplier(int32_t, int32_t, int). */
static inline int32_t loupe_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier,
                                                             int shift) {
  /* Shifts beyond 31 only come from scales TFLite rejects; bounding them
   * keeps the arithmetic defined for any model without changing valid ones. */
  const int left_shift = shift > 0 ? (shift < 31 ? shift : 31) : 0;
  const int right_shift = shift > 0 ? 0 : (-shift < 31 ? -shift : 31);
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  return loupe_rounding_divide_by_pot(
      loupe_saturating_rounding_doubling_high_mul(shifted, multiplier), right_shift);
}

/* TFLite's MultiplyByQuantizedMultiplier(int64_t, int32_t, int), used with
 * 64-bit accumulators (16x8 convolutions): the multiplier is reduced to Q0.15. */
static inline int32_t loupe_multiply_by_quantized_multiplier_i64(int64_t x, int32_t multiplier,
                                                                 int shift) {
  /* TFLite requires |x| < 2^47 here; clamping only changes inputs outside
   * that range (a corrupt int64 bias), where the product would overflow. */
  const int64_t limit = (int64_t)1 << 47;
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  if (x < -limit) x = -limit;
  if (x > limit - 1) x = limit - 1;
  /* TFLite's shift range [-31, 7] gives total shifts 8..46; bound the rest. */
  const int total_shift = 15 - shift < 1 ? 1 : (15 - shift > 62 ? 62 : 15 - shift);
  const int64_t round = (int64_t)1 << (total_shift - 1);
  const int64_t result = (x * (int64_t)reduced + round) >> total_shift;
  return (int32_t)result;
}

/* TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp (left_shift <= 0). */
static inline int32_t loupe_multiply_by_quantized_multiplier_smaller_than_one(int32_t x,
                                                                              int32_t multiplier,
                                                                              int left_shift) {
  return loupe_rounding_divide_by_pot(loupe_saturating_rounding_doubling_high_mul(x, multiplier),
                                      -left_shift);
}

/* TFLite's MultiplyByQuantizedMultiplierGreaterThanOne (left_shift >= 0). */
static inline int32_t loupe_multiply_by_quantized_multiplier_greater_than_one(int32_t x,
                                                                              int32_t multiplier,
                                                                              int left_shift) {
  return loupe_saturating_rounding_doubling_high_mul((int32_t)((uint32_t)x << left_shift),
                                                     multiplier);
}

/* TFLite's QuantizeMultiplier: real = multiplier * 2^shift / 2^31 with the
 * multiplier in [2^30, 2^31). Compile-time only (uses floating point). */
static inline void loupe_quantize_multiplier(double real, int32_t* multiplier, int* shift) {
  double q;
  int64_t q_fixed;
  if (real == 0.0) {
    *multiplier = 0;
    *shift = 0;
    return;
  }
  q = frexp(real, shift);
  q_fixed = (int64_t)round(q * (double)((int64_t)1 << 31));
  if (q_fixed == ((int64_t)1 << 31)) {
    q_fixed /= 2;
    ++*shift;
  }
  /* Shifts below -31 would shift every bit out: the result is zero. */
  if (*shift < -31) {
    *shift = 0;
    q_fixed = 0;
  }
  *multiplier = (int32_t)q_fixed;
}

/* TFLite's quantised value of a real number: zero_point + round(real / scale),
 * computed in float as TFLite does. */
static inline int32_t loupe_quantize_value(float real, float scale, int32_t zero_point) {
  return zero_point + (int32_t)roundf(real / scale);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_FIXED_POINT_H_ */
