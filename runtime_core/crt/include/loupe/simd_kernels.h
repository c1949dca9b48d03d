/*
 * The SIMD kernels generated code calls when it is lowered for a CPU with
 * the DSP extension (Cortex-M4, M7, M33) or MVE (Cortex-M55): one output
 * pixel of an int8 convolution, every output channel of it, from a window
 * gathered into a contiguous int8 patch (or read in place, for a 1x1
 * convolution). For each channel c:
 *
 *   acc = acc_init[c] + sum_i filter(c, i) * patch[i]
 *   out[c] = clamp(MultiplyByQuantizedMultiplier(acc, multiplier[c],
 *                  shift[c]) + output_offset, act_min, act_max)
 *
 * where filter(c, i) is filter[c * length + i] (rows) for the portable and
 * MVE kernels and the DSP kernel's interleaved layout (below) for it.
 * acc_init holds the bias with the input zero point folded in
 * (bias + input_offset * sum of the filter row), so taps outside the input
 * are gathered as the input zero point and contribute nothing. The caller
 * guarantees that no partial sum leaves the int32 range (the compiler checks
 * it), multiplier >= 0 and shift in [-31, 30] (every TFLite convolution).
 *
 * Each kernel uses its instruction set when the compiler targets it
 * (__ARM_FEATURE_MVE, __ARM_FEATURE_DSP) and otherwise computes the same
 * bytes in portable C, so code lowered for one CPU runs correctly on any
 * other, and the host tests check the lowering itself. The requantisation
 * is TFLite Micro's (loupe/quantized_arith.h); the MVE version does it four
 * channels at a time with VQRDMULH (equal to the saturating rounding
 * doubling high multiply) and a rounding shift made to round ties away from
 * zero, so every version gives exactly the reference's bytes.
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_SIMD_KERNELS_H_
#define LOUPE_SIMD_KERNELS_H_

#include <stdint.h>

#include "loupe/quantized_arith.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define LOUPE_HAVE_MVE 1
#endif
#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32)
#include <arm_acle.h>
#define LOUPE_HAVE_DSP 1
#endif

/* Kernels inlined where they are called, so that the generated code's
 * constant arguments become immediates. */
#if defined(__GNUC__)
#define LOUPE_ALWAYS_INLINE __attribute__((always_inline))
#else
#define LOUPE_ALWAYS_INLINE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One accumulator of channel c to its int8 output, with the split-shift
 * requantisation (the kernels' multipliers and shifts are in its range). */
static inline int8_t loupe_requantize_channel(int32_t acc, int32_t c, const int32_t* multiplier,
                                              const int32_t* shift, int32_t output_offset,
                                              int32_t act_min, int32_t act_max) {
  const int32_t s = shift[c];
  return (int8_t)loupe_requantize_acc_i32_split_shift(
      acc, multiplier[c], s > 0 ? s : 0, s > 0 ? 0 : -s, output_offset, act_min, act_max);
}

/* The portable kernel; the others fall back to it. */
static inline void loupe_conv_pixel_s8_portable(const int8_t* patch, const int8_t* filter,
                                                int32_t length, int32_t channels,
                                                const int32_t* acc_init, const int32_t* multiplier,
                                                const int32_t* shift, int32_t output_offset,
                                                int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    const int8_t* row = filter + c * length;
    int32_t acc = acc_init[c];
    int32_t i;
    for (i = 0; i < length; ++i) acc += (int32_t)row[i] * (int32_t)patch[i];
    out[c] = loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
  }
}

#if defined(LOUPE_HAVE_DSP)
/* Four int8 lanes as two pairs of int16: (b0, b2) and (b1, b3). Both
 * operands are split the same way, so SMLAD pairs matching elements. */
