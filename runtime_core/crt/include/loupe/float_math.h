/*
 * The float32 functions of the element-wise math operators (SQRT, RSQRT,
 * LOG, SIN, COS, FLOOR, CEIL, ROUND, FLOOR_DIV, FLOOR_MOD, ELU), called by the
 * generated C and by the reference interpreter alike. LOG, SIN, COS and ELU's
 * expm1 are Loupe's own (loupe/loupe_libm.h), so the desktop and every board
 * give the same bits, glibc's; SQRT, FLOOR, CEIL and FMOD are exact in IEEE
 * arithmetic and stay the C library's. C99, header-only; usable from C++.
 */
#ifndef LOUPE_FLOAT_MATH_H_
#define LOUPE_FLOAT_MATH_H_

#include <math.h>

#include "loupe/loupe_libm.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline float loupe_sqrtf(float x) {
  return sqrtf(x);
}

static inline float loupe_logf(float x) {
  return loupe_libm_logf(x);
}

static inline float loupe_sinf(float x) {
  return loupe_libm_sinf(x);
}

static inline float loupe_cosf(float x) {
  return loupe_libm_cosf(x);
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
  return loupe_libm_expm1f(x);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_FLOAT_MATH_H_ */
