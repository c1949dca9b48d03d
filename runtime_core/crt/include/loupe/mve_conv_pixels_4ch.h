/*
 * Several output pixels of an int8 convolution at once, as
 * loupe_conv_pixels_s8_mve (loupe/mve_conv_pixels.h) and with its arguments,
 * for a channel count that is a multiple of four and the filter re-laid out
 * at compile time (mveFourChannelFilterLayout in lowering/simd_conv_kernel.cpp):
 * each group of four channels as ceil(length / 16) blocks of 64 bytes, the
 * four channels' next sixteen taps one after the other, the last block's
 * taps past `length` zero.
 *
 * MVE: two pixels by four channels at a time, so each sixteen-byte input
 * load is shared by four VMLADAVAs and each weight load by two, one pointer
 * walks the four channels' weights with immediate offsets, and the eight sums
 * form two vectors of four channels each, requantised with the channels'
 * constants loaded as vectors (no gather, no scatter). The odd last pixel is
 * computed as a pair with itself and stored once. The same bytes as
 * loupe_conv_pixel_s8. Inlined where it is called. C99, header-only, no
 * allocation.
 */
#ifndef LOUPE_MVE_CONV_PIXELS_4CH_H_
#define LOUPE_MVE_CONV_PIXELS_4CH_H_

#include <stdint.h>

#include "loupe/simd_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOUPE_HAVE_MVE)
/* Four int32 sums as one vector. */
static inline LOUPE_ALWAYS_INLINE int32x4_t loupe_sums_x4_mve(int32_t s0, int32_t s1, int32_t s2,
                                                              int32_t s3) {
  int32x4_t v = vdupq_n_s32(s0);
  v = vsetq_lane_s32(s1, v, 1);
  v = vsetq_lane_s32(s2, v, 2);
  return vsetq_lane_s32(s3, v, 3);
}
#endif

static inline LOUPE_ALWAYS_INLINE void loupe_conv_pixels_4ch_s8_mve(
    const int8_t* patches, const int8_t* filter, int32_t length, int32_t channels, int32_t pixels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
#if defined(LOUPE_HAVE_MVE)
  int32_t p;
  for (p = 0; p < pixels; p += 2) {
    const int8_t* x0 = patches + p * length;
    /* The odd last pixel pairs with itself. */
    const int8_t* x1 = p + 1 < pixels ? x0 + length : x0;
    const int8_t* w = filter;
    int8_t* o = out + p * channels;
    int32_t c;
    for (c = 0; c < channels; c += 4) {
      int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
      const int8_t* xa = x0;
      const int8_t* xb = x1;
      int32_t blocks = length >> 4;
      /* Hidden from the optimiser, so that it reloads the patches for each
       * group of channels instead of keeping their vectors in spilled
       * registers. */
      __asm__("" : "+r"(xa), "+r"(xb));
      if (blocks > 0) {
        /* The first block starts the sums (VMLADAV), which saves zeroing
         * eight registers per group. */
        const int8x16_t va = vldrbq_s8(xa), vb = vldrbq_s8(xb);
        int8x16_t wv = vldrbq_s8(w);
        a0 = vmladavq_s8(va, wv), b0 = vmladavq_s8(vb, wv);
        wv = vldrbq_s8(w + 16);
        a1 = vmladavq_s8(va, wv), b1 = vmladavq_s8(vb, wv);
        wv = vldrbq_s8(w + 32);
        a2 = vmladavq_s8(va, wv), b2 = vmladavq_s8(vb, wv);
        wv = vldrbq_s8(w + 48);
        a3 = vmladavq_s8(va, wv), b3 = vmladavq_s8(vb, wv);
        xa += 16, xb += 16, w += 64, --blocks;
      }
#pragma GCC unroll 1
      while (blocks-- > 0) {
        const int8x16_t va = vldrbq_s8(xa), vb = vldrbq_s8(xb);
        int8x16_t wv = vldrbq_s8(w);
        a0 = vmladavaq_s8(a0, va, wv), b0 = vmladavaq_s8(b0, vb, wv);
        wv = vldrbq_s8(w + 16);
        a1 = vmladavaq_s8(a1, va, wv), b1 = vmladavaq_s8(b1, vb, wv);
        wv = vldrbq_s8(w + 32);
        a2 = vmladavaq_s8(a2, va, wv), b2 = vmladavaq_s8(b2, vb, wv);
        wv = vldrbq_s8(w + 48);
        a3 = vmladavaq_s8(a3, va, wv), b3 = vmladavaq_s8(b3, vb, wv);
        xa += 16, xb += 16, w += 64;
      }
      if ((length & 15) != 0) {
        /* The inputs past the patch are not read; their weights are zero. */
        const mve_pred16_t pr = vctp8q((uint32_t)(length & 15));
        const int8x16_t va = vldrbq_z_s8(xa, pr), vb = vldrbq_z_s8(xb, pr);
        int8x16_t wv = vldrbq_s8(w);
        a0 = vmladavaq_s8(a0, va, wv), b0 = vmladavaq_s8(b0, vb, wv);
        wv = vldrbq_s8(w + 16);
        a1 = vmladavaq_s8(a1, va, wv), b1 = vmladavaq_s8(b1, vb, wv);
        wv = vldrbq_s8(w + 32);
        a2 = vmladavaq_s8(a2, va, wv), b2 = vmladavaq_s8(b2, vb, wv);
        wv = vldrbq_s8(w + 48);
        a3 = vmladavaq_s8(a3, va, wv), b3 = vmladavaq_s8(b3, vb, wv);
        w += 64;
      }
      {
        const int32x4_t init = vldrwq_s32(acc_init + c);
        const int32x4_t mult = vldrwq_s32(multiplier + c), sh = vldrwq_s32(shift + c);
        vstrbq_s32(o + c,
                   loupe_requantize_x4_mve(vaddq_s32(loupe_sums_x4_mve(a0, a1, a2, a3), init), mult,
                                           sh, output_offset, act_min, act_max));
        if (x1 != x0) {
          vstrbq_s32(o + channels + c,
                     loupe_requantize_x4_mve(vaddq_s32(loupe_sums_x4_mve(b0, b1, b2, b3), init),
                                             mult, sh, output_offset, act_min, act_max));
        }
      }
    }
  }
#else
  /* The portable kernel, its filter read in the layout above. */
  const int32_t blocks = (length + 15) >> 4;
  int32_t p, c, i;
  for (p = 0; p < pixels; ++p) {
    const int8_t* x = patches + p * length;
    for (c = 0; c < channels; ++c) {
      const int8_t* w = filter + (c / 4) * blocks * 64 + (c % 4) * 16;
      int32_t acc = acc_init[c];
      for (i = 0; i < length; ++i) acc += (int32_t)x[i] * (int32_t)w[(i >> 4) * 64 + (i & 15)];
      out[p * channels + c] =
          loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
    }
  }
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_MVE_CONV_PIXELS_4CH_H_ */
