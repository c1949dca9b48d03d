/*
 * Loupe's own float32 transcendental functions (expf, logf, sinf, cosf,
 * expm1f, tanhf), used by the reference interpreter, the host builds and
 * every board alike, so a float model gives the same bits everywhere instead
 * of glibc's on the desktop and newlib's on a board.
 *
 * They follow the algorithms of glibc 2.36 on x86-64, where TFLite made the
 * golden data, so that they also give glibc's bits:
 *  - expf, logf, sinf, cosf: the table-driven double-precision algorithms of
 *    Arm's optimized-routines that glibc uses since 2.28. On a CPU with FMA
 *    and AVX2 glibc runs builds of them compiled with -mfma, in which GCC
 *    fused some multiply-adds. Those fused steps are evaluated here without
 *    an FMA instruction: a fast path with plain operations, and, when its
 *    double result lies so close to a float rounding boundary that a fused
 *    step could change the rounding, a slow path with an exact software FMA
 *    (Dekker's product and a sum rounded to odd, Boldo and Melquiond).
 *  - expm1f, tanhf: fdlibm's float algorithms, evaluated in float as glibc
 *    does (no FMA variant exists).
 * bench/float_math_bench.cpp counts, over all 2^32 inputs, how many results
 * differ from this machine's glibc.
 *
 * Only IEEE-754 binary32/binary64 arithmetic with round to nearest is used,
 * which libgcc's soft-float routines give exactly on cores without a
 * double-precision FPU (Cortex-M0, M3, M4). Builds must not contract
 * multiply-adds (GCC: -ffp-contract=off, its default for -std=c99 and the
 * other ISO modes; clang: switched off below) or the exact product, fdlibm's
 * float steps and the fast path change.
 *
 * C99, header-only, no allocation, no C library calls; usable from C++.
 */
#ifndef LOUPE_LOUPE_LIBM_H_
#define LOUPE_LOUPE_LIBM_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Bits ------------------------------------------------------------------ */

/* The builtin, not memcpy: firmware is built -ffreestanding, where a memcpy
 * call stays a call to the C library's (three to six per expf, most of its
 * instructions on the Cortex-M55; bench/float_math_board_bench.cpp). */
#if defined(__GNUC__) || defined(__clang__)
#define LOUPE_LIBM_COPY_BITS __builtin_memcpy
#else
#define LOUPE_LIBM_COPY_BITS memcpy
#endif

static inline uint32_t loupe_libm_bits_f32(float x) {
  uint32_t bits;
  LOUPE_LIBM_COPY_BITS(&bits, &x, sizeof bits);
  return bits;
}

static inline float loupe_libm_from_bits_f32(uint32_t bits) {
  float x;
  LOUPE_LIBM_COPY_BITS(&x, &bits, sizeof x);
  return x;
}

static inline uint64_t loupe_libm_bits_f64(double x) {
  uint64_t bits;
  LOUPE_LIBM_COPY_BITS(&bits, &x, sizeof bits);
  return bits;
}

static inline double loupe_libm_from_bits_f64(uint64_t bits) {
  double x;
  LOUPE_LIBM_COPY_BITS(&x, &bits, sizeof x);
  return x;
}

/* Clang contracts a * b + c within an expression even in ISO C modes
 * (-ffp-contract=on); GCC does not (and warns about the pragma), so the
 * functions below that multiply and add switch contraction off for clang. */
#if defined(__clang__)
#define LOUPE_LIBM_NO_CONTRACTION _Pragma("STDC FP_CONTRACT OFF")
#else
#define LOUPE_LIBM_NO_CONTRACTION
#endif

/* GCC's GNU dialects contract across statements by default (-ffp-contract=
 * fast) and have no pragma against it: on a target with an FMA instruction,
 * stop rather than give other bits. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__STRICT_ANSI__) && \
    (defined(__FP_FAST_FMA) || defined(__FP_FAST_FMAF)) && !defined(LOUPE_LIBM_CONTRACTION_OFF)
#error \
    "loupe_libm.h needs -ffp-contract=off (the default of -std=c99 or -std=c++NN); with a GNU dialect pass it and define LOUPE_LIBM_CONTRACTION_OFF"
#endif

/* ---- Exact fused multiply-add ------------------------------------------------ */

