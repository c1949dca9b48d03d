/*
 * Fixed-point math of quantised activations, shared by the desktop reference
 * interpreter and the generated C so both give TFLite Micro's bytes:
 *
 *  - gemmlowp's FixedPoint<int32_t, IntegerBits> functions (exp on negative
 *    values, 1/(1+x), logistic, tanh, rescaling). A fixed-point value is
 *    passed as its raw int32_t plus its number of integer bits m, i.e. the
 *    format Qm.(31-m); results of exp, logistic and tanh are Q0.31.
 *  - the int16 helpers of TFLite's quantised HARD_SWISH (16-bit arithmetic,
 *    which differs from the 32-bit helpers at the edges);
 *  - the per-row and per-element steps of int8-input SOFTMAX (exp of the
 *    difference to the row maximum, the Q12.19 sum, its reciprocal, the
 *    output), as scalar functions a generated loop calls directly;
 *  - the interpolating 513-entry int16 lookup tables (generation and lookup)
 *    and the scalar steps of int16 SOFTMAX around them;
 *  - TFLite Micro's int16 LOGISTIC and TANH, which interpolate a 256-entry
 *    sigmoid table (also what its int16 LSTM uses for its gates).
 *
 * Everything follows TFLite Micro's default build (TFLITE_SINGLE_ROUNDING
 * undefined). Functions marked "set-up only" use floating point and belong
 * in a compiler or an init step, not in an inner loop. C99, header-only, no
 * allocation; usable from C++. Builds for another target must not contract
 * float multiply-adds (-ffp-contract=off) or the int16 tables may differ.
 */
#ifndef LOUPE_FIXED_POINT_MATH_H_
#define LOUPE_FIXED_POINT_MATH_H_

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "loupe/fixed_point.h"
#include "loupe/loupe_libm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Integer primitives ------------------------------------------------- */

/* Two's-complement wrapping arithmetic: what gemmlowp's plain Add/Sub/Neg do
 * on the hardware TFLite runs on, without C's undefined signed overflow. */
static inline int32_t loupe_wrapping_add_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
static inline int32_t loupe_wrapping_sub_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}
static inline int32_t loupe_wrapping_neg_i32(int32_t a) {
  return (int32_t)(0u - (uint32_t)a);
}

/* Number of leading zero bits of x; 32 for x == 0. */
static inline int loupe_count_leading_zeros_u32(uint32_t x) {
  int count = 0;
  if (x == 0) return 32;
  while ((x & 0x80000000u) == 0) {
    x <<= 1;
    ++count;
  }
  return count;
}

/* gemmlowp RoundingHalfSum: (a + b) / 2, rounded to nearest, ties away from
 * zero. */
static inline int32_t loupe_rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  const int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

/* x * 2^exponent, exponent in [-31, 31]: a saturating left shift when
 * exponent > 0, a rounding right shift (RoundingDivideByPOT) when < 0.
 * gemmlowp's SaturatingRoundingMultiplyByPOT with a run-time exponent. */
static inline int32_t loupe_saturating_rounding_multiply_by_pot(int32_t x, int exponent) {
  int32_t threshold;
  if (exponent == 0) return x;
  if (exponent < 0) return loupe_rounding_divide_by_pot(x, -exponent);
  threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return (int32_t)((uint32_t)x << exponent);
}

/* gemmlowp Rescale: the same real value moved from Q(src).(31-src) to
 * Q(dst).(31-dst), saturating or rounding as needed. */
static inline int32_t loupe_fixed_point_rescale(int32_t raw, int src_integer_bits,
                                                int dst_integer_bits) {
  return loupe_saturating_rounding_multiply_by_pot(raw, src_integer_bits - dst_integer_bits);
}

/* ---- gemmlowp fixed-point functions (int32) ------------------------------ */

/* exp(a) for a in [-1/4, 0), a and the result in Q0.31: a Taylor expansion
 * around -1/8 (gemmlowp exp_on_interval_between_negative_one_quarter_and_0_excl). */
