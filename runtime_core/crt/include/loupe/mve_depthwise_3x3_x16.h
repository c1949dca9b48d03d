/*
 * A 3x3 int8 depthwise window inside the input, sixteen channels per
 * vector: the arguments and bytes of loupe_dw_3x3_s8_mve (see
 * loupe/simd_kernels.h, which includes this file), for filters whose
 * values are all in [-127, 127] (TFLite's symmetric int8 weights; the
 * compiler checks it and otherwise calls loupe_dw_3x3_s8_mve).
 *
 * Each tap is one int8 load of sixteen inputs and one of their weights and
 * VMULLB/VMULLT to the int16 products of the even and the odd channels.
 * A product is at most 128 * 127 in magnitude, so two taps' products add
 * in int16 without overflow before they are widened (VMOVLB/VMOVLT) into
 * four int32 accumulators; accumulator k holds channels k, k + 4, k + 8,
 * k + 12, so its constants are gathered and its outputs scattered four
 * channels apart. A channel count that is not a multiple of sixteen goes
 * through the four-channel kernel. Inlined where it is called, as that kernel.
 * C99, header-only, no allocation.
 */
#ifndef LOUPE_MVE_DEPTHWISE_3X3_X16_H_
#define LOUPE_MVE_DEPTHWISE_3X3_X16_H_

#include <stdint.h>

/* Its helpers and the one-pixel kernels; that header includes this one at
 * its end, so either may be included first. */
#include "loupe/simd_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOUPE_HAVE_MVE)
/* The nine taps of sixteen channels, the products of the even channels
 * (`top` 0: VMULLB) or of the odd ones (1: VMULLT), taps paired in int16,
 * added into `acc_lo` (channels 0, 4, 8, 12 of the half's eight, widened
 * from the even int16 lanes) and `acc_hi` (the odd lanes). One half at a
 * time keeps the live vectors within MVE's eight registers; the second half
 * loads its inputs again, which costs less than spilling. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_half_x16_mve(const int8_t* in, int32_t row_step,
                                                                 int32_t col_step, const int8_t* w,
                                                                 int32_t channels, int top,
                                                                 int32x4_t* acc_lo,
                                                                 int32x4_t* acc_hi) {
  int32x4_t lo = *acc_lo, hi = *acc_hi;
  int32_t ky;
  /* A loop over the rows, not unrolled: unrolled, the compiler keeps all
   * eighteen tap addresses live and spills them. */
#pragma GCC unroll 1
  for (ky = 0; ky < 3; ++ky) {
    const int8x16_t x0 = vldrbq_s8(in), w0 = vldrbq_s8(w);
    const int8x16_t x1 = vldrbq_s8(in + col_step), w1 = vldrbq_s8(w + channels);
    const int16x8_t pair = top ? vaddq_s16(vmulltq_int_s8(x0, w0), vmulltq_int_s8(x1, w1))
                               : vaddq_s16(vmullbq_int_s8(x0, w0), vmullbq_int_s8(x1, w1));
    const int8x16_t x2 = vldrbq_s8(in + 2 * col_step), w2 = vldrbq_s8(w + 2 * channels);
    const int16x8_t single = top ? vmulltq_int_s8(x2, w2) : vmullbq_int_s8(x2, w2);
    lo = vaddq_s32(lo, vmovlbq_s16(pair));
    hi = vaddq_s32(hi, vmovltq_s16(pair));
    lo = vaddq_s32(lo, vmovlbq_s16(single));
    hi = vaddq_s32(hi, vmovltq_s16(single));
    in += row_step, w += 3 * channels;
  }
  *acc_lo = lo, *acc_hi = hi;
}

/* The same for a window clipped by the input's edge: only the taps of rows
 * [row_begin, row_end) and columns [col_begin, col_end) are read, from `in`
 * (the first of them) on; each other tap multiplies its weights by the
 * input zero point `zp`. With acc_init's offset folded over all nine taps,
 * that adds (zp - zp) * w = 0 for an outside tap, as the reference's
 * skipping of it, so one kernel (and one constant table) serves the
 * window's every clipping. |zp * w| <= 128 * 127, so pairs still fit int16.
 * The column bounds are constants where it is inlined, so a column outside
 * costs no load and no test; the rows' are tested once a row. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_clipped_half_x16_mve(
    const int8_t* in, int32_t row_step, int32_t col_step, const int8_t* w, int32_t channels,
    int32_t row_begin, int32_t row_end, int32_t col_begin, int32_t col_end, int8x16_t zp, int top,
    int32x4_t* acc_lo, int32x4_t* acc_hi) {
  int32x4_t lo = *acc_lo, hi = *acc_hi;
  int32_t ky;
#pragma GCC unroll 1
  for (ky = 0; ky < 3; ++ky) {
    int8x16_t x0 = zp, x1 = zp, x2 = zp;
    if (ky >= row_begin && ky < row_end) {
      if (col_begin <= 0) x0 = vldrbq_s8(in);
      if (col_begin <= 1 && col_end > 1) x1 = vldrbq_s8(in + (1 - col_begin) * col_step);
      if (col_end > 2) x2 = vldrbq_s8(in + (2 - col_begin) * col_step);
      in += row_step;
    }
    {
      const int8x16_t w0 = vldrbq_s8(w), w1 = vldrbq_s8(w + channels),
                      w2 = vldrbq_s8(w + 2 * channels);
      const int16x8_t pair = top ? vaddq_s16(vmulltq_int_s8(x0, w0), vmulltq_int_s8(x1, w1))
                                 : vaddq_s16(vmullbq_int_s8(x0, w0), vmullbq_int_s8(x1, w1));
      const int16x8_t single = top ? vmulltq_int_s8(x2, w2) : vmullbq_int_s8(x2, w2);
      lo = vaddq_s32(lo, vmovlbq_s16(pair));
      hi = vaddq_s32(hi, vmovltq_s16(pair));
      lo = vaddq_s32(lo, vmovlbq_s16(single));
      hi = vaddq_s32(hi, vmovltq_s16(single));
    }
    w += 3 * channels;
  }
  *acc_lo = lo, *acc_hi = hi;
}

/* Four accumulators of channels k, k + 4, k + 8, k + 12 to int8, the
 * requantisation of loupe_requantize_store_x4_mve with gathered constants. */
