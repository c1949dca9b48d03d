/*
 * The last step of quantised (int8/int16) MEAN when the input and output
 * quantisations differ, shared by the reference interpreter and the
 * generated C. TFLite Micro's reference_ops::QuantizedMeanOrSum requantises
 * in float, not in fixed point, so this is float arithmetic in exactly its
 * order: mean = sum / count, round(mean * scale + bias) (half away from
 * zero), plus the output zero point, clamped to the output type in float
 * before the conversion (so a large value never overflows the int).
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_QUANTIZED_MEAN_H_
#define LOUPE_QUANTIZED_MEAN_H_

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sum: the int32 sum of the `count` (> 0) raw input values of one output
 * element; scale = input scale / output scale; bias = -input zero point *
 * scale; [q_min, q_max] the output type's range. */
static inline int32_t loupe_mean_requantize(int32_t sum, int32_t count, float scale, float bias,
                                            int32_t output_zero_point, int32_t q_min,
                                            int32_t q_max) {
  const float mean = (float)sum / (float)count;
  float value = roundf(mean * scale + bias) + (float)output_zero_point;
  if ((float)q_max < value) value = (float)q_max;
  if (value < (float)q_min) value = (float)q_min;
  return (int32_t)value;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_QUANTIZED_MEAN_H_ */