static inline uint32_t loupe_load_u32(const int8_t* p) {
  uint32_t v;
  /* The builtin, not memcpy: firmware is built -ffreestanding, where a
   * memcpy call would stay a call. Unaligned LDR is fine on Armv7E-M/v8-M. */
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

/* Bytes 1 and 3 sign-extended to two int16: SXTB16 with its rotation, one
 * instruction (GCC 12 does not fold a separate ROR into it). */
static inline int16x2_t loupe_sxtb16_ror8(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* acc + the dot product of four int8 weights in `w` with the four patch
 * values split as x02 (bytes 0 and 2) and x13 (bytes 1 and 3). */
static inline int32_t loupe_smlad4_s8(uint32_t w, int16x2_t x02, int16x2_t x13, int32_t acc) {
  return __smlad(loupe_sxtb16_ror8(w), x13, __smlad(__sxtb16(w), x02, acc));
}
#endif

#if defined(LOUPE_HAVE_MVE)
/* Four int32 accumulators to int8 values (in int32 lanes), TFLite's
 * requantisation (see the top of this file), each lane with its own
 * multiplier and shift. */
static inline LOUPE_ALWAYS_INLINE int32x4_t loupe_requantize_x4_mve(int32x4_t acc, int32x4_t mult,
                                                                    int32x4_t sh,
                                                                    int32_t output_offset,
                                                                    int32_t act_min,
                                                                    int32_t act_max) {
  const int32x4_t left = vmaxq_s32(sh, vdupq_n_s32(0));
  const int32x4_t neg_right = vminq_s32(sh, vdupq_n_s32(0));
  const int32x4_t high = vqrdmulhq_s32(vshlq_s32(acc, left), mult);
  /* VRSHL rounds ties up; subtracting 1 from negative values first (when
   * there is a right shift) rounds them away from zero, as TFLite does. */
  const int32x4_t fixup = vshrq_n_s32(vandq_s32(high, neg_right), 31);
  int32x4_t r = vrshlq_s32(vqaddq_s32(high, fixup), neg_right);
  r = vaddq_s32(r, vdupq_n_s32(output_offset));
  r = vmaxq_s32(r, vdupq_n_s32(act_min));
  return vminq_s32(r, vdupq_n_s32(act_max));
}

/* The same stored in the lanes of `lane_mask`, the constants of channels
 * multiplier[0..3] and shift[0..3]. */
static inline void loupe_requantize_store_x4_mve(int32x4_t acc, const int32_t* multiplier,
                                                 const int32_t* shift, int32_t output_offset,
                                                 int32_t act_min, int32_t act_max, int8_t* out,
                                                 mve_pred16_t lane_mask) {
  const int32x4_t r =
      loupe_requantize_x4_mve(acc, vldrwq_z_s32(multiplier, lane_mask),
                              vldrwq_z_s32(shift, lane_mask), output_offset, act_min, act_max);
  vstrbq_p_s32(out, r, lane_mask);
}
#endif

/* The filter layout of the DSP and Thumb kernels, chosen at compile time
 * (lowering/simd_conv_kernel.cpp) so that one pointer walks four
 * channels' weights in the order the kernels read them: each group of four
 * channels (c = 4g .. 4g+3, all but the last channels % 4) keeps its
 * 4 * length bytes where its rows would be, as length / 4 blocks of 16 bytes
 * (channel 4g's next four taps, then 4g+1's, 4g+2's, 4g+3's) followed by
 * the four channels' last length % 4 taps, one channel after the other; the
 * channels after the last group keep plain rows. */

/* Requantises four accumulators of channels c .. c+3 into out[c .. c+3]. */
static inline void loupe_requantize_store_x4(int32_t acc0, int32_t acc1, int32_t acc2, int32_t acc3,
                                             int32_t c, const int32_t* multiplier,
                                             const int32_t* shift, int32_t output_offset,
                                             int32_t act_min, int32_t act_max, int8_t* out) {
  out[c] = loupe_requantize_channel(acc0, c, multiplier, shift, output_offset, act_min, act_max);
  out[c + 1] =
      loupe_requantize_channel(acc1, c + 1, multiplier, shift, output_offset, act_min, act_max);
  out[c + 2] =
      loupe_requantize_channel(acc2, c + 2, multiplier, shift, output_offset, act_min, act_max);
  out[c + 3] =
      loupe_requantize_channel(acc3, c + 3, multiplier, shift, output_offset, act_min, act_max);
}

/* The DSP kernels' faster form of it. */
#include "loupe/dsp_requantize.h"

/* The fallback of the DSP kernel (code lowered for plain Thumb calls
 * loupe_conv_pixel_s8_thumb_smlal, loupe/thumb_conv_kernels.h): four
 * channels at a time in the layout above, each patch value loaded once for
 * the four, one multiply-accumulate per weight. */
static inline void loupe_conv_pixel_s8_thumb(const int8_t* patch, const int8_t* filter,
                                             int32_t length, int32_t channels,
                                             const int32_t* acc_init, const int32_t* multiplier,
                                             const int32_t* shift, int32_t output_offset,
                                             int32_t act_min, int32_t act_max, int8_t* out) {
  const int32_t rest = length & 3;
  /* Bounds spelled out for GCC 12, which otherwise warns that the tail
   * loops might index past the tables (-Waggressive-loop-optimizations). */
  const int32_t grouped = channels & ~3;
  const int8_t* w = filter;
  int32_t c;
  for (c = 0; c < grouped; c += 4) {
    const int8_t* x = patch;
    int32_t acc0 = acc_init[c], acc1 = acc_init[c + 1], acc2 = acc_init[c + 2],
            acc3 = acc_init[c + 3];
    int32_t steps = length >> 2, i;
    while (steps-- > 0) {
      /* One MLA per weight, straight into the accumulators. */
      const int32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
      acc0 += w[0] * x0, acc1 += w[4] * x0, acc2 += w[8] * x0, acc3 += w[12] * x0;
      acc0 += w[1] * x1, acc1 += w[5] * x1, acc2 += w[9] * x1, acc3 += w[13] * x1;
      acc0 += w[2] * x2, acc1 += w[6] * x2, acc2 += w[10] * x2, acc3 += w[14] * x2;
      acc0 += w[3] * x3, acc1 += w[7] * x3, acc2 += w[11] * x3, acc3 += w[15] * x3;
      x += 4, w += 16;
    }
    for (i = 0; i < rest; ++i) {
      acc0 += (int32_t)w[i] * (int32_t)x[i];
      acc1 += (int32_t)w[rest + i] * (int32_t)x[i];
      acc2 += (int32_t)w[2 * rest + i] * (int32_t)x[i];
      acc3 += (int32_t)w[3 * rest + i] * (int32_t)x[i];
    }
    w += 4 * rest;
    loupe_requantize_store_x4(acc0, acc1, acc2, acc3, c, multiplier, shift, output_offset, act_min,
                              act_max, out);
  }
  /* w is where the plain rows start. */
  for (c = grouped; c < channels; ++c) {
    int32_t acc = acc_init[c];
    int32_t i;
    for (i = 0; i < length; ++i) acc += (int32_t)w[i] * (int32_t)patch[i];
    w += length;
    out[c] = loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
  }
}

/* DSP extension: four channels at a time, four taps per step: one patch
 * word split by two SXTB16 and shared by the channels, then per channel
 * one filter word, two SXTB16 and two SMLAD. Filter in the layout above. */
static inline void loupe_conv_pixel_s8_dsp(const int8_t* patch, const int8_t* filter,
                                           int32_t length, int32_t channels,
                                           const int32_t* acc_init, const int32_t* multiplier,
                                           const int32_t* shift, int32_t output_offset,
                                           int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_DSP)
  const int32_t rest = length & 3;
  const int32_t grouped = channels & ~3; /* as in the Thumb kernel */
  const int8_t* w = filter;
  int32_t c;
  for (c = 0; c < grouped; c += 4) {
    const int8_t* x = patch;
    int32_t acc0 = acc_init[c], acc1 = acc_init[c + 1], acc2 = acc_init[c + 2],
            acc3 = acc_init[c + 3];
    int32_t pairs = length >> 3, i;
    /* Eight taps per iteration, which spends fewer instructions on the
     * loop itself. The empty asm keeps GCC from hoisting the second half's
     * loads above the first half's multiplies, which ran it out of
     * registers (spilled accumulators cost more than the loop saves). */
    while (pairs-- > 0) {
      uint32_t word = loupe_load_u32(x);
      int16x2_t x02 = __sxtb16(word);
      int16x2_t x13 = loupe_sxtb16_ror8(word);
      acc0 = loupe_smlad4_s8(loupe_load_u32(w), x02, x13, acc0);
      acc1 = loupe_smlad4_s8(loupe_load_u32(w + 4), x02, x13, acc1);
      acc2 = loupe_smlad4_s8(loupe_load_u32(w + 8), x02, x13, acc2);
      acc3 = loupe_smlad4_s8(loupe_load_u32(w + 12), x02, x13, acc3);
      __asm__ volatile("" ::: "memory");
      word = loupe_load_u32(x + 4);
      x02 = __sxtb16(word);
      x13 = loupe_sxtb16_ror8(word);
      acc0 = loupe_smlad4_s8(loupe_load_u32(w + 16), x02, x13, acc0);
      acc1 = loupe_smlad4_s8(loupe_load_u32(w + 20), x02, x13, acc1);
      acc2 = loupe_smlad4_s8(loupe_load_u32(w + 24), x02, x13, acc2);
      acc3 = loupe_smlad4_s8(loupe_load_u32(w + 28), x02, x13, acc3);
      x += 8, w += 32;
    }
    if ((length & 4) != 0) {
      const uint32_t word = loupe_load_u32(x);
      const int16x2_t x02 = __sxtb16(word);
      const int16x2_t x13 = loupe_sxtb16_ror8(word);
      acc0 = loupe_smlad4_s8(loupe_load_u32(w), x02, x13, acc0);
      acc1 = loupe_smlad4_s8(loupe_load_u32(w + 4), x02, x13, acc1);
      acc2 = loupe_smlad4_s8(loupe_load_u32(w + 8), x02, x13, acc2);
      acc3 = loupe_smlad4_s8(loupe_load_u32(w + 12), x02, x13, acc3);
      x += 4, w += 16;
    }
    for (i = 0; i < rest; ++i) {
      acc0 += (int32_t)w[i] * (int32_t)x[i];
      acc1 += (int32_t)w[rest + i] * (int32_t)x[i];
      acc2 += (int32_t)w[2 * rest + i] * (int32_t)x[i];
      acc3 += (int32_t)w[3 * rest + i] * (int32_t)x[i];
    }
    w += 4 * rest;
    loupe_requantize_store_x4_dsp(acc0, acc1, acc2, acc3, c, multiplier, shift, output_offset,
                                  act_min, act_max, out);
  }
  /* w is where the plain rows start. */
  for (c = grouped; c < channels; ++c) {
    const int8_t* row = w;
    const int8_t* x = patch;
    int32_t acc = acc_init[c];
    int32_t steps = length >> 2, i;
    while (steps-- > 0) {
      const uint32_t word = loupe_load_u32(x);
      acc = loupe_smlad4_s8(loupe_load_u32(row), __sxtb16(word), loupe_sxtb16_ror8(word), acc);
      x += 4, row += 4;
    }
    w += length;
    for (i = 0; i < rest; ++i) acc += (int32_t)row[i] * (int32_t)x[i];
    out[c] =
        (int8_t)loupe_requantize_dsp(acc, c, multiplier, shift, output_offset, act_min, act_max);
  }
#else
  loupe_conv_pixel_s8_thumb(patch, filter, length, channels, acc_init, multiplier, shift,
                            output_offset, act_min, act_max, out);
#endif
}

/* MVE: four channels at a time, 16 taps per step, each step one patch load
 * shared by the four channels and one VMLADAVA per channel; the last
 * partial step is tail-predicated once, outside the loop (predicating every
 * step costs a VPST per instruction). Then the four accumulators are
 * requantised as one vector. */
#if defined(LOUPE_HAVE_MVE)
static inline void loupe_conv_quad_s8_mve(const int8_t* patch, const int8_t* row0,
                                          const int8_t* row1, const int8_t* row2,
                                          const int8_t* row3, int32_t length, int32_t* sums) {
  int32_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
  int32_t blocks = length >> 4;
  while (blocks-- > 0) {
    const int8x16_t x = vldrbq_s8(patch);
    sum0 = vmladavaq_s8(sum0, vldrbq_s8(row0), x);
    sum1 = vmladavaq_s8(sum1, vldrbq_s8(row1), x);
    sum2 = vmladavaq_s8(sum2, vldrbq_s8(row2), x);
    sum3 = vmladavaq_s8(sum3, vldrbq_s8(row3), x);
    patch += 16, row0 += 16, row1 += 16, row2 += 16, row3 += 16;
  }
  if ((length & 15) != 0) {
    const mve_pred16_t p = vctp8q((uint32_t)(length & 15));
    const int8x16_t x = vldrbq_z_s8(patch, p);
    sum0 = vmladavaq_p_s8(sum0, vldrbq_z_s8(row0, p), x, p);
    sum1 = vmladavaq_p_s8(sum1, vldrbq_z_s8(row1, p), x, p);
    sum2 = vmladavaq_p_s8(sum2, vldrbq_z_s8(row2, p), x, p);
    sum3 = vmladavaq_p_s8(sum3, vldrbq_z_s8(row3, p), x, p);
  }
  sums[0] = sum0, sums[1] = sum1, sums[2] = sum2, sums[3] = sum3;
}
#endif

static inline void loupe_conv_pixel_s8_mve(const int8_t* patch, const int8_t* filter,
                                           int32_t length, int32_t channels,
                                           const int32_t* acc_init, const int32_t* multiplier,
                                           const int32_t* shift, int32_t output_offset,
                                           int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  int32_t c;
  for (c = 0; c < channels; c += 4) {
    const int32_t lanes = channels - c < 4 ? channels - c : 4;
    const mve_pred16_t lane_mask = vctp32q((uint32_t)lanes);
    /* Rows past the last channel repeat the last one; their lanes are not stored. */
    const int8_t* row0 = filter + c * length;
    int32_t sums[4];
    loupe_conv_quad_s8_mve(patch, row0, row0 + (lanes > 1 ? length : 0),
                           row0 + (lanes > 2 ? 2 * length : 0), row0 + (lanes > 3 ? 3 * length : 0),
                           length, sums);
    loupe_requantize_store_x4_mve(
        vaddq_s32(vldrwq_s32(sums), vldrwq_z_s32(acc_init + c, lane_mask)), multiplier + c,
        shift + c, output_offset, act_min, act_max, out + c, lane_mask);
  }
#else
  loupe_conv_pixel_s8_portable(patch, filter, length, channels, acc_init, multiplier, shift,
                               output_offset, act_min, act_max, out);
#endif
}

/* One output pixel of an int8 depthwise convolution (depth multiplier 1),
 * every channel of it: the window's taps inside the input form a
 * taps_h x taps_w rectangle whose first tap's channel 0 is `input`
 * (row_step and col_step bytes apart) and whose filter values start at
 * `filter` (filter_row_step bytes between filter rows, `channels` between
 * taps). For each channel c:
 *
 *   acc = acc_init[c] + sum over taps of (x[c] + input_offset) * w[c]
 *
 * requantised as above. A window with every tap inside the input passes
 * input_offset 0 and the offset folded into acc_init. */
static inline void loupe_dw_pixel_s8_portable(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter,
    int32_t filter_row_step, int32_t taps_h, int32_t taps_w, int32_t channels, int32_t input_offset,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    int32_t acc = acc_init[c];
    int32_t ky, kx;
    for (ky = 0; ky < taps_h; ++ky) {
      for (kx = 0; kx < taps_w; ++kx) {
        const int32_t x = input[ky * row_step + kx * col_step + c];
        acc += (x + input_offset) * (int32_t)filter[ky * filter_row_step + kx * channels + c];
      }
    }
    out[c] = loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
  }
}