static inline LOUPE_ALWAYS_INLINE void loupe_requantize_store_x4_strided_mve(
    int32x4_t acc, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out, uint32x4_t lanes) {
  const int32x4_t r = loupe_requantize_x4_mve(
      acc, vldrwq_gather_shifted_offset_s32(multiplier, lanes),
      vldrwq_gather_shifted_offset_s32(shift, lanes), output_offset, act_min, act_max);
  vstrbq_scatter_offset_s32(out, lanes, r);
}
#endif

static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_x16_s8_mve(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  const uint32x4_t lanes = vidupq_n_u32(0, 4);
  int32_t c;
  if (channels % 16 != 0) {
    loupe_dw_3x3_s8_mve(input, row_step, col_step, filter, channels, acc_init, multiplier, shift,
                        output_offset, act_min, act_max, out);
    return;
  }
  for (c = 0; c + 16 <= channels; c += 16) {
    const int8_t* in = input + c;
    const int8_t* w = filter + c;
    /* acc_k holds channels c + k, c + k + 4, c + k + 8, c + k + 12. */
    int32x4_t acc0 = vldrwq_gather_shifted_offset_s32(acc_init + c, lanes);
    int32x4_t acc2 = vldrwq_gather_shifted_offset_s32(acc_init + c + 2, lanes);
    int32x4_t acc1, acc3;
    loupe_dw_3x3_half_x16_mve(in, row_step, col_step, w, channels, 0, &acc0, &acc2);
    loupe_requantize_store_x4_strided_mve(acc0, multiplier + c, shift + c, output_offset, act_min,
                                          act_max, out + c, lanes);
    loupe_requantize_store_x4_strided_mve(acc2, multiplier + c + 2, shift + c + 2, output_offset,
                                          act_min, act_max, out + c + 2, lanes);
    /* Hidden from the optimiser, so that the second half computes its
     * addresses again rather than keeping the first half's in spilled
     * registers. */
    __asm__("" : "+r"(in), "+r"(w));
    acc1 = vldrwq_gather_shifted_offset_s32(acc_init + c + 1, lanes);
    acc3 = vldrwq_gather_shifted_offset_s32(acc_init + c + 3, lanes);
    loupe_dw_3x3_half_x16_mve(in, row_step, col_step, w, channels, 1, &acc1, &acc3);
    loupe_requantize_store_x4_strided_mve(acc1, multiplier + c + 1, shift + c + 1, output_offset,
                                          act_min, act_max, out + c + 1, lanes);
    loupe_requantize_store_x4_strided_mve(acc3, multiplier + c + 3, shift + c + 3, output_offset,
                                          act_min, act_max, out + c + 3, lanes);
  }
#else
  loupe_dw_3x3_s8_mve(input, row_step, col_step, filter, channels, acc_init, multiplier, shift,
                      output_offset, act_min, act_max, out);
#endif
}