static inline int32_t loupe_exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668;               /* exp(-1/8) in Q0.31 */
  const int32_t one_third = 715827883;                           /* 1/3 in Q0.31 */
  const int32_t x = loupe_wrapping_add_i32(a, (int32_t)1 << 28); /* a + 1/8 */
  const int32_t x2 = loupe_saturating_rounding_doubling_high_mul(x, x);
  const int32_t x3 = loupe_saturating_rounding_doubling_high_mul(x2, x);
  const int32_t x4 = loupe_saturating_rounding_doubling_high_mul(x2, x2);
  const int32_t x4_over_4 = loupe_rounding_divide_by_pot(x4, 2);
  /* x^4/24 + x^3/6 + x^2/2 = ((x^4/4 + x^3) / 3 + x^2) / 2 */
  const int32_t higher_terms = loupe_rounding_divide_by_pot(
      loupe_wrapping_add_i32(loupe_saturating_rounding_doubling_high_mul(
                                 loupe_wrapping_add_i32(x4_over_4, x3), one_third),
                             x2),
      1);
  return loupe_wrapping_add_i32(exp_minus_one_eighth,
                                loupe_saturating_rounding_doubling_high_mul(
                                    exp_minus_one_eighth, loupe_wrapping_add_i32(x, higher_terms)));
}

/* exp(a) for a <= 0 given in Q(integer_bits).(31-integer_bits), integer_bits
 * in [0, 29]; the result is Q0.31 (exp(0) gives INT32_MAX). gemmlowp
 * exp_on_negative_values: exp of a mod 1/4 by the polynomial above, then one
 * multiplication by exp(-2^k) for each bit k of the rest. */
static inline int32_t loupe_exp_on_negative_values(int32_t a, int integer_bits) {
  /* exp(-2^k) in Q0.31 for k = -2 .. 4 */
  static const int32_t exp_of_minus_power_of_two[7] = {1672461947, 1302514674, 790015084, 290630308,
                                                       39332535,   720401,     242};
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;
  const int32_t remainder = loupe_wrapping_sub_i32(a_mod_quarter_minus_one_quarter, a);
  int32_t result = loupe_exp_on_interval_between_negative_one_quarter_and_0_excl(
      loupe_fixed_point_rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0));
  int k;
  for (k = -2; k <= 4; ++k) {
    if (integer_bits > k && (remainder & ((int32_t)1 << (fractional_bits + k))) != 0) {
      result =
          loupe_saturating_rounding_doubling_high_mul(result, exp_of_minus_power_of_two[k + 2]);
    }
  }
  /* Below -32 the product above has underflowed anyway; gemmlowp makes it 0. */
  if (integer_bits > 5 && a < -((int32_t)1 << (36 - integer_bits))) result = 0;
  if (a == 0) result = INT32_MAX;
  return result;
}

/* The Newton-Raphson step shared by the two divisions below: returns, in
 * Q2.29, an approximation of 1 / half_denominator for half_denominator in
 * [1/2, 1) given in Q0.31 (start 48/17 - 32/17 * d, then three iterations). */
static inline int32_t loupe_newton_raphson_reciprocal_q2(int32_t half_denominator) {
  const int32_t forty_eight_over_seventeen = 1515870810;       /* Q2.29 */
  const int32_t minus_thirty_two_over_seventeen = -1010580540; /* Q2.29 */
  const int32_t one_q2 = (int32_t)1 << 29;
  int32_t x = loupe_wrapping_add_i32(forty_eight_over_seventeen,
                                     loupe_saturating_rounding_doubling_high_mul(
                                         half_denominator, minus_thirty_two_over_seventeen));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x =
        loupe_saturating_rounding_doubling_high_mul(half_denominator, x);
    const int32_t one_minus_half_denominator_times_x =
        loupe_wrapping_sub_i32(one_q2, half_denominator_times_x);
    /* x (Q2) * (1 - d*x) (Q2) is Q4; bring it back to Q2. */
    x = loupe_wrapping_add_i32(
        x, loupe_fixed_point_rescale(
               loupe_saturating_rounding_doubling_high_mul(x, one_minus_half_denominator_times_x),
               4, 2));
  }
  return x;
}

/* 1 / (1 + a) for a in [0, 1), a and the result in Q0.31 (gemmlowp
 * one_over_one_plus_x_for_x_in_0_1). */
static inline int32_t loupe_one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t half_denominator = loupe_rounding_half_sum(a, INT32_MAX);
  const int32_t x = loupe_newton_raphson_reciprocal_q2(half_denominator);
  /* 1/(1+a) = (1/d)/2: the Q2.29 raw read as Q1.30, rescaled to Q0.31. */
  return loupe_fixed_point_rescale(x, 1, 0);
}