/* MVE: four channels per vector, each tap one widening load of input and
 * filter, a multiply and an add; only the last group of fewer than four
 * channels is predicated. */
#if defined(LOUPE_HAVE_MVE)
static inline int32x4_t loupe_dw_taps_x4_mve(int32x4_t acc, const int8_t* input, int32_t row_step,
                                             int32_t col_step, const int8_t* filter,
                                             int32_t filter_row_step, int32_t filter_col_step,
                                             int32_t taps_h, int32_t taps_w, int32_t input_offset) {
  int32_t ky, kx;
  for (ky = 0; ky < taps_h; ++ky) {
    const int8_t* in = input + ky * row_step;
    const int8_t* w = filter + ky * filter_row_step;
    if (input_offset == 0) {
      for (kx = 0; kx < taps_w; ++kx) {
        acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(in), vldrbq_s32(w)));
        in += col_step, w += filter_col_step;
      }
    } else {
      for (kx = 0; kx < taps_w; ++kx) {
        const int32x4_t x = vaddq_n_s32(vldrbq_s32(in), input_offset);
        acc = vaddq_s32(acc, vmulq_s32(x, vldrbq_s32(w)));
        in += col_step, w += filter_col_step;
      }
    }
  }
  return acc;
}
#endif

static inline void loupe_dw_pixel_s8_mve(const int8_t* input, int32_t row_step, int32_t col_step,
                                         const int8_t* filter, int32_t filter_row_step,
                                         int32_t taps_h, int32_t taps_w, int32_t channels,
                                         int32_t input_offset, const int32_t* acc_init,
                                         const int32_t* multiplier, const int32_t* shift,
                                         int32_t output_offset, int32_t act_min, int32_t act_max,
                                         int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  int32_t c;
  for (c = 0; c + 4 <= channels; c += 4) {
    const int32x4_t acc =
        loupe_dw_taps_x4_mve(vldrwq_s32(acc_init + c), input + c, row_step, col_step, filter + c,
                             filter_row_step, channels, taps_h, taps_w, input_offset);
    loupe_requantize_store_x4_mve(acc, multiplier + c, shift + c, output_offset, act_min, act_max,
                                  out + c, vctp32q(4));
  }
  if (c < channels) {
    /* The last one to three channels: predicated loads (lanes that are
     * off read no memory) and a predicated store. */
    const mve_pred16_t p = vctp32q((uint32_t)(channels - c));
    int32x4_t acc = vldrwq_z_s32(acc_init + c, p);
    int32_t ky, kx;
    for (ky = 0; ky < taps_h; ++ky) {
      const int8_t* in = input + ky * row_step + c;
      const int8_t* w = filter + ky * filter_row_step + c;
      for (kx = 0; kx < taps_w; ++kx) {
        const int32x4_t x = vaddq_n_s32(vldrbq_z_s32(in + kx * col_step, p), input_offset);
        acc = vaddq_s32(acc, vmulq_s32(x, vldrbq_z_s32(w + kx * channels, p)));
      }
    }
    loupe_requantize_store_x4_mve(acc, multiplier + c, shift + c, output_offset, act_min, act_max,
                                  out + c, p);
  }
#else
  loupe_dw_pixel_s8_portable(input, row_step, col_step, filter, filter_row_step, taps_h, taps_w,
                             channels, input_offset, acc_init, multiplier, shift, output_offset,
                             act_min, act_max, out);
#endif
}