/* The slow path's FMA is some 30 double operations, each a libgcc call on
 * cores without a double FPU: one copy of it, not one per call site. */
#if defined(__GNUC__)
#define LOUPE_LIBM_OUT_OF_LINE static __attribute__((noinline, unused))
#else
#define LOUPE_LIBM_OUT_OF_LINE static inline
#endif

/* a * b + c rounded once, from plain double operations, for operands whose
 * products and sums neither overflow nor underflow (all of this file's).
 * a * b is split exactly into ph + pl (Veltkamp's split, Dekker's product),
 * c + ph exactly into uh + ul (Knuth's two-sum); ul + pl rounded to odd
 * and added to uh then rounds as the exact sum would (Boldo and Melquiond,
 * "Emulation of FMA and correctly rounded sums", 2008). */
LOUPE_LIBM_OUT_OF_LINE double loupe_libm_fma(double a, double b, double c) {
  LOUPE_LIBM_NO_CONTRACTION
  const double splitter = 134217729.0; /* 2^27 + 1 */
  double scaled = splitter * a;
  const double a_high = scaled - (scaled - a);
  const double a_low = a - a_high;
  double b_high;
  double b_low;
  double product_high;
  double product_low;
  double sum_high;
  double sum_low;
  double virtual_part;
  double tail;
  double tail_error;
  scaled = splitter * b;
  b_high = scaled - (scaled - b);
  b_low = b - b_high;
  product_high = a * b;
  product_low =
      ((a_high * b_high - product_high) + a_high * b_low + a_low * b_high) + a_low * b_low;
  sum_high = c + product_high;
  virtual_part = sum_high - c;
  sum_low = (c - (sum_high - virtual_part)) + (product_high - virtual_part);
  tail = sum_low + product_low;
  virtual_part = tail - sum_low;
  tail_error = (sum_low - (tail - virtual_part)) + (product_low - virtual_part);
  if (tail_error != 0.0) {
    /* Inexact: of the two doubles around the exact sum, the odd one. */
    uint64_t bits = loupe_libm_bits_f64(tail);
    if ((bits & 1u) == 0) {
      if ((tail > 0.0) == (tail_error > 0.0)) {
        ++bits;
      } else {
        --bits;
      }
      tail = loupe_libm_from_bits_f64(bits);
    }
  }
  return sum_high + tail;
}

/* a * b + c, fused (rounded once, as glibc's FMA build computes it) or not. */
static inline double loupe_libm_madd(int fused, double a, double b, double c) {
  LOUPE_LIBM_NO_CONTRACTION
  return fused ? loupe_libm_fma(a, b, c) : a * b + c;
}

/* 1 when a double result `y` computed without fusing may round to another
 * float than the fused computation: |y| is below the normal floats, or its
 * bits below the float's last are within 2^12 of the halfway point. The two
 * computations differ by far less (rounding errors near 2^-50 relative). */
static inline int loupe_libm_near_float_tie(double y) {
  const uint64_t magnitude = loupe_libm_bits_f64(y) & 0x7fffffffffffffffu;
  const uint32_t below_float = (uint32_t)(magnitude & 0x1fffffffu);
  const uint32_t halfway = 0x10000000u;
  const uint32_t distance = below_float > halfway ? below_float - halfway : halfway - below_float;
  if (magnitude < 0x3810000000000000u) return 1; /* |y| < 2^-126 */
  return distance <= 0x1000u;
}

/* ---- expf ---------------------------------------------------------------- */

/* exp(x) = 2^(k/32) 2^(r/32), k an integer, |r| <= 1/2. The table holds the
 * bits of 2^(i/32) minus i << 47, so that adding k << 47 to entry k % 32
 * gives 2^(k/32). */