/* (1 - a) / (1 + a) for a in [0, 1), a and the result in Q0.31 (gemmlowp
 * one_minus_x_over_one_plus_x_for_x_in_0_1). */
static inline int32_t loupe_one_minus_x_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t half_denominator = loupe_rounding_half_sum(a, INT32_MAX);
  const int32_t x = loupe_newton_raphson_reciprocal_q2(half_denominator);
  return loupe_fixed_point_rescale(loupe_wrapping_sub_i32(x, (int32_t)1 << 29), 2, 0);
}

/* logistic(a) = 1 / (1 + exp(-a)) for any a in Q(integer_bits).(31-integer_bits),
 * integer_bits in [0, 29]; the result is Q0.31 and logistic(0) is exactly 1/2
 * (gemmlowp logistic). */
static inline int32_t loupe_logistic_q31(int32_t a, int integer_bits) {
  int32_t result_if_positive;
  if (a == 0) return (int32_t)1 << 30;
  result_if_positive = loupe_one_over_one_plus_x_for_x_in_0_1(
      loupe_exp_on_negative_values(a > 0 ? loupe_wrapping_neg_i32(a) : a, integer_bits));
  return a > 0 ? result_if_positive : loupe_wrapping_sub_i32(INT32_MAX, result_if_positive);
}

/* tanh(a) for any a in Q(integer_bits).(31-integer_bits), integer_bits in
 * [0, 28]; the result is Q0.31 (gemmlowp tanh: (1 - exp(-2|a|)) / (1 + exp(-2|a|))
 * with the sign of a). */
static inline int32_t loupe_tanh_q31(int32_t a, int integer_bits) {
  int32_t minus_tanh_of_negative;
  if (a == 0) return 0;
  /* -|a| read with one more integer bit is exactly -2|a|. */
  minus_tanh_of_negative = loupe_one_minus_x_over_one_plus_x_for_x_in_0_1(
      loupe_exp_on_negative_values(a < 0 ? a : loupe_wrapping_neg_i32(a), integer_bits + 1));
  return a < 0 ? loupe_wrapping_neg_i32(minus_tanh_of_negative) : minus_tanh_of_negative;
}

/* 1/x for x > 0 given in Q(x_integer_digits).(31-x_integer_digits), as TFLite's
 * GetReciprocal: returns a Q0.31 value r and sets *num_bits_over_unit = n such
 * that 1/x = r * 2^-n. */
static inline int32_t loupe_get_reciprocal(int32_t x, int x_integer_digits,
                                           int* num_bits_over_unit) {
  const int headroom_plus_one = loupe_count_leading_zeros_u32((uint32_t)x);
  /* x shifted so that its leading one is the sign bit, minus one: in [0, 1). */
  const int32_t shifted_minus_one =
      (int32_t)(((uint32_t)x << headroom_plus_one) - ((uint32_t)1 << 31));
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  return loupe_one_over_one_plus_x_for_x_in_0_1(shifted_minus_one);
}

/* ---- SOFTMAX with int8 input (TFLite Micro's SoftmaxInt8) ---------------- */

/* The fixed-point formats of the int8 SOFTMAX: input differences rescaled to
 * Q5.26, the sum of exponentials accumulated in Q12.19. */
#define LOUPE_SOFTMAX_SCALED_DIFF_INTEGER_BITS 5
#define LOUPE_SOFTMAX_ACCUMULATION_INTEGER_BITS 12

/* exp(beta * input_scale * diff) in Q0.31 for diff = x - row maximum <= 0,
 * with diff rescaled to Q5.26 by input_multiplier * 2^input_left_shift; 0
 * when diff < diff_min, where TFLite leaves the element out. (0 then gives
 * the same sum and the same output as leaving it out.) */
static inline int32_t loupe_softmax_exp_q31(int32_t diff, int32_t diff_min,
                                            int32_t input_multiplier, int input_left_shift) {
  if (diff < diff_min) return 0;
  return loupe_exp_on_negative_values(loupe_multiply_by_quantized_multiplier_greater_than_one(
                                          diff, input_multiplier, input_left_shift),
                                      LOUPE_SOFTMAX_SCALED_DIFF_INTEGER_BITS);
}

/* An exponential in Q0.31 as a term of the Q12.19 sum (added wrapping). */
static inline int32_t loupe_softmax_sum_term(int32_t exp_q31) {
  return loupe_fixed_point_rescale(exp_q31, 0, LOUPE_SOFTMAX_ACCUMULATION_INTEGER_BITS);
}