#if defined(LOUPE_HAVE_MVE)
/* Every sixteen channels of a clipped window (loupe_dw_3x3_clipped_x16_s8_mve
 * below), its column bounds constants where it is inlined. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_clipped_cols_x16_mve(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    int32_t row_begin, int32_t row_end, int32_t col_begin, int32_t col_end, int8x16_t zp,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  const uint32x4_t lanes = vidupq_n_u32(0, 4);
  int32_t c;
  for (c = 0; c + 16 <= channels; c += 16) {
    const int8_t* in = input + c;
    const int8_t* w = filter + c;
    int32x4_t acc0 = vldrwq_gather_shifted_offset_s32(acc_init + c, lanes);
    int32x4_t acc2 = vldrwq_gather_shifted_offset_s32(acc_init + c + 2, lanes);
    int32x4_t acc1, acc3;
    loupe_dw_3x3_clipped_half_x16_mve(in, row_step, col_step, w, channels, row_begin, row_end,
                                      col_begin, col_end, zp, 0, &acc0, &acc2);
    loupe_requantize_store_x4_strided_mve(acc0, multiplier + c, shift + c, output_offset, act_min,
                                          act_max, out + c, lanes);
    loupe_requantize_store_x4_strided_mve(acc2, multiplier + c + 2, shift + c + 2, output_offset,
                                          act_min, act_max, out + c + 2, lanes);
    /* As in loupe_dw_3x3_x16_s8_mve: addresses computed again, not spilled. */
    __asm__("" : "+r"(in), "+r"(w));
    acc1 = vldrwq_gather_shifted_offset_s32(acc_init + c + 1, lanes);
    acc3 = vldrwq_gather_shifted_offset_s32(acc_init + c + 3, lanes);
    loupe_dw_3x3_clipped_half_x16_mve(in, row_step, col_step, w, channels, row_begin, row_end,
                                      col_begin, col_end, zp, 1, &acc1, &acc3);
    loupe_requantize_store_x4_strided_mve(acc1, multiplier + c + 1, shift + c + 1, output_offset,
                                          act_min, act_max, out + c + 1, lanes);
    loupe_requantize_store_x4_strided_mve(acc3, multiplier + c + 3, shift + c + 3, output_offset,
                                          act_min, act_max, out + c + 3, lanes);
  }
}
#endif

/* A 3x3 window clipped by the input's edge, sixteen channels per vector
 * (see loupe_dw_3x3_clipped_half_x16_mve): `input` is its first tap inside
 * the input, at row row_begin and column col_begin of the window, `filter`
 * the whole 3x3 filter, acc_init the bias with the input offset folded over
 * all nine taps (the inside windows' table), zero_point the input's. The
 * columns are all three, the last two or the first two ((0, 3), (1, 3) or
 * (0, 2): a window one column wide goes through loupe_dw_pixel_s8_mve).
 * Out of line, with one inlined copy per kind of columns: its calls are a
 * small share of the pixels, and a copy inlined at each would cost flash. */
#if defined(__GNUC__)
__attribute__((noinline, unused))
#endif
static void
loupe_dw_3x3_clipped_x16_s8_mve(const int8_t* input, int32_t row_step, int32_t col_step,
                                const int8_t* filter, int32_t channels, int32_t row_begin,
                                int32_t row_end, int32_t col_begin, int32_t col_end,
                                int32_t zero_point, const int32_t* acc_init,
                                const int32_t* multiplier, const int32_t* shift,
                                int32_t output_offset, int32_t act_min, int32_t act_max,
                                int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  const int8x16_t zp = vdupq_n_s8((int8_t)zero_point);
  if (col_begin == 1) {
    loupe_dw_3x3_clipped_cols_x16_mve(input, row_step, col_step, filter, channels, row_begin,
                                      row_end, 1, 3, zp, acc_init, multiplier, shift, output_offset,
                                      act_min, act_max, out);
  } else if (col_end == 2) {
    loupe_dw_3x3_clipped_cols_x16_mve(input, row_step, col_step, filter, channels, row_begin,
                                      row_end, 0, 2, zp, acc_init, multiplier, shift, output_offset,
                                      act_min, act_max, out);
  } else {
    loupe_dw_3x3_clipped_cols_x16_mve(input, row_step, col_step, filter, channels, row_begin,
                                      row_end, 0, 3, zp, acc_init, multiplier, shift, output_offset,
                                      act_min, act_max, out);
  }
  (void)col_begin, (void)col_end;
#else
  /* The portable kernel over the taps inside, from the bias alone: the
   * folded offset less its outside taps' share is what the MVE code adds. */
  int32_t c, ky, kx;
  for (c = 0; c < channels; ++c) {
    int32_t acc = acc_init[c];
    for (ky = 0; ky < 3; ++ky) {
      for (kx = 0; kx < 3; ++kx) {
        const int inside = ky >= row_begin && ky < row_end && kx >= col_begin && kx < col_end;
        const int32_t x = inside
                              ? input[(ky - row_begin) * row_step + (kx - col_begin) * col_step + c]
                              : zero_point;
        acc += x * (int32_t)filter[(ky * 3 + kx) * channels + c];
      }
    }
    out[c] = loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
  }
#endif
}

/* The same inlined where it is called, for the windows clipped on the left
 * or the right only, nearly all the clipped ones of a tall input: each such
 * call site's copy folds its bounds into the loads it makes. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_clipped_inline_x16_s8_mve(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    int32_t row_begin, int32_t row_end, int32_t col_begin, int32_t col_end, int32_t zero_point,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  loupe_dw_3x3_clipped_cols_x16_mve(input, row_step, col_step, filter, channels, row_begin, row_end,
                                    col_begin, col_end, vdupq_n_s8((int8_t)zero_point), acc_init,
                                    multiplier, shift, output_offset, act_min, act_max, out);
#else
  loupe_dw_3x3_clipped_x16_s8_mve(input, row_step, col_step, filter, channels, row_begin, row_end,
                                  col_begin, col_end, zero_point, acc_init, multiplier, shift,
                                  output_offset, act_min, act_max, out);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_MVE_DEPTHWISE_3X3_X16_H_ */
