/*
 * The depthwise kernels of the DSP extension (Cortex-M4, M7, M33): the
 * same pixel as loupe_dw_pixel_s8_portable and loupe_dw_3x3_s8_mve (see
 * loupe/simd_kernels.h, which includes this file after its helpers), four
 * channels at a time. Depthwise taps pair a channel's input with the same
 * channel's weight, so SMLAD (which adds the products of two lanes) has no
 * pair to sum; instead each tap is one input word and one filter word (four
 * channels each, the filter in TFLite's layout), each split by two SXTB16
 * into the int16 lanes of channels (c, c+2) and (c+1, c+3), and one
 * SMLABB or SMLATT per channel. A window that reaches outside the input
 * adds the input offset while splitting (SXTAB16: the int16 lanes hold
 * x + offset, at most 255 in magnitude). Without the DSP extension they
 * are the portable kernel. C99, header-only, no allocation.
 */
#ifndef LOUPE_DSP_DEPTHWISE_KERNELS_H_
#define LOUPE_DSP_DEPTHWISE_KERNELS_H_

#include <stdint.h>

/* Its helpers. */
#include "loupe/simd_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOUPE_HAVE_DSP)
/* Bytes 1 and 3 of `v` sign-extended and added to the int16 lanes of `a`
 * (SXTAB16 with its rotation, as loupe_sxtb16_ror8). */
static inline int16x2_t loupe_sxtab16_ror8(int16x2_t a, uint32_t v) {
  int16x2_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(v));
  return r;
}

/* Four channels' accumulators, (c, c+1, c+2, c+3). */
typedef struct {
  int32_t c0, c1, c2, c3;
} loupe_dw_acc_x4;

/* One tap of four channels: input lanes already split (x02, x13), the
 * filter word split here. */
static inline LOUPE_ALWAYS_INLINE loupe_dw_acc_x4 loupe_dw_tap_x4_dsp(loupe_dw_acc_x4 acc,
                                                                      int16x2_t x02, int16x2_t x13,
                                                                      uint32_t filter_word) {
  const int16x2_t w02 = __sxtb16(filter_word);
  const int16x2_t w13 = loupe_sxtb16_ror8(filter_word);
  acc.c0 = __smlabb(x02, w02, acc.c0);
  acc.c2 = __smlatt(x02, w02, acc.c2);
  acc.c1 = __smlabb(x13, w13, acc.c1);
  acc.c3 = __smlatt(x13, w13, acc.c3);
  return acc;
}

/* One row of three taps inside the input, four channels (the rows are
 * written out rather than looped over: the loop cost a tenth of the
 * window). */
static inline LOUPE_ALWAYS_INLINE loupe_dw_acc_x4 loupe_dw_row3_x4_dsp(
    loupe_dw_acc_x4 acc, const int8_t* in, int32_t col_step, const int8_t* w, int32_t channels) {
  uint32_t word = loupe_load_u32(in);
  acc = loupe_dw_tap_x4_dsp(acc, __sxtb16(word), loupe_sxtb16_ror8(word), loupe_load_u32(w));
  word = loupe_load_u32(in + col_step);
  acc = loupe_dw_tap_x4_dsp(acc, __sxtb16(word), loupe_sxtb16_ror8(word),
                            loupe_load_u32(w + channels));
  word = loupe_load_u32(in + 2 * col_step);
  return loupe_dw_tap_x4_dsp(acc, __sxtb16(word), loupe_sxtb16_ror8(word),
                             loupe_load_u32(w + 2 * channels));
}
#endif

/* Channel c alone (the last channels % 4), in portable C. */
static inline int8_t loupe_dw_channel_s8(const int8_t* input, int32_t row_step, int32_t col_step,
                                         const int8_t* filter, int32_t filter_row_step,
                                         int32_t taps_h, int32_t taps_w, int32_t channels,
                                         int32_t input_offset, int32_t c, const int32_t* acc_init,
                                         const int32_t* multiplier, const int32_t* shift,
                                         int32_t output_offset, int32_t act_min, int32_t act_max) {
  int32_t acc = acc_init[c];
  int32_t ky, kx;
  for (ky = 0; ky < taps_h; ++ky) {
    for (kx = 0; kx < taps_w; ++kx) {
      const int32_t x = input[ky * row_step + kx * col_step + c];
      acc += (x + input_offset) * (int32_t)filter[ky * filter_row_step + kx * channels + c];
    }
  }
  return loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
}