/* 1 / sum for the Q12.19 sum of a row, as a Q0.31 value r; the sum is
 * r * 2^-n with n from loupe_softmax_reciprocal_exponent. */
static inline int32_t loupe_softmax_reciprocal(int32_t sum_q12) {
  int num_bits_over_unit;
  return loupe_get_reciprocal(sum_q12, LOUPE_SOFTMAX_ACCUMULATION_INTEGER_BITS,
                              &num_bits_over_unit);
}

/* The right shift that takes exp * reciprocal to an output of output_bits
 * (8 or 16) bits: num_bits_over_unit + 31 - output_bits, kept in [0, 31]
 * (TFLite aborts outside it; only an int8 row of more than ~500 maxima). */
static inline int loupe_softmax_reciprocal_exponent(int32_t sum_q12, int output_bits) {
  const int exponent = LOUPE_SOFTMAX_ACCUMULATION_INTEGER_BITS -
                       loupe_count_leading_zeros_u32((uint32_t)sum_q12) + 31 - output_bits;
  return exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);
}

/* One output of the int8-input SOFTMAX: exp / sum on the output's [0, 1)
 * scale, shifted down by 2^(output_bits-1) (output_min) and saturated. */
static inline int32_t loupe_softmax_output(int32_t exp_q31, int32_t reciprocal, int exponent,
                                           int32_t output_min, int32_t output_max) {
  const int32_t unsaturated = loupe_rounding_divide_by_pot(
      loupe_saturating_rounding_doubling_high_mul(reciprocal, exp_q31), exponent);
  return loupe_clamp_i32(unsaturated + output_min, output_min, output_max);
}

/* expf for the float SOFTMAX, LOG_SOFTMAX and EXP of the reference and the
 * generated code: Loupe's own (loupe/loupe_libm.h), the same bits everywhere. */
static inline float loupe_expf(float x) {
  return loupe_libm_expf(x);
}

/* ---- 16-bit arithmetic of quantised HARD_SWISH --------------------------- */

/* gemmlowp SaturatingRoundingDoublingHighMul on int16_t. */
static inline int16_t loupe_saturating_rounding_doubling_high_mul_i16(int16_t a, int16_t b) {
  const int32_t ab = (int32_t)a * (int32_t)b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return (int16_t)((ab + nudge) / (1 << 15));
}

/* TFLite's SaturatingDoublingHighMul: as above but rounding toward zero. */
static inline int16_t loupe_saturating_doubling_high_mul_i16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

/* TFLite's SaturatingLeftShift(int16_t, amount), amount in [0, 30]. */
static inline int16_t loupe_saturating_left_shift_i16(int16_t value, int amount) {
  const int64_t shifted = (int64_t)value * ((int64_t)1 << amount);
  if (shifted > INT16_MAX) return INT16_MAX;
  if (shifted < INT16_MIN) return INT16_MIN;
  return (int16_t)shifted;
}

/* gemmlowp RoundingDivideByPOT on int16_t, exponent in [0, 31]. Every step is
 * truncated to 16 bits as gemmlowp's int16 instantiation does; for exponents
 * above 15 that gives 1 for x >= 0 and -1 for x < 0, not a rounded quotient. */
static inline int16_t loupe_rounding_divide_by_pot_i16(int16_t x, int exponent) {
  const int16_t mask = (int16_t)(uint16_t)((((uint64_t)1 << exponent) - 1) & 0xFFFFu);
  const int16_t remainder = (int16_t)(x & mask);
  const int16_t threshold = (int16_t)((mask >> 1) + (x < 0 ? 1 : 0));
  return (int16_t)((x >> exponent) + (remainder > threshold ? 1 : 0));
}

/* ---- Interpolating int16 lookup tables (int16 SOFTMAX) ------------------- */

/* 512 intervals over the int16 input range plus one end point. */
#define LOUPE_INT16_LUT_SIZE 513

/* Fills lut[LOUPE_INT16_LUT_SIZE] with transform() sampled over the real range
 * of the int16 input (input_scale, input_zero_point), quantised to the int16
 * output (output_scale, output_zero_point), each entry biased by half the
 * interpolation error at the interval's midpoint. TFLite's
 * LUTPopulate<int16_t> in float. Set-up only. */