/* The same for a window of 3x3 taps all inside the input (the input
 * offset folded into acc_init), the case of nearly every pixel of a 3x3
 * depthwise convolution: the nine taps unrolled, and the kernel inlined
 * where it is called, so the generated code's constant steps and channel
 * count become immediate offsets and a fixed loop. */

#if defined(LOUPE_HAVE_MVE)
static inline LOUPE_ALWAYS_INLINE int32x4_t
loupe_dw_3x3_taps_x4_mve(int32x4_t acc, const int8_t* in, int32_t row_step, int32_t col_step,
                         const int8_t* w, int32_t channels) {
  int32_t ky;
  for (ky = 0; ky < 3; ++ky) {
    acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(in), vldrbq_s32(w)));
    acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(in + col_step), vldrbq_s32(w + channels)));
    acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(in + 2 * col_step), vldrbq_s32(w + 2 * channels)));
    in += row_step, w += 3 * channels;
  }
  return acc;
}
#endif

static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_s8_mve(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  int32_t c;
  for (c = 0; c + 4 <= channels; c += 4) {
    const int32x4_t acc = loupe_dw_3x3_taps_x4_mve(vldrwq_s32(acc_init + c), input + c, row_step,
                                                   col_step, filter + c, channels);
    loupe_requantize_store_x4_mve(acc, multiplier + c, shift + c, output_offset, act_min, act_max,
                                  out + c, vctp32q(4));
  }
  if (c < channels) {
    /* The last one to three channels, predicated (lanes that are off read
     * no memory). */
    const mve_pred16_t p = vctp32q((uint32_t)(channels - c));
    const int8_t* in = input + c;
    const int8_t* w = filter + c;
    int32x4_t acc = vldrwq_z_s32(acc_init + c, p);
    int32_t tap;
    for (tap = 0; tap < 9; ++tap) {
      const int32_t ky = tap / 3, kx = tap % 3;
      const int32x4_t x = vldrbq_z_s32(in + ky * row_step + kx * col_step, p);
      acc = vaddq_s32(acc, vmulq_s32(x, vldrbq_z_s32(w + tap * channels, p)));
    }
    loupe_requantize_store_x4_mve(acc, multiplier + c, shift + c, output_offset, act_min, act_max,
                                  out + c, p);
  }
#else
  loupe_dw_pixel_s8_portable(input, row_step, col_step, filter, 3 * channels, 3, 3, channels, 0,
                             acc_init, multiplier, shift, output_offset, act_min, act_max, out);
#endif
}

