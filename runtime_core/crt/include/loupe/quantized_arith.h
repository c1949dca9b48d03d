/*
 * Per-element integer arithmetic of the quantised core operators, shared by
 * the reference interpreter and the generated C: requantising a convolution
 * or fully-connected accumulator, TFLite Micro's average-pool rounding, and
 * one element of quantised ADD, SUB and MUL. The parameters (multipliers,
 * shifts, offsets, clamp bounds) are derived once per operator by the
 * compiler; these functions are what runs per element. They follow TFLite
 * Micro's reference kernels in the default build (double rounding).
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_QUANTIZED_ARITH_H_
#define LOUPE_QUANTIZED_ARITH_H_

#include <stdint.h>

#include "loupe/fixed_point.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 32-bit convolution / fully-connected accumulator (bias included) to the
 * output: scale by multiplier * 2^shift, add the output zero point, clamp to
 * the activation range. int8 kernels, and 16x8 kernels with an int32 bias
 * (output_offset 0 there: TFLite's 16x8 kernels add no output offset). */
static inline int32_t loupe_requantize_acc_i32(int32_t acc, int32_t multiplier, int shift,
                                               int32_t output_offset, int32_t act_min,
                                               int32_t act_max) {
  const int32_t scaled = loupe_multiply_by_quantized_multiplier(acc, multiplier, shift);
  return loupe_clamp_i32(scaled + output_offset, act_min, act_max);
}

/* loupe_requantize_acc_i32(acc, multiplier, shift, ...) with the shift split
 * into left_shift = max(shift, 0) and right_shift = max(-shift, 0), for a
 * multiplier in [0, 2^31) and shift in [-31, 30] (every convolution's
 * parameters). Gives the same result for every acc with far fewer
 * instructions on a 32-bit core (one SMLAL, then 32-bit operations only):
 * the doubling high multiply cannot saturate (that needs a multiplier of
 * INT32_MIN), its rounding (ab + nudge) / 2^31 equals
 * floor((ab + 2^30) / 2^31) for either sign of ab and fits in int32
 * (|ab| < 2^62), and the rounding divide by 2^right_shift is gemmlowp's,
 * with the mask built in 32 bits. Code generators choose it at compile
 * time, passing shifts that are the same for every channel as constants. */
static inline int32_t loupe_requantize_acc_i32_split_shift(int32_t acc, int32_t multiplier,
                                                           int left_shift, int right_shift,
                                                           int32_t output_offset, int32_t act_min,
                                                           int32_t act_max) {
  const int32_t shifted = (int32_t)((uint32_t)acc << left_shift);
  const int32_t high = (int32_t)(((int64_t)shifted * multiplier + ((int64_t)1 << 30)) >> 31);
  const uint32_t mask = ((uint32_t)1 << right_shift) - 1u;
  const uint32_t remainder = (uint32_t)high & mask;
  const uint32_t threshold = (mask >> 1) + (high < 0 ? 1u : 0u);
  const int32_t rounded = (high >> right_shift) + (remainder > threshold ? 1 : 0);
  return loupe_clamp_i32(rounded + output_offset, act_min, act_max);
}

/* A 64-bit accumulator of a 16x8 kernel with an int64 bias: TFLite's 64-bit
 * MultiplyByQuantizedMultiplier, no output offset, clamp. */
static inline int32_t loupe_requantize_acc_i64(int64_t acc, int32_t multiplier, int shift,
                                               int32_t act_min, int32_t act_max) {
  const int32_t scaled = loupe_multiply_by_quantized_multiplier_i64(acc, multiplier, shift);
  return loupe_clamp_i32(scaled, act_min, act_max);
}

/* Integer AVERAGE_POOL_2D: the window sum divided by the number of elements
 * inside the input, rounded half away from zero (C division truncates, so
 * half the count is added or subtracted first). count > 0. */