static inline void loupe_lut_populate_int16(float input_scale, int32_t input_zero_point,
                                            float output_scale, int32_t output_zero_point,
                                            float (*transform)(float), int16_t* lut) {
  const int steps = LOUPE_INT16_LUT_SIZE - 1;
  const float input_min = input_scale * (float)(INT16_MIN - input_zero_point);
  const float input_max = input_scale * (float)(INT16_MAX - input_zero_point);
  const float output_min = output_scale * (float)(INT16_MIN - output_zero_point);
  const float output_max = output_scale * (float)(INT16_MAX - output_zero_point);
  const float step = (input_max - input_min) / (float)steps;
  const float half_step = step / 2;
  const float output_scaling_inv = 65536.0f / (output_max - output_min);
  const float table_min = (float)INT16_MIN;
  const float table_max = (float)INT16_MAX;
  float clamped;
  int i;
  for (i = 0; i < steps; i++) {
    const float value = transform(input_min + (float)i * step);
    const float value_midpoint = transform(input_min + (float)i * step + half_step);
    const float value_next = transform(input_min + (float)(i + 1) * step);
    const float sample = roundf(value * output_scaling_inv);
    const float midpoint_interpolated =
        roundf((value_next * output_scaling_inv + roundf(value * output_scaling_inv)) / 2);
    const float midpoint = roundf(value_midpoint * output_scaling_inv);
    const float bias = roundf((midpoint_interpolated - midpoint) / 2);
    clamped = sample - bias;
    if (clamped < table_min) clamped = table_min;
    if (table_max < clamped) clamped = table_max;
    lut[i] = (int16_t)clamped;
  }
  clamped = roundf(transform(input_max) * output_scaling_inv);
  if (clamped < table_min) clamped = table_min;
  if (table_max < clamped) clamped = table_max;
  lut[steps] = (int16_t)clamped;
}

/* The interpolation step of loupe_lut_lookup_int16: base = lut[256 + (value >> 7)]
 * and next the entry after it (generated code loads both itself). */
