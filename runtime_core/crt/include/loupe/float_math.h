/*
 * The float32 functions of the element-wise math operators (SQRT, RSQRT,
 * LOG, SIN, COS, FLOOR, CEIL, ROUND, FLOOR_DIV, FLOOR_MOD, ELU), called by the
 * generated C and by the reference interpreter alike, so both take each
 * result from the same C library call (TFLite Micro calls the same
 * functions through <cmath>). C99, header-only; usable from C++.
 */
#ifndef LOUPE_FLOAT_MATH_H_
#define LOUPE_FLOAT_MATH_H_

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline float loupe_sqrtf(float x) {
  return sqrtf(x);
}

static inline float loupe_logf(float x) {
  return logf(x);
}

static inline float loupe_sinf(float x) {
  return sinf(x);
}

static inline float loupe_cosf(float x) {
  return cosf(x);
}

static inline float loupe_floorf(float x) {
  return floorf(x);
}

static inline float loupe_ceilf(float x) {
  return ceilf(x);
}

static inline float loupe_fmodf(float x, float y) {
  return fmodf(x, y);
}

static inline float loupe_expm1f(float x) {
  return expm1f(x);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_FLOAT_MATH_H_ */