static inline int32_t loupe_average_pool_round(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/* Parameters of quantised ADD and SUB (TFLite's general rescaling path): both
 * inputs are brought to a common scale with `left_shift` bits of headroom (20
 * for int8, 15 for int16), added or subtracted, and rescaled to the output. */
typedef struct loupe_add_sub_params {
  int32_t input1_offset; /* minus input1's zero point */
  int32_t input2_offset; /* minus input2's zero point */
  int32_t output_offset; /* output zero point */
  int left_shift;
  int32_t input1_multiplier;
  int input1_shift; /* <= 0 */
  int32_t input2_multiplier;
  int input2_shift; /* <= 0 */
  int32_t output_multiplier;
  int output_shift; /* <= 0 */
  int32_t act_min;
  int32_t act_max;
} loupe_add_sub_params;

static inline int32_t loupe_add_sub_rescale_input(int32_t q, int32_t offset, int left_shift,
                                                  int32_t multiplier, int shift) {
  /* (q + offset) * 2^left_shift; the shift cannot overflow for int8/int16. */
  const int32_t shifted = (int32_t)((uint32_t)(q + offset) << left_shift);
  return loupe_multiply_by_quantized_multiplier_smaller_than_one(shifted, multiplier, shift);
}

/* The sum (or difference) of two rescaled inputs to the output: scale, add
 * the output zero point, clamp. Scalar arguments, for generated code. */
static inline int32_t loupe_add_sub_requantize(int32_t raw, int32_t output_multiplier,
                                               int output_shift, int32_t output_offset,
                                               int32_t act_min, int32_t act_max) {
  const int32_t out = loupe_multiply_by_quantized_multiplier_smaller_than_one(
                          raw, output_multiplier, output_shift) +
                      output_offset;
  return loupe_clamp_i32(out, act_min, act_max);
}

static inline int32_t loupe_add_sub_finish(int32_t raw, const loupe_add_sub_params* p) {
  return loupe_add_sub_requantize(raw, p->output_multiplier, p->output_shift, p->output_offset,
                                  p->act_min, p->act_max);
}

/* One element of quantised ADD: q1, q2 are the stored input values. */
static inline int32_t loupe_add_element(int32_t q1, int32_t q2, const loupe_add_sub_params* p) {
  const int32_t a = loupe_add_sub_rescale_input(q1, p->input1_offset, p->left_shift,
                                                p->input1_multiplier, p->input1_shift);
  const int32_t b = loupe_add_sub_rescale_input(q2, p->input2_offset, p->left_shift,
                                                p->input2_multiplier, p->input2_shift);
  return loupe_add_sub_finish(a + b, p);
}

/* One element of quantised SUB: q1 - q2. */
static inline int32_t loupe_sub_element(int32_t q1, int32_t q2, const loupe_add_sub_params* p) {
  const int32_t a = loupe_add_sub_rescale_input(q1, p->input1_offset, p->left_shift,
                                                p->input1_multiplier, p->input1_shift);
  const int32_t b = loupe_add_sub_rescale_input(q2, p->input2_offset, p->left_shift,
                                                p->input2_multiplier, p->input2_shift);
  return loupe_add_sub_finish(a - b, p);
}

/* Parameters of quantised MUL: the product of the offset inputs is scaled by
 * input1_scale * input2_scale / output_scale. */
typedef struct loupe_mul_params {
  int32_t input1_offset; /* minus input1's zero point */
  int32_t input2_offset; /* minus input2's zero point */
  int32_t output_offset; /* output zero point */
  int32_t output_multiplier;
  int output_shift;
  int32_t act_min;
  int32_t act_max;
} loupe_mul_params;

/* One element of quantised MUL. The product is requantised exactly as a
 * convolution accumulator is (generated code calls that function directly). */
static inline int32_t loupe_mul_element(int32_t q1, int32_t q2, const loupe_mul_params* p) {
  const int32_t product = (q1 + p->input1_offset) * (q2 + p->input2_offset);
  return loupe_requantize_acc_i32(product, p->output_multiplier, p->output_shift, p->output_offset,
                                  p->act_min, p->act_max);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_QUANTIZED_ARITH_H_ */