static inline int16_t loupe_lut_interpolate_int16(int16_t value, int16_t base, int16_t next) {
  const int16_t offset = (int16_t)(value & 0x7f);
  const int16_t slope = (int16_t)(next - base);
  const int32_t delta = ((int32_t)slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}

/* Looks value up in a table filled by loupe_lut_populate_int16: the top 9 bits
 * select the interval, the low 7 bits interpolate linearly (TFLite LUTLookup). */
static inline int16_t loupe_lut_lookup_int16(int16_t value, const int16_t* lut) {
  const uint16_t index = (uint16_t)(256 + (value >> 7));
  return loupe_lut_interpolate_int16(value, lut[index], lut[index + 1]);
}

/* ---- SOFTMAX with int16 input (TFLite Micro's SoftmaxInt16) -------------- */

/* diff = x - row maximum rescaled so that [-65535, 0] covers exp's table
 * range [-10, 0], re-centred on the int16 table input. */
static inline int32_t loupe_softmax_int16_exp_input(int32_t diff, int32_t input_multiplier,
                                                    int input_shift) {
  const int32_t scaled =
      loupe_multiply_by_quantized_multiplier(diff, input_multiplier, input_shift);
  return loupe_clamp_i32(scaled + 32767, INT16_MIN, INT16_MAX);
}

/* The 1/(1+x) table's input for a row's sum of exponentials (> 0): the sum
 * normalised to [1, 2) and x = sum - 1 re-centred from [0, 65535] to int16. */
static inline int32_t loupe_softmax_int16_reciprocal_input(int32_t sum) {
  const int headroom_plus_one = loupe_count_leading_zeros_u32((uint32_t)sum);
  const int32_t shifted_sum =
      (int32_t)((((int64_t)sum << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
  return loupe_clamp_i32(shifted_sum - ((1 << 15) + (1 << 16)), INT16_MIN, INT16_MAX);
}

/* The right shift that undoes the normalisation of the sum. */
static inline int loupe_softmax_int16_right_shift(int32_t sum) {
  return 31 - loupe_count_leading_zeros_u32((uint32_t)sum);
}

/* One int16 SOFTMAX output: exp * reciprocal shifted back, in [0, 32767]. */
static inline int32_t loupe_softmax_int16_output(int32_t exp_value, int32_t reciprocal,
                                                 int right_shift) {
  const int64_t rounding = (int64_t)1 << (right_shift - 1);
  const int32_t result = (int32_t)(((int64_t)exp_value * reciprocal + rounding) >> right_shift);
  return loupe_clamp_i32(result, 0, INT16_MAX);
}

/* ---- TFLite Micro's int16 LOGISTIC and TANH ------------------------------ */

/* sigmoid(i / 24) for i = 0 .. 255 as unsigned 0.16 fixed point: TFLite's
 * sigmoid_table_uint16. The entries are within one unit of
 * round(65536 * sigmoid(i / 24)) but are not that formula; bit-exactness needs
 * exactly these values. tanh(x) = 2 * sigmoid(2x) - 1 reuses the table. */
static inline uint32_t loupe_sigmoid_table_uint16(uint32_t index) {
  /* A function-local table: a file-scope one would warn as unused in C. */
  static const uint16_t table[256] = {
      32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
      41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
      48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
      54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
      58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
      61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
      63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
      64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
      64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
      65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
      65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
      65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
      65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
      65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
      65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
      65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
      65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
      65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
      65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
      65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};
  return table[index];
}

/* Applies the input rescaling of the int16 LOGISTIC/TANH kernels: a multiplier
 * of 0 means "power-of-two scale", i.e. multiply by 3 << left_shift. */
static inline int32_t loupe_sigmoid_table_rescale_input(int16_t x, int32_t input_multiplier,
                                                        int input_left_shift) {
  int32_t rounding;
  if (input_multiplier == 0) {
    input_multiplier = (int32_t)3 << input_left_shift;
    input_left_shift = 0;
  }
  rounding = input_left_shift > 0 ? (int32_t)1 << (input_left_shift - 1) : 0;
  return loupe_wrapping_add_i32((int32_t)((uint32_t)(int32_t)x * (uint32_t)input_multiplier),
                                rounding) >>
         input_left_shift;
}

/* int16 logistic: x (scale as given by input_multiplier/input_left_shift, see
 * the LOGISTIC parameters) to Q0.15 in [0, 1). The rescaled input is read as
 * 3 * 4096 units per 1.0; 9 fractional bits interpolate between table entries.
 * TFLite Micro's reference_integer_ops::Logistic(int16_t). Its int16 LSTM
 * calls it with multiplier 0 and left shift 0 for Q3.12 gate inputs. */
static inline int16_t loupe_logistic_int16_lut(int16_t x, int32_t input_multiplier,
                                               int input_left_shift) {
  const int32_t input = loupe_sigmoid_table_rescale_input(x, input_multiplier, input_left_shift);
  const uint32_t abs_input = (uint32_t)abs(input);
  const uint32_t index = abs_input >> 9;
  uint32_t result;
  if (index >= 255) {
    result = (uint32_t)0x7FFF << 10;
  } else {
    const uint32_t low = loupe_sigmoid_table_uint16(index);
    const uint32_t high = loupe_sigmoid_table_uint16(index + 1);
    result = (low << 9) + (abs_input & 0x1FFu) * (high - low);
  }
  /* sigmoid(-x) = 1 - sigmoid(x); round while going from 0.25 to 0.15 bits. */
  result = input >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1;
  return (int16_t)(result >> 10);
}

/* int16 tanh: x (scale as given by input_multiplier/input_left_shift, see the
 * TANH parameters) to Q0.15 in (-1, 1), through tanh(x) = 2 sigmoid(2x) - 1
 * with 8 interpolation bits. TFLite Micro's reference_integer_ops::Tanh(int16_t);
 * its int16 LSTM passes multiplier 0 (or 3 for negative shifts, negated). */
static inline int16_t loupe_tanh_int16_lut(int16_t x, int32_t input_multiplier,
                                           int input_left_shift) {
  const int32_t input = loupe_sigmoid_table_rescale_input(x, input_multiplier, input_left_shift);
  const uint32_t abs_input = (uint32_t)abs(input);
  const uint32_t index = abs_input >> 8;
  int32_t result;
  if (index >= 255) {
    result = (int32_t)0xFFFF << 8;
  } else {
    const uint32_t low = loupe_sigmoid_table_uint16(index);
    const uint32_t high = loupe_sigmoid_table_uint16(index + 1);
    result = (int32_t)((low << 8) + (abs_input & 0xFFu) * (high - low));
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return (int16_t)(result >> 8);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_FIXED_POINT_MATH_H_ */