/* Quantised int8 ADD of two tensors of `count` elements (no broadcasting),
 * TFLite's arithmetic (loupe_add_element in loupe/quantized_arith.h): each
 * input offset, shifted left by left_shift and rescaled (multiplier, shift
 * <= 0), the sum rescaled to the output, offset and clamped. */
static inline void loupe_add_s8_portable(const int8_t* in1, const int8_t* in2, int32_t count,
                                         const loupe_add_sub_params* p, int8_t* out) {
  int32_t i;
  for (i = 0; i < count; ++i) out[i] = (int8_t)loupe_add_element(in1[i], in2[i], p);
}

#if defined(LOUPE_HAVE_MVE)
/* TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp on four lanes:
 * VQRDMULH is its saturating rounding doubling high multiply; VRSHL rounds
 * ties up, so negative values are first lowered by one when there is a
 * right shift (`right_mask` all ones), which rounds their ties away from
 * zero as TFLite does. */
static inline int32x4_t loupe_scale_x4_mve(int32x4_t x, int32_t multiplier, int32_t shift,
                                           int32x4_t right_mask) {
  const int32x4_t high = vqrdmulhq_n_s32(x, multiplier);
  const int32x4_t fixup = vandq_s32(vshrq_n_s32(high, 31), right_mask);
  return vrshlq_n_s32(vqaddq_s32(high, fixup), shift);
}
#endif

