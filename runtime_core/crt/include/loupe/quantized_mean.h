/*
 * Quantised (int8/int16) MEAN as TFLite Micro computes it
 * (reference_ops::QuantizedMeanOrSum, reached from reduce_common.cc for every
 * int8/int16 MEAN whatever its shape, axes or scales): the int32 sum of the
 * raw inputs, less input zero point * count, is requantised in fixed point
 * by the input/output scale ratio with 1/count folded into the multiplier,
 * then the output zero point is added and the result clamped. Shared by the
 * reference interpreter and the generated C. C99, header-only, no
 * allocation; usable from C++.
 */
#ifndef LOUPE_QUANTIZED_MEAN_H_
#define LOUPE_QUANTIZED_MEAN_H_

#include <stdint.h>

#include "loupe/fixed_point.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Folds 1/count (count > 0) into a quantised multiplier of the scale ratio
 * (from loupe_quantize_multiplier), in TFLite Micro's way: the multiplier is
 * scaled up by 2^floor(log2(count)), at most 2^32 and never so far that the
 * shift passes -31, and divided by count in int64 (truncating); the shift
 * takes the power of two back. Compile-time only. */
static inline void loupe_mean_fold_count(int64_t count, int32_t* multiplier, int* shift) {
  int log2_count = 0;
  while (log2_count < 63 && (count >> (log2_count + 1)) != 0) ++log2_count;
  if (log2_count > 32) log2_count = 32;
  if (log2_count > 31 + *shift) log2_count = 31 + *shift;
  *multiplier = (int32_t)(((int64_t)*multiplier * ((int64_t)1 << log2_count)) / count);
  *shift -= log2_count;
}

/* One output element from `sum`, the int32 (wrapping) sum of its raw inputs;
 * zero_point_sum = input zero point * count, wrapped to int32; multiplier and
 * shift from loupe_mean_fold_count; [q_min, q_max] the output type's range. */
static inline int32_t loupe_mean_requantize(int32_t sum, int32_t zero_point_sum, int32_t multiplier,
                                            int32_t shift, int32_t output_zero_point, int32_t q_min,
                                            int32_t q_max) {
  /* Wrapping, as TFLite Micro's int32 arithmetic wraps on its targets. */
  const int32_t centred = (int32_t)((uint32_t)sum - (uint32_t)zero_point_sum);
  const int32_t scaled = loupe_multiply_by_quantized_multiplier(centred, multiplier, (int)shift);
  return loupe_clamp_i32((int32_t)((uint32_t)scaled + (uint32_t)output_zero_point), q_min, q_max);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_QUANTIZED_MEAN_H_ */