static const uint64_t loupe_libm_exp2_table[32] = {
    0x3ff0000000000000u, 0x3fefd9b0d3158574u, 0x3fefb5586cf9890fu, 0x3fef9301d0125b51u,
    0x3fef72b83c7d517bu, 0x3fef54873168b9aau, 0x3fef387a6e756238u, 0x3fef1e9df51fdee1u,
    0x3fef06fe0a31b715u, 0x3feef1a7373aa9cbu, 0x3feedea64c123422u, 0x3feece086061892du,
    0x3feebfdad5362a27u, 0x3feeb42b569d4f82u, 0x3feeab07dd485429u, 0x3feea47eb03a5585u,
    0x3feea09e667f3bcdu, 0x3fee9f75e8ec5f74u, 0x3feea11473eb0187u, 0x3feea589994cce13u,
    0x3feeace5422aa0dbu, 0x3feeb737b0cdc5e5u, 0x3feec49182a3f090u, 0x3feed503b23e255du,
    0x3feee89f995ad3adu, 0x3feeff76f2fb5e47u, 0x3fef199bdd85529cu, 0x3fef3720dcef9069u,
    0x3fef5818dcfba487u, 0x3fef7c97337b9b5fu, 0x3fefa4afa2a490dau, 0x3fefd0765b6e4540u};

/* exp(x) of a finite x in (-104, 88.73) in double before the float rounding,
 * or 0 when the fast path (fused == 0) cannot tell which integer k glibc's
 * fused computation picks. */
static inline double loupe_libm_expf_core(float x, int fused) {
  LOUPE_LIBM_NO_CONTRACTION
  const double inv_ln2_scaled = 0x1.71547652b82fep+0 * 32; /* 32 / ln(2) */
  const double shift = 0x1.8p+52;                          /* adding it rounds to an integer */
  const double c0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32;
  const double c1 = 0x1.ebfce50fac4f3p-3 / 32 / 32;
  const double c2 = 0x1.62e42ff0c52d6p-1 / 32;
  const double xd = (double)x;
  const double z = inv_ln2_scaled * xd;
  double k_shifted = fused ? loupe_libm_fma(inv_ln2_scaled, xd, shift) : z + shift;
  const uint64_t k_bits = loupe_libm_bits_f64(k_shifted);
  double r;
  double scale;
  double poly_high;
  double poly;
  k_shifted -= shift;
  r = fused ? loupe_libm_fma(inv_ln2_scaled, xd, -k_shifted) : z - k_shifted;
  /* A z this near k + 1/2 may round to the other k when fused. */
  if (!fused && (r > 0.4999999 || r < -0.4999999)) return 0.0;
  scale = loupe_libm_from_bits_f64(loupe_libm_exp2_table[k_bits % 32] + (k_bits << 47));
  poly_high = loupe_libm_madd(fused, c0, r, c1);
  poly = loupe_libm_madd(fused, c2, r, 1.0);
  poly = loupe_libm_madd(fused, poly_high, r * r, poly);
  return poly * scale;
}

static inline float loupe_libm_expf(float x) {
  const uint32_t bits = loupe_libm_bits_f32(x);
  double y;
  if ((bits & 0x7ff00000u) >= 0x42b00000u) { /* |x| >= 88, inf or NaN */
    if (bits == 0xff800000u) return 0.0f;
    if ((bits & 0x7ff00000u) >= 0x7f800000u) return x + x;
    if (x > 0x1.62e42ep6f) return loupe_libm_from_bits_f32(0x7f800000u); /* overflow */
    if (x < -0x1.9fe368p6f) return 0.0f;                                 /* below 2^-150 */
    if (x < -0x1.9d1d9ep6f) return 0x1p-149f; /* above 2^-150, below 2^-149 */
  }
  y = loupe_libm_expf_core(x, 0);
  if (y == 0.0 || loupe_libm_near_float_tie(y)) y = loupe_libm_expf_core(x, 1);
  return (float)y;
}

/* ---- logf ---------------------------------------------------------------- */

