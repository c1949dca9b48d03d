/*
 * Several output pixels of an int8 convolution at once, every output
 * channel of each: `pixels` patches of `length` bytes one after the other
 * from `patches` (a 1x1 convolution's input read in place, or windows
 * gathered into a buffer) against the filter's rows, the outputs of pixel p
 * at out[p * channels ..]. The arithmetic is loupe_conv_pixel_s8's (see
 * loupe/simd_kernels.h, which includes this file), the same bytes.
 *
 * MVE: four pixels by one channel at a time, so each 16-byte weight load is
 * shared by four VMLADAVAs and the four sums form one vector of the same
 * channel, requantised with that channel's multiplier and shift as scalars
 * and scattered to the four pixels' outputs with one store. The pixels
 * after the last group of four go through the one-pixel kernel. Inlined
 * where it is called, so a constant length unrolls into immediate offsets.
 * C99, header-only, no allocation.
 */
#ifndef LOUPE_MVE_CONV_PIXELS_H_
#define LOUPE_MVE_CONV_PIXELS_H_

#include <stdint.h>

/* Its helpers and the one-pixel kernels; that header includes this one at
 * its end, so either may be included first. */
#include "loupe/simd_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOUPE_HAVE_MVE)
/* The dot products of four patches with one filter row; the last partial
 * block of 16 taps is predicated once, outside the loop. */
static inline LOUPE_ALWAYS_INLINE int32x4_t loupe_conv_dot_x4_mve(const int8_t* x0,
                                                                  const int8_t* x1,
                                                                  const int8_t* x2,
                                                                  const int8_t* x3, const int8_t* w,
                                                                  int32_t length) {
  int32_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
  int32_t blocks = length >> 4;
  /* Not unrolled: four patch pointers and the row's, each post-incremented,
   * fit in registers, where unrolled offsets past the loads' immediate
   * range would not. */
#pragma GCC unroll 1
  while (blocks-- > 0) {
    const int8x16_t wv = vldrbq_s8(w);
    sum0 = vmladavaq_s8(sum0, vldrbq_s8(x0), wv);
    sum1 = vmladavaq_s8(sum1, vldrbq_s8(x1), wv);
    sum2 = vmladavaq_s8(sum2, vldrbq_s8(x2), wv);
    sum3 = vmladavaq_s8(sum3, vldrbq_s8(x3), wv);
    w += 16, x0 += 16, x1 += 16, x2 += 16, x3 += 16;
  }
  if ((length & 15) != 0) {
    const mve_pred16_t p = vctp8q((uint32_t)(length & 15));
    const int8x16_t wv = vldrbq_z_s8(w, p);
    sum0 = vmladavaq_p_s8(sum0, vldrbq_z_s8(x0, p), wv, p);
    sum1 = vmladavaq_p_s8(sum1, vldrbq_z_s8(x1, p), wv, p);
    sum2 = vmladavaq_p_s8(sum2, vldrbq_z_s8(x2, p), wv, p);
    sum3 = vmladavaq_p_s8(sum3, vldrbq_z_s8(x3, p), wv, p);
  }
  {
    int32x4_t sums = vdupq_n_s32(sum0);
    sums = vsetq_lane_s32(sum1, sums, 1);
    sums = vsetq_lane_s32(sum2, sums, 2);
    return vsetq_lane_s32(sum3, sums, 3);
  }
}

/* Four accumulators of one channel to int8, the requantisation of
 * loupe_requantize_store_x4_mve with the channel's multiplier and shift as
 * scalars, stored at out + offsets[lane]. */
static inline LOUPE_ALWAYS_INLINE void loupe_requantize_scatter_x4_mve(
    int32x4_t acc, int32_t multiplier, int32_t shift, int32_t output_offset, int32_t act_min,
    int32_t act_max, int8_t* out, uint32x4_t offsets) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t neg_right = shift > 0 ? 0 : shift;
  const int32x4_t high = vqrdmulhq_n_s32(vshlq_r_s32(acc, left), multiplier);
  const int32x4_t fixup = vshrq_n_s32(vandq_s32(high, vdupq_n_s32(neg_right)), 31);
  int32x4_t r = vrshlq_n_s32(vqaddq_s32(high, fixup), neg_right);
  r = vaddq_n_s32(r, output_offset);
  r = vmaxq_s32(r, vdupq_n_s32(act_min));
  r = vminq_s32(r, vdupq_n_s32(act_max));
  vstrbq_scatter_offset_s32(out, offsets, r);
}
#endif

static inline LOUPE_ALWAYS_INLINE void loupe_conv_pixels_s8_mve(
    const int8_t* patches, const int8_t* filter, int32_t length, int32_t channels, int32_t pixels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  int32_t p = 0;
#if defined(LOUPE_HAVE_MVE)
  const uint32x4_t offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)channels);
  /* The bound of the groups computed first, so that the compiler knows the
   * one-pixel loop's count when `pixels` is a constant. */
  const int32_t grouped = pixels / 4 * 4;
  for (; p < grouped; p += 4) {
    const int8_t* x0 = patches + p * length;
    const int8_t* w = filter;
    int8_t* o = out + p * channels;
    int32_t c;
    for (c = 0; c < channels; ++c) {
      /* Hidden from the optimiser, so that it reloads the patches for each
       * channel instead of hoisting all their vectors out of the loop and
       * spilling them to the stack. */
      __asm__("" : "+r"(x0));
      const int32x4_t acc = vaddq_n_s32(
          loupe_conv_dot_x4_mve(x0, x0 + length, x0 + 2 * length, x0 + 3 * length, w, length),
          acc_init[c]);
      loupe_requantize_scatter_x4_mve(acc, multiplier[c], shift[c], output_offset, act_min, act_max,
                                      o + c, offsets);
      w += length;
    }
  }
  for (p = grouped; p < pixels; ++p) {
    loupe_conv_pixel_s8_mve(patches + p * length, filter, length, channels, acc_init, multiplier,
                            shift, output_offset, act_min, act_max, out + p * channels);
  }
#else
  for (; p < pixels; ++p) {
    loupe_conv_pixel_s8_portable(patches + p * length, filter, length, channels, acc_init,
                                 multiplier, shift, output_offset, act_min, act_max,
                                 out + p * channels);
  }
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_MVE_CONV_PIXELS_H_ */