/* MVE: four elements per vector (widening byte loads), the last group
 * tail-predicated. The parameters are loupe_add_sub_params' fields in
 * order, as generated code passes them. */
static inline void loupe_add_s8_mve(const int8_t* in1, const int8_t* in2, int32_t count,
                                    int32_t input1_offset, int32_t input2_offset,
                                    int32_t output_offset, int32_t left_shift,
                                    int32_t input1_multiplier, int32_t input1_shift,
                                    int32_t input2_multiplier, int32_t input2_shift,
                                    int32_t output_multiplier, int32_t output_shift,
                                    int32_t act_min, int32_t act_max, int8_t* out) {
  loupe_add_sub_params params;
  const loupe_add_sub_params* p = &params;
  params.input1_offset = input1_offset;
  params.input2_offset = input2_offset;
  params.output_offset = output_offset;
  params.left_shift = (int)left_shift;
  params.input1_multiplier = input1_multiplier;
  params.input1_shift = (int)input1_shift;
  params.input2_multiplier = input2_multiplier;
  params.input2_shift = (int)input2_shift;
  params.output_multiplier = output_multiplier;
  params.output_shift = (int)output_shift;
  params.act_min = act_min;
  params.act_max = act_max;
#if defined(LOUPE_HAVE_MVE)
  const int32x4_t mask1 = vdupq_n_s32(p->input1_shift < 0 ? -1 : 0);
  const int32x4_t mask2 = vdupq_n_s32(p->input2_shift < 0 ? -1 : 0);
  const int32x4_t mask_out = vdupq_n_s32(p->output_shift < 0 ? -1 : 0);
  const int32_t scale_in = (int32_t)(1u << p->left_shift);
  int32_t i;
  for (i = 0; i < count; i += 4) {
    const mve_pred16_t lanes = vctp32q((uint32_t)(count - i));
    int32x4_t a = vldrbq_z_s32(in1 + i, lanes);
    int32x4_t b = vldrbq_z_s32(in2 + i, lanes);
    a = vmulq_n_s32(vaddq_n_s32(a, p->input1_offset), scale_in);
    b = vmulq_n_s32(vaddq_n_s32(b, p->input2_offset), scale_in);
    a = loupe_scale_x4_mve(a, p->input1_multiplier, p->input1_shift, mask1);
    b = loupe_scale_x4_mve(b, p->input2_multiplier, p->input2_shift, mask2);
    int32x4_t r =
        loupe_scale_x4_mve(vaddq_s32(a, b), p->output_multiplier, p->output_shift, mask_out);
    r = vaddq_n_s32(r, p->output_offset);
    r = vmaxq_s32(r, vdupq_n_s32(p->act_min));
    r = vminq_s32(r, vdupq_n_s32(p->act_max));
    vstrbq_p_s32(out + i, r, lanes);
  }
#else
  loupe_add_s8_portable(in1, in2, count, p, out);
#endif
}

#ifdef __cplusplus
}
#endif

/* The kernels of one instruction set in a header of their own
 * (thumb_conv_kernels.h, thumb_depthwise_kernels.h, dsp_depthwise_kernels.h,
 * ...) include this one for its helpers; the generated C includes the
 * header each intrinsic it calls names (tir/intrinsics.cpp). */

#endif /* LOUPE_SIMD_KERNELS_H_ */