/* log(x) = log1p(z / c - 1) + log(c) + k ln(2) for x = 2^k z, z in
 * [0x1.66p-1, 0x1.66p0) split into 16 intervals by its top mantissa bits;
 * per interval 1/c and log(c), with c near the interval's centre (1/c is
 * exactly 1 in the interval holding 1). */
static const double loupe_libm_log_table[16][2] = {
    {0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2}, {0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
    {0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},  {0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
    {0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3}, {0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
    {0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4}, {0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
    {0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5}, {0x1p+0, 0x0p+0},
    {0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},  {0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
    {0x1.b2036576afce6p-1, 0x1.526e57720db08p-3},  {0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
    {0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2},  {0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2}};

/* log(x) in double before the float rounding for the bits `bits` of a
 * positive normal x (subnormals scaled up by the caller). */
static inline double loupe_libm_logf_core(uint32_t bits, int fused) {
  LOUPE_LIBM_NO_CONTRACTION
  const double ln2 = 0x1.62e42fefa39efp-1;
  const double a0 = -0x1.00ea348b88334p-2;
  const double a1 = 0x1.5575b0be00b6ap-2;
  const double a2 = -0x1.ffffef20a4123p-2;
  const uint32_t offset = 0x3f330000u; /* 0x1.66p-1 */
  const uint32_t from_offset = bits - offset;
  const uint32_t index = (from_offset >> 19) % 16;
  /* The arithmetic shift of from_offset as int32 by 23, written portably. */
  const int32_t k = (from_offset & 0x80000000u) ? -(int32_t)((~from_offset >> 23) + 1)
                                                : (int32_t)(from_offset >> 23);
  const double z = (double)loupe_libm_from_bits_f32(bits - (from_offset & 0xff800000u));
  const double r = loupe_libm_madd(fused, z, loupe_libm_log_table[index][0], -1.0);
  const double log_c_plus_k =
      loupe_libm_madd(fused, (double)k, ln2, loupe_libm_log_table[index][1]);
  const double r2 = r * r;
  double y = loupe_libm_madd(fused, a1, r, a2);
  y = loupe_libm_madd(fused, a0, r2, y);
  return loupe_libm_madd(fused, y, r2, log_c_plus_k + r);
}

static inline float loupe_libm_logf(float x) {
  uint32_t bits = loupe_libm_bits_f32(x);
  double y;
  if (bits == 0x3f800000u) return 0.0f;
  if (bits - 0x00800000u >= 0x7f800000u - 0x00800000u) {
    /* 0, subnormal, negative, inf or NaN. */
    if (bits * 2 == 0) return loupe_libm_from_bits_f32(0xff800000u); /* -inf */
    if (bits == 0x7f800000u) return x;
    if ((bits & 0x80000000u) || bits * 2 >= 0xff000000u) return (x - x) / (x - x);
    bits = loupe_libm_bits_f32(x * 0x1p23f) - (23u << 23);
  }
  y = loupe_libm_logf_core(bits, 0);
  if (loupe_libm_near_float_tie(y)) y = loupe_libm_logf_core(bits, 1);
  return (float)y;
}

/* ---- sinf and cosf ------------------------------------------------------- */

/* Polynomial coefficients of sin and cos on [-pi/4, pi/4]; the second set
 * has the cosine's negated, for the quadrants where it changes sign. */
struct loupe_libm_sincos_poly {
  double c0, c1, c2, c3, c4; /* cos */
  double s1, s2, s3;         /* sin */
};

static const struct loupe_libm_sincos_poly loupe_libm_sincos_polys[2] = {
    {0x1p0, -0x1.ffffffd0c621cp-2, 0x1.55553e1068f19p-5, -0x1.6c087e89a359dp-10,
     0x1.99343027bf8c3p-16, -0x1.555545995a603p-3, 0x1.1107605230bc4p-7, -0x1.994eb3774cf24p-13},
    {-0x1p0, 0x1.ffffffd0c621cp-2, -0x1.55553e1068f19p-5, 0x1.6c087e89a359dp-10,
     -0x1.99343027bf8c3p-16, -0x1.555545995a603p-3, 0x1.1107605230bc4p-7, -0x1.994eb3774cf24p-13}};

/* The bits of 4/pi: entry i is bits 8i-24 .. 8i+7 after the point
 * (shifted in from the left for the first three). */
static const uint32_t loupe_libm_inv_pio4[24] = {
    0xa2u,       0xa2f9u,     0xa2f983u,   0xa2f9836eu, 0xf9836e4eu, 0x836e4e44u,
    0x6e4e4415u, 0x4e441529u, 0x441529fcu, 0x1529fc27u, 0x29fc2757u, 0xfc2757d1u,
    0x2757d1f5u, 0x57d1f534u, 0xd1f534ddu, 0xf534ddc0u, 0x34ddc0dbu, 0xddc0db62u,
    0xc0db6295u, 0xdb629599u, 0x6295993cu, 0x95993c43u, 0x993c4390u, 0x3c439041u};

/* sin(x) (quadrant even) or cos(x) (odd) of a reduced x, x2 = x * x. */
static inline double loupe_libm_sincos_poly_eval(double x, double x2,
                                                 const struct loupe_libm_sincos_poly* p,
                                                 int quadrant, int fused) {
  if ((quadrant & 1) == 0) {
    const double x3 = x * x2;
    const double s1 = loupe_libm_madd(fused, x2, p->s3, p->s2);
    const double x7 = x3 * x2;
    const double s = loupe_libm_madd(fused, x3, p->s1, x);
    return loupe_libm_madd(fused, x7, s1, s);
  } else {
    const double x4 = x2 * x2;
    const double c2 = loupe_libm_madd(fused, x2, p->c4, p->c3);
    const double c1 = loupe_libm_madd(fused, x2, p->c1, p->c0);
    const double x6 = x4 * x2;
    const double c = loupe_libm_madd(fused, x4, p->c2, c1);
    return loupe_libm_madd(fused, x6, c2, c);
  }
}

/* x - n pi/2 rounded once, n the nearest integer to x 2/pi, for pi/4 <= |x|
 * < 120. pi/2 (as a double) is split into a high part with 45 significant
 * bits, whose product with n is exact and close enough to x that the
 * difference is exact (Sterbenz), and 0x1.8p-48, whose product is exact
 * too: the one rounding left is the fused computation's. */
static inline double loupe_libm_reduce_small(double x, int* quadrant) {
  LOUPE_LIBM_NO_CONTRACTION
  const double two_over_pi_scaled = 0x1.45F306DC9C883p+23; /* 2^24 * 2/pi */
  const double half_pi_high = 0x1.921FB54442Dp0;
  const double half_pi_low = 0x1.8p-48;
  const int32_t scaled = (int32_t)(x * two_over_pi_scaled) + 0x800000;
  /* scaled / 2^24 rounded down (an arithmetic shift, written portably). */
  const int32_t n = scaled >= 0 ? scaled >> 24 : -(((-(scaled + 1)) >> 24) + 1);
  *quadrant = n;
  return (x - (double)n * half_pi_high) - (double)n * half_pi_low;
}

/* x - n pi/2 for |x| >= 120 from the bits of the float x: its mantissa
 * times 96 bits of 4/pi chosen by its exponent, in 2^62 fixed point. */
static inline double loupe_libm_reduce_large(uint32_t bits, int* quadrant) {
  const uint32_t* table = &loupe_libm_inv_pio4[(bits >> 26) & 15];
  const int shift = (int)((bits >> 23) & 7);
  const uint32_t mantissa = ((bits & 0xffffffu) | 0x800000u) << shift;
  uint64_t product = (uint64_t)(uint32_t)(mantissa * table[0]);
  const uint64_t middle = (uint64_t)mantissa * table[4];
  const uint64_t low = (uint64_t)mantissa * table[8];
  uint64_t n;
  int64_t fraction;
  product = (low >> 32) | (product << 32);
  product += middle;
  n = (product + (1ull << 61)) >> 62;
  product -= n << 62;
  /* Two's complement reading of the remainder, without an implementation-
   * defined conversion. */
  fraction = (product & 0x8000000000000000u) ? -(int64_t)(~product) - 1 : (int64_t)product;
  *quadrant = (int)n;
  return (double)fraction * 0x1.921FB54442D18p-62; /* (pi/2) / 2^62 */
}

/* sin (is_cos == 0) or cos of a float y in double, before the float
 * rounding; y finite with |y| >= 2^-12. */
static inline double loupe_libm_sincosf_core(float y, int is_cos, int fused) {
  const uint32_t bits = loupe_libm_bits_f32(y);
  const uint32_t top = (bits >> 20) & 0x7ffu;
  double x = (double)y;
  int quadrant;
  int sign_quadrant; /* plus 2 (mod 4) for a negative y reduced from its magnitude */
  const struct loupe_libm_sincos_poly* p = &loupe_libm_sincos_polys[0];
  if (top < 0x3f4u) { /* |y| < 0.75 */
    return loupe_libm_sincos_poly_eval(x, x * x, p, is_cos, fused);
  }
  if (top < 0x42fu) { /* |y| < 120 */
    x = loupe_libm_reduce_small(x, &quadrant);
    sign_quadrant = quadrant;
  } else {
    x = loupe_libm_reduce_large(bits, &quadrant);
    sign_quadrant = quadrant + (int)(bits >> 31);
  }
  /* The sine is negative in quadrants 1 and 2, the cosine in 2 and 3. */
  if ((sign_quadrant + 1) & 2) x = -x;
  if (sign_quadrant & 2) p = &loupe_libm_sincos_polys[1];
  return loupe_libm_sincos_poly_eval(x, x * x, p, quadrant ^ is_cos, fused);
}

static inline float loupe_libm_sincosf(float y, int is_cos) {
  const uint32_t top = (loupe_libm_bits_f32(y) >> 20) & 0x7ff;
  double result;
  if (top < 0x398u) return is_cos ? 1.0f : y;  /* |y| < 2^-12 */
  if (top >= 0x7f8u) return (y - y) / (y - y); /* inf or NaN */
  result = loupe_libm_sincosf_core(y, is_cos, 0);
  if (loupe_libm_near_float_tie(result)) result = loupe_libm_sincosf_core(y, is_cos, 1);
  return (float)result;
}

static inline float loupe_libm_sinf(float x) {
  return loupe_libm_sincosf(x, 0);
}

static inline float loupe_libm_cosf(float x) {
  return loupe_libm_sincosf(x, 1);
}

/* ---- expm1f and tanhf ---------------------------------------------------- */

/* fdlibm's expm1f in float: x = k ln2 + r with |r| <= ln2/2 (r carried as
 * hi - lo with a correction c), a rational approximation of expm1(r), and
 * 2^k applied to the exponent bits. */
static inline float loupe_libm_expm1f(float x) {
  LOUPE_LIBM_NO_CONTRACTION
  const float ln2_high = 6.9313812256e-01f; /* 0x3f317180 */
  const float ln2_low = 9.0580006145e-06f;  /* 0x3717f7d1 */
  const float inv_ln2 = 1.4426950216e+00f;  /* 0x3fb8aa3b */
  const float q1 = -3.3333335072e-02f;      /* 0xbd088889 */
  const float q2 = 1.5873016091e-03f;       /* 0x3ad00d01 */
  const float q3 = -7.9365076090e-05f;      /* 0xb8a670cd */
  const float q4 = 4.0082177293e-06f;       /* 0x36867e54 */
  const float q5 = -2.0109921195e-07f;      /* 0xb457edbb */
  const uint32_t bits = loupe_libm_bits_f32(x);
  const uint32_t negative = bits & 0x80000000u;
  const uint32_t magnitude = bits & 0x7fffffffu;
  float high;
  float low;
  float correction = 0.0f;
  float half_x;
  float half_x2;
  float r1;
  float t;
  float e;
  float y;
  int32_t k;
  if (magnitude >= 0x4195b844u) { /* |x| >= 27 ln2 */
    if (magnitude >= 0x42b17218u) {
      if (magnitude > 0x7f800000u) return x + x;
      if (magnitude == 0x7f800000u) return negative ? -1.0f : x;
      if (x > 8.8721679688e+01f) return loupe_libm_from_bits_f32(0x7f800000u);
    }
    if (negative) return -1.0f;
  }
  if (magnitude > 0x3eb17218u) {   /* |x| > ln2 / 2 */
    if (magnitude < 0x3f851592u) { /* and < 3 ln2 / 2 */
      if (!negative) {
        high = x - ln2_high;
        low = ln2_low;
        k = 1;
      } else {
        high = x + ln2_high;
        low = -ln2_low;
        k = -1;
      }
    } else {
      k = (int32_t)(inv_ln2 * x + (negative ? -0.5f : 0.5f));
      t = (float)k;
      high = x - t * ln2_high; /* exact */
      low = t * ln2_low;
    }
    x = high - low;
    correction = (high - x) - low;
  } else if (magnitude < 0x33000000u) { /* |x| < 2^-25 */
    return x;
  } else {
    k = 0;
  }
  half_x = 0.5f * x;
  half_x2 = x * half_x;
  r1 = 1.0f + half_x2 * (q1 + half_x2 * (q2 + half_x2 * (q3 + half_x2 * (q4 + half_x2 * q5))));
  t = 3.0f - r1 * half_x;
  e = half_x2 * ((r1 - t) / (6.0f - x * t));
  if (k == 0) return x - (x * e - half_x2);
  e = x * (e - correction) - correction;
  e -= half_x2;
  if (k == -1) return 0.5f * (x - e) - 0.5f;
  if (k == 1) {
    if (x < -0.25f) return -2.0f * (e - (x + 0.5f));
    return 1.0f + 2.0f * (x - e);
  }
  if (k <= -2 || k > 56) {
    y = 1.0f - (e - x);
    y = loupe_libm_from_bits_f32(loupe_libm_bits_f32(y) + ((uint32_t)k << 23));
    return y - 1.0f;
  }
  if (k < 23) {
    t = loupe_libm_from_bits_f32(0x3f800000u - (0x1000000u >> k)); /* 1 - 2^-k */
    y = t - (e - x);
  } else {
    t = loupe_libm_from_bits_f32((uint32_t)(0x7f - k) << 23); /* 2^-k */
    y = x - (e + t);
    y += 1.0f;
  }
  return loupe_libm_from_bits_f32(loupe_libm_bits_f32(y) + ((uint32_t)k << 23));
}

/* fdlibm's tanhf: from expm1f(2|x|) (|x| >= 1) or expm1f(-2|x|), 1 from 22
 * on, x itself below 2^-55. */
static inline float loupe_libm_tanhf(float x) {
  const uint32_t bits = loupe_libm_bits_f32(x);
  const uint32_t magnitude = bits & 0x7fffffffu;
  const float absolute = loupe_libm_from_bits_f32(magnitude);
  float t;
  float z;
  if (magnitude >= 0x7f800000u) { /* inf or NaN */
    return (bits & 0x80000000u) ? 1.0f / x - 1.0f : 1.0f / x + 1.0f;
  }
  if (magnitude < 0x41b00000u) { /* |x| < 22 */
    if (magnitude == 0) return x;
    if (magnitude < 0x24000000u) return x * (1.0f + x); /* |x| < 2^-55 */
    if (magnitude >= 0x3f800000u) {                     /* |x| >= 1 */
      t = loupe_libm_expm1f(2.0f * absolute);
      z = 1.0f - 2.0f / (t + 2.0f);
    } else {
      t = loupe_libm_expm1f(-2.0f * absolute);
      z = -t / (t + 2.0f);
    }
  } else {
    z = 1.0f;
  }
  return (bits & 0x80000000u) ? -z : z;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_LOUPE_LIBM_H_ */