/* Any window (the taps inside the input, input_offset added to each):
 * the parameters of loupe_dw_pixel_s8_portable. */
static inline void loupe_dw_pixel_s8_dsp(const int8_t* input, int32_t row_step, int32_t col_step,
                                         const int8_t* filter, int32_t filter_row_step,
                                         int32_t taps_h, int32_t taps_w, int32_t channels,
                                         int32_t input_offset, const int32_t* acc_init,
                                         const int32_t* multiplier, const int32_t* shift,
                                         int32_t output_offset, int32_t act_min, int32_t act_max,
                                         int8_t* out) {
#if defined(LOUPE_HAVE_DSP)
  /* The offset in both int16 lanes. */
  const int16x2_t offset2 =
      (int16x2_t)(((uint32_t)input_offset & 0xFFFFu) | ((uint32_t)input_offset << 16));
  const int32_t grouped = channels & ~3;
  int32_t c;
  for (c = 0; c < grouped; c += 4) {
    loupe_dw_acc_x4 acc;
    int32_t ky, kx;
    acc.c0 = acc_init[c], acc.c1 = acc_init[c + 1], acc.c2 = acc_init[c + 2],
    acc.c3 = acc_init[c + 3];
    for (ky = 0; ky < taps_h; ++ky) {
      const int8_t* in = input + ky * row_step + c;
      const int8_t* w = filter + ky * filter_row_step + c;
      for (kx = 0; kx < taps_w; ++kx) {
        const uint32_t word = loupe_load_u32(in);
        acc = loupe_dw_tap_x4_dsp(acc, __sxtab16(offset2, word), loupe_sxtab16_ror8(offset2, word),
                                  loupe_load_u32(w));
        in += col_step, w += channels;
      }
    }
    loupe_requantize_store_x4_dsp(acc.c0, acc.c1, acc.c2, acc.c3, c, multiplier, shift,
                                  output_offset, act_min, act_max, out);
  }
  for (; c < channels; ++c) {
    out[c] = loupe_dw_channel_s8(input, row_step, col_step, filter, filter_row_step, taps_h, taps_w,
                                 channels, input_offset, c, acc_init, multiplier, shift,
                                 output_offset, act_min, act_max);
  }
#else
  loupe_dw_pixel_s8_portable(input, row_step, col_step, filter, filter_row_step, taps_h, taps_w,
                             channels, input_offset, acc_init, multiplier, shift, output_offset,
                             act_min, act_max, out);
#endif
}

/* A 3x3 window inside the input (the offset folded into acc_init): the
 * nine taps unrolled and the kernel inlined where it is called, as
 * loupe_dw_3x3_s8_mve. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_s8_dsp(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_DSP)
  const int32_t grouped = channels & ~3;
  int32_t c;
  for (c = 0; c < grouped; c += 4) {
    const int8_t* in = input + c;
    const int8_t* w = filter + c;
    loupe_dw_acc_x4 acc;
    acc.c0 = acc_init[c], acc.c1 = acc_init[c + 1], acc.c2 = acc_init[c + 2],
    acc.c3 = acc_init[c + 3];
    acc = loupe_dw_row3_x4_dsp(acc, in, col_step, w, channels);
    acc = loupe_dw_row3_x4_dsp(acc, in + row_step, col_step, w + 3 * channels, channels);
    acc = loupe_dw_row3_x4_dsp(acc, in + 2 * row_step, col_step, w + 6 * channels, channels);
    loupe_requantize_store_x4_dsp(acc.c0, acc.c1, acc.c2, acc.c3, c, multiplier, shift,
                                  output_offset, act_min, act_max, out);
  }
  for (; c < channels; ++c) {
    out[c] = loupe_dw_channel_s8(input, row_step, col_step, filter, 3 * channels, 3, 3, channels, 0,
                                 c, acc_init, multiplier, shift, output_offset, act_min, act_max);
  }
#else
  loupe_dw_pixel_s8_portable(input, row_step, col_step, filter, 3 * channels, 3, 3, channels, 0,
                             acc_init, multiplier, shift, output_offset, act_min, act_max, out);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_DSP_DEPTHWISE_KERNELS_H_ */
