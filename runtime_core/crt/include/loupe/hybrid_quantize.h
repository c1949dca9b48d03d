/*
 * The on-the-fly input quantisation of TFLite's hybrid kernels (float
 * activations, int8 weights): each batch row of the float input becomes int8
 * with a scale of its own, symmetric (zero point 0, values in [-127, 127]) or,
 * with asymmetric_quantize_inputs, asymmetric with a nudged zero point, as
 * TFLite's tensor_utils SymmetricQuantizeFloats and AsymmetricQuantizeFloats
 * compute them (float and double steps alike). Called by the generated C and
 * by the reference interpreter, so both take every value from the same
 * arithmetic. C99, header-only; usable from C++. Build without contracting
 * float multiply-adds (-ffp-contract=off, the default for -std=c99).
 */
#ifndef LOUPE_HYBRID_QUANTIZE_H_
#define LOUPE_HYBRID_QUANTIZE_H_

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The larger magnitude of a row whose least and greatest values are given. */
static inline float loupe_hybrid_symmetric_range(float min_value, float max_value) {
  const float a = fabsf(min_value);
  const float b = fabsf(max_value);
  return a < b ? b : a;
}

/* The scale of a symmetrically quantised row: range / 127, or 1 for a row
 * of zeros. */
static inline float loupe_hybrid_symmetric_scale(float min_value, float max_value) {
  const float range = loupe_hybrid_symmetric_range(min_value, max_value);
  return range == 0.0f ? 1.0f : range / 127.0f;
}

/* What each value is multiplied by: 127 / range, or 0 for a row of zeros
 * (whose values all quantise to 0). */
static inline float loupe_hybrid_symmetric_inverse(float min_value, float max_value) {
  const float range = loupe_hybrid_symmetric_range(min_value, max_value);
  return range == 0.0f ? 0.0f : 127.0f / range;
}

static inline int32_t loupe_hybrid_quantize_symmetric(float value, float inverse) {
  const int32_t q = (int32_t)roundf(value * inverse);
  return q < -127 ? -127 : (q > 127 ? 127 : q);
}

/* The asymmetric scale and zero point over [min(0, min_value), max(0,
 * max_value)] mapped to [-128, 127], computed in double as TFLite does;
 * 1 and 0 for a row of zeros. */
static inline double loupe_hybrid_asymmetric_scale_double(float min_value, float max_value) {
  const double rmin = (double)(min_value < 0.0f ? min_value : 0.0f);
  const double rmax = (double)(max_value > 0.0f ? max_value : 0.0f);
  return (rmax - rmin) / (127.0 - -128.0);
}

static inline float loupe_hybrid_asymmetric_scale(float min_value, float max_value) {
  const double rmin = (double)(min_value < 0.0f ? min_value : 0.0f);
  const double rmax = (double)(max_value > 0.0f ? max_value : 0.0f);
  if (rmin == rmax) return 1.0f;
  return (float)loupe_hybrid_asymmetric_scale_double(min_value, max_value);
}

static inline int32_t loupe_hybrid_asymmetric_offset(float min_value, float max_value) {
  const double rmin = (double)(min_value < 0.0f ? min_value : 0.0f);
  const double rmax = (double)(max_value > 0.0f ? max_value : 0.0f);
  double scale;
  double from_min;
  double from_max;
  double zero_point;
  if (rmin == rmax) return 0;
  scale = loupe_hybrid_asymmetric_scale_double(min_value, max_value);
  from_min = -128.0 - rmin / scale;
  from_max = 127.0 - rmax / scale;
  zero_point = (fabs(-128.0) + fabs(rmin / scale)) < (fabs(127.0) + fabs(rmax / scale))
                   ? from_min
                   : from_max;
  if (zero_point <= -128.0) return -128;
  if (zero_point >= 127.0) return 127;
  return (int32_t)(int8_t)round(zero_point);
}

static inline int32_t loupe_hybrid_quantize_asymmetric(float value, int32_t offset,
                                                       float inverse) {
  const int32_t q = (int32_t)roundf((float)offset + value * inverse);
  return q < -128 ? -128 : (q > 127 ? 127 : q);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_HYBRID_QUANTIZE_H_ */
