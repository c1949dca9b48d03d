/*
 * Depthwise convolution kernels for plain Thumb (Cortex-M3: MLA, no
 * SMLAD), called by code lowered for it (compiler_core/ops/
 * depthwise_conv2d_simd.cpp); the arithmetic is loupe_dw_pixel_s8_portable's
 * (loupe/simd_kernels.h, which includes this header).
 *
 * Without packed multiplies a depthwise multiply-accumulate costs a signed
 * byte load of the input, one of the weight and an MLA; extracting bytes
 * from word loads costs as much as the byte loads. What saves instructions is
 * sharing: two horizontally adjacent output pixels read each weight once, and
 * with stride 1 they share two of their four input columns, so 18
 * multiply-accumulates take 12 + 9 loads instead of 18 + 18. The kernels are
 * inlined where they are called, so the generated code's constant steps and
 * channel count become immediate load offsets. The requantisation is
 * loupe_thumb_requantize's (loupe/thumb_conv_kernels.h).
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_THUMB_DEPTHWISE_KERNELS_H_
#define LOUPE_THUMB_DEPTHWISE_KERNELS_H_

#include <stdint.h>

#include "loupe/simd_kernels.h"
#include "loupe/thumb_conv_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One row of `taps_w` taps of one channel whose inputs are offset. The
 * first three are written out: with the generated code's constant window
 * sizes they unroll where GCC 12 would keep loops. */
static inline LOUPE_ALWAYS_INLINE int32_t loupe_dw_row_thumb(int32_t acc, const int8_t* x,
                                                             int32_t col_step, const int8_t* w,
                                                             int32_t channels, int32_t taps_w,
                                                             int32_t input_offset) {
  int32_t kx;
  if (taps_w > 0) acc += ((int32_t)x[0] + input_offset) * (int32_t)w[0];
  if (taps_w > 1) acc += ((int32_t)x[col_step] + input_offset) * (int32_t)w[channels];
  if (taps_w > 2) acc += ((int32_t)x[2 * col_step] + input_offset) * (int32_t)w[2 * channels];
  for (kx = 3; kx < taps_w; ++kx)
    acc += ((int32_t)x[kx * col_step] + input_offset) * (int32_t)w[kx * channels];
  return acc;
}

/* Any window: the generated code has one call site per shape of the
 * windows clipped at the edges, with constant sizes, so inlined the taps
 * unroll and the steps become immediate offsets. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_pixel_s8_thumb(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter,
    int32_t filter_row_step, int32_t taps_h, int32_t taps_w, int32_t channels, int32_t input_offset,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    const int8_t* x = input + c;
    const int8_t* w = filter + c;
    int32_t acc = acc_init[c];
    int32_t ky;
    if (taps_h > 0) acc = loupe_dw_row_thumb(acc, x, col_step, w, channels, taps_w, input_offset);
    if (taps_h > 1)
      acc = loupe_dw_row_thumb(acc, x + row_step, col_step, w + filter_row_step, channels, taps_w,
                               input_offset);
    if (taps_h > 2)
      acc = loupe_dw_row_thumb(acc, x + 2 * row_step, col_step, w + 2 * filter_row_step, channels,
                               taps_w, input_offset);
    for (ky = 3; ky < taps_h; ++ky)
      acc = loupe_dw_row_thumb(acc, x + ky * row_step, col_step, w + ky * filter_row_step, channels,
                               taps_w, input_offset);
    {
      const loupe_thumb_requant q = loupe_thumb_requant_of(multiplier[c], shift[c]);
      out[c] = (int8_t)loupe_thumb_requantize(acc, &q, output_offset, act_min, act_max);
    }
  }
}

/* One row of three taps of one channel (written out: GCC 12 keeps a loop
 * over the rows otherwise). */
static inline LOUPE_ALWAYS_INLINE int32_t loupe_dw_row3_thumb(int32_t acc, const int8_t* x,
                                                              int32_t col_step, const int8_t* w,
                                                              int32_t channels) {
  acc += (int32_t)x[0] * (int32_t)w[0];
  acc += (int32_t)x[col_step] * (int32_t)w[channels];
  return acc + (int32_t)x[2 * col_step] * (int32_t)w[2 * channels];
}

/* The same for two windows `pixel_step` bytes apart, each weight loaded
 * once. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_row3_x2_thumb(int32_t* acc0, int32_t* acc1,
                                                              const int8_t* x, int32_t col_step,
                                                              int32_t pixel_step, const int8_t* w,
                                                              int32_t channels) {
  const int32_t w0 = w[0], w1 = w[channels], w2 = w[2 * channels];
  int32_t a0 = *acc0, a1 = *acc1;
  /* One MLA per tap, straight into the accumulators. */
  a0 += (int32_t)x[0] * w0;
  a1 += (int32_t)x[pixel_step] * w0;
  a0 += (int32_t)x[col_step] * w1;
  a1 += (int32_t)x[pixel_step + col_step] * w1;
  a0 += (int32_t)x[2 * col_step] * w2;
  a1 += (int32_t)x[pixel_step + 2 * col_step] * w2;
  *acc0 = a0, *acc1 = a1;
}

/* One pixel of a 3x3 window inside the input (the input offset folded
 * into acc_init), every channel, the nine taps unrolled. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_s8_thumb(
    const int8_t* input, int32_t row_step, int32_t col_step, const int8_t* filter, int32_t channels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    const int8_t* x = input + c;
    const int8_t* w = filter + c;
    int32_t acc = acc_init[c];
    acc = loupe_dw_row3_thumb(acc, x, col_step, w, channels);
    acc = loupe_dw_row3_thumb(acc, x + row_step, col_step, w + 3 * channels, channels);
    acc = loupe_dw_row3_thumb(acc, x + 2 * row_step, col_step, w + 6 * channels, channels);
    {
      const loupe_thumb_requant q = loupe_thumb_requant_of(multiplier[c], shift[c]);
      out[c] = (int8_t)loupe_thumb_requantize(acc, &q, output_offset, act_min, act_max);
    }
  }
}

/* Two horizontally adjacent pixels of 3x3 windows inside the input, the
 * second's window `pixel_step` bytes after the first's (stride * col_step)
 * and its outputs `channels` bytes after the first's. Each weight is
 * loaded once for both; with pixel_step == col_step the compiler loads
 * each of the four input columns once. */
static inline LOUPE_ALWAYS_INLINE void loupe_dw_3x3_x2_s8_thumb(
    const int8_t* input, int32_t row_step, int32_t col_step, int32_t pixel_step,
    const int8_t* filter, int32_t channels, const int32_t* acc_init, const int32_t* multiplier,
    const int32_t* shift, int32_t output_offset, int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    const int8_t* x = input + c;
    const int8_t* w = filter + c;
    int32_t acc0 = acc_init[c];
    int32_t acc1 = acc0;
    loupe_dw_row3_x2_thumb(&acc0, &acc1, x, col_step, pixel_step, w, channels);
    loupe_dw_row3_x2_thumb(&acc0, &acc1, x + row_step, col_step, pixel_step, w + 3 * channels,
                           channels);
    loupe_dw_row3_x2_thumb(&acc0, &acc1, x + 2 * row_step, col_step, pixel_step, w + 6 * channels,
                           channels);
    {
      /* Read once for both: a store through `out` (int8) could alias them. */
      const loupe_thumb_requant q = loupe_thumb_requant_of(multiplier[c], shift[c]);
      out[c] = (int8_t)loupe_thumb_requantize(acc0, &q, output_offset, act_min, act_max);
      out[channels + c] = (int8_t)loupe_thumb_requantize(acc1, &q, output_offset, act_min, act_max);
    }
  }
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_THUMB_DEPTHWISE_KERNELS_H_ */
