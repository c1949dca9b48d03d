/*
 * The convolution kernel of code lowered for plain Thumb (Cortex-M3:
 * SMLAL, no SMLAD): one output pixel, every output channel, the arithmetic of
 * loupe_conv_pixel_s8_portable (loupe/simd_kernels.h, which includes this
 * header).
 *
 * Two multiply-accumulates per SMLAL: one register holds two channels'
 * weights 24 bits apart, w_lo + w_hi * 2^24, and SMLAL adds x times it to a
 * 64-bit sum, which is then sum(x * w_lo) + sum(x * w_hi) * 2^24; while the
 * low sum stays within 24 signed bits (at most 256 taps at a time, see
 * below) the two are recovered exactly. The pairs come out of one word of
 * four channels' weights with a mask each (the second through a rotation
 * the AND applies for free), so four multiply-accumulates take a word load,
 * two ANDs and two SMLALs, and the patch value is loaded once for them.
 *
 * Filter layout (lowering/thumb_conv_layout.cpp): each group of four
 * channels c0..c3 (all but the last channels % 4) keeps its 4 * length
 * bytes where its rows would be, one word per tap: c0's weight + 128,
 * c1's weight, c2's weight + 128, c3's weight (bytes 0..3). The mask
 * 0xFF0000FF takes bytes 0 and 3, and after a rotation by 16 bytes 2 and
 * 1: an unsigned low lane (so nothing borrows from the high one) and a
 * signed high lane. The +128 adds 128 * sum(x) to channels c0 and c2, which
 * the kernel subtracts once per pixel. The channels after the last group keep
 * plain rows.
 * C99, header-only, no allocation; usable from C++.
 */
#ifndef LOUPE_THUMB_CONV_KERNELS_H_
#define LOUPE_THUMB_CONV_KERNELS_H_

#include <stdint.h>

#include "loupe/simd_kernels.h"

#if defined(__ARM_FEATURE_SAT)
#include <arm_acle.h>
#define LOUPE_THUMB_HAVE_SSAT 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* TFLite's requantisation (loupe_requantize_channel) of one channel in
 * fewer instructions: with a right shift r >= 1 (shift < 0, nothing
 * shifted left) the two roundings, of the doubling high multiply and of the
 * rounding right shift, fold into one 64-bit sum. With
 * P = acc * multiplier and neg = acc < 0 the result is
 *   floor((P + 2^30 + 2^(30 + r) - neg * 2^31) / 2^(31 + r))
 * (the right shift rounds ties away from zero: one less for negatives;
 * when P is in [-2^30, 0) both give 0). SMLAL adds P to the constant's
 * low part, and the high word H of the sum then gives
 * (H + 2^(r - 2)) >> (r - 1) for r >= 2, or H itself for r = 1 (the 2^31
 * then goes into the low part too). `loupe_thumb_requant` holds a channel's
 * constants, computed once per channel. */
typedef struct {
  int32_t multiplier;
  int32_t left;       /* left shift, when there is no right shift */
  uint32_t low;       /* the low word of the rounding constant for acc >= 0 */
  uint32_t high_mask; /* whether neg reaches the high word */
  int32_t round;      /* 2^(r - 2), or 0 */
  int32_t right;      /* r - 1 */
} loupe_thumb_requant;

static inline LOUPE_ALWAYS_INLINE loupe_thumb_requant loupe_thumb_requant_of(int32_t multiplier,
                                                                             int32_t shift) {
  loupe_thumb_requant q;
  const int32_t r = shift > 0 ? 0 : -shift;
  q.multiplier = multiplier;
  q.left = shift > 0 ? shift : 0;
  q.low = r == 1 ? 0xC0000000u : 0x40000000u;
  q.high_mask = r == 1 ? 0u : 0xFFFFFFFFu;
  q.round = (int32_t)((1u << r) >> 2);
  q.right = r - 1;
  return q;
}

static inline LOUPE_ALWAYS_INLINE int32_t loupe_thumb_requantize(int32_t acc,
                                                                 const loupe_thumb_requant* q,
                                                                 int32_t output_offset,
                                                                 int32_t act_min, int32_t act_max) {
  int32_t v;
  if (q->right < 0) {
    /* No right shift: the doubling high multiply alone. */
    const int32_t shifted = (int32_t)((uint32_t)acc << q->left);
    v = (int32_t)(((int64_t)shifted * q->multiplier + ((int64_t)1 << 30)) >> 31);
  } else {
    const uint32_t low = q->low ^ ((uint32_t)acc & 0x80000000u);
    const uint32_t high = (uint32_t)(acc >> 31) & q->high_mask;
    const int64_t sum =
        (int64_t)(((uint64_t)high << 32) | low) + (int64_t)acc * (int64_t)q->multiplier;
    v = ((int32_t)(sum >> 32) + q->round) >> q->right;
  }
  v += output_offset;
#if defined(LOUPE_THUMB_HAVE_SSAT)
  /* No activation (or a ReLU at the lowest int8): one SSAT. The kernels
   * pass constants here, so the test costs nothing. */
  if (act_min == -128 && act_max == 127) return __ssat(v, 8);
#endif
  v = v < act_min ? act_min : v;
  return v > act_max ? act_max : v;
}

/* Four channels' accumulators c .. c+3 into out[c .. c+3]. */
static inline LOUPE_ALWAYS_INLINE void loupe_thumb_requantize_store_x4(
    const uint32_t* acc, int32_t c, const int32_t* multiplier, const int32_t* shift,
    int32_t output_offset, int32_t act_min, int32_t act_max, int8_t* out) {
  const int32_t acc0 = (int32_t)acc[0], acc1 = (int32_t)acc[1], acc2 = (int32_t)acc[2],
                acc3 = (int32_t)acc[3];
  loupe_thumb_requant q = loupe_thumb_requant_of(multiplier[c], shift[c]);
  out[c] = (int8_t)loupe_thumb_requantize(acc0, &q, output_offset, act_min, act_max);
  q = loupe_thumb_requant_of(multiplier[c + 1], shift[c + 1]);
  out[c + 1] = (int8_t)loupe_thumb_requantize(acc1, &q, output_offset, act_min, act_max);
  q = loupe_thumb_requant_of(multiplier[c + 2], shift[c + 2]);
  out[c + 2] = (int8_t)loupe_thumb_requantize(acc2, &q, output_offset, act_min, act_max);
  q = loupe_thumb_requant_of(multiplier[c + 3], shift[c + 3]);
  out[c + 3] = (int8_t)loupe_thumb_requantize(acc3, &q, output_offset, act_min, act_max);
}

/* Taps summed in one 64-bit pair before it is split: the low lane's sum of
 * x * (w + 128) is within [-128 * 255 * n, 127 * 255 * n], 24 signed bits
 * for n <= 257. */
#define LOUPE_THUMB_PAIR_TAPS 256

/* Patches shorter than this have their tap loop inlined. */
#define LOUPE_THUMB_INLINE_TAPS 128

static inline uint32_t loupe_thumb_load_word(const int8_t* p) {
  uint32_t v;
  /* The builtin, not memcpy: firmware is built -ffreestanding. */
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

/* Adds the two lanes of a 64-bit pair sum to their channels' accumulators
 * (as unsigned: the partial sums may wrap, the final ones do not). */
static inline void loupe_thumb_split_pair(int64_t sum, uint32_t* low, uint32_t* high) {
  const uint32_t bits = (uint32_t)sum;
  /* The low lane, sign-extended from 24 bits. */
  const int32_t lane = (int32_t)(bits << 8) >> 8;
  *low += (uint32_t)lane;
  *high += (uint32_t)(int32_t)((sum - lane) >> 24);
}

/* A function of the header kept out of line (unused where nothing calls it). */
#if defined(__GNUC__)
#define LOUPE_THUMB_OUT_OF_LINE static __attribute__((noinline, unused))
#else
#define LOUPE_THUMB_OUT_OF_LINE static inline
#endif

/* sum(x * (pair word lanes)) over `taps` taps of one group, the two pair
 * sums added to the four accumulators. Inlined for short patches, where the
 * call would cost more than the loop's register moves; out of line for long
 * ones (inlined into the kernel's two copies, GCC 12 adds six MOVs per four
 * taps to one of them). */
static inline LOUPE_ALWAYS_INLINE void loupe_thumb_group_taps_inline(const int8_t* x,
                                                                     const int8_t* w, int32_t taps,
                                                                     uint32_t* acc) {
  const uint32_t mask = 0xFF0000FFu;
  int64_t s03 = 0, s21 = 0;
  int32_t quads = taps >> 2, i;
  while (quads-- > 0) {
    const int32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    const uint32_t w0 = loupe_thumb_load_word(w), w1 = loupe_thumb_load_word(w + 4);
    const uint32_t w2 = loupe_thumb_load_word(w + 8), w3 = loupe_thumb_load_word(w + 12);
    s03 += (int64_t)x0 * (int32_t)(w0 & mask);
    s21 += (int64_t)x0 * (int32_t)(((w0 >> 16) | (w0 << 16)) & mask);
    s03 += (int64_t)x1 * (int32_t)(w1 & mask);
    s21 += (int64_t)x1 * (int32_t)(((w1 >> 16) | (w1 << 16)) & mask);
    s03 += (int64_t)x2 * (int32_t)(w2 & mask);
    s21 += (int64_t)x2 * (int32_t)(((w2 >> 16) | (w2 << 16)) & mask);
    s03 += (int64_t)x3 * (int32_t)(w3 & mask);
    s21 += (int64_t)x3 * (int32_t)(((w3 >> 16) | (w3 << 16)) & mask);
    x += 4, w += 16;
  }
  for (i = 0; i < (taps & 3); ++i) {
    const int32_t xi = x[i];
    const uint32_t wi = loupe_thumb_load_word(w + 4 * i);
    s03 += (int64_t)xi * (int32_t)(wi & mask);
    s21 += (int64_t)xi * (int32_t)(((wi >> 16) | (wi << 16)) & mask);
  }
  loupe_thumb_split_pair(s03, &acc[0], &acc[3]);
  loupe_thumb_split_pair(s21, &acc[2], &acc[1]);
}

LOUPE_THUMB_OUT_OF_LINE void loupe_thumb_group_taps(const int8_t* x, const int8_t* w, int32_t taps,
                                                    uint32_t* acc) {
  loupe_thumb_group_taps_inline(x, w, taps, acc);
}

static inline LOUPE_ALWAYS_INLINE void loupe_conv_pixel_s8_thumb_smlal_body(
    const int8_t* patch, const int8_t* filter, int32_t length, int32_t channels,
    const int32_t* acc_init, const int32_t* multiplier, const int32_t* shift, int32_t output_offset,
    int32_t act_min, int32_t act_max, int8_t* out) {
  const int32_t grouped = channels & ~3;
  const int8_t* w = filter;
  uint32_t offset_sum = 0;
  int32_t c, i;
  for (i = 0; i < length; ++i) offset_sum += (uint32_t)(int32_t)patch[i];
  offset_sum <<= 7;
  for (c = 0; c < grouped; c += 4) {
    uint32_t acc[4];
    int32_t done;
    acc[0] = (uint32_t)acc_init[c] - offset_sum;
    acc[1] = (uint32_t)acc_init[c + 1];
    acc[2] = (uint32_t)acc_init[c + 2] - offset_sum;
    acc[3] = (uint32_t)acc_init[c + 3];
    for (done = 0; done < length; done += LOUPE_THUMB_PAIR_TAPS) {
      const int32_t taps =
          length - done < LOUPE_THUMB_PAIR_TAPS ? length - done : LOUPE_THUMB_PAIR_TAPS;
      if (length < LOUPE_THUMB_INLINE_TAPS)
        loupe_thumb_group_taps_inline(patch + done, w + 4 * done, taps, acc);
      else
        loupe_thumb_group_taps(patch + done, w + 4 * done, taps, acc);
    }
    w += 4 * length;
    loupe_thumb_requantize_store_x4(acc, c, multiplier, shift, output_offset, act_min, act_max,
                                    out);
  }
  /* w is where the plain rows start. */
  for (c = grouped; c < channels; ++c) {
    uint32_t acc = (uint32_t)acc_init[c];
    for (i = 0; i < length; ++i) acc += (uint32_t)((int32_t)w[i] * (int32_t)patch[i]);
    w += length;
    {
      const loupe_thumb_requant q = loupe_thumb_requant_of(multiplier[c], shift[c]);
      out[c] = (int8_t)loupe_thumb_requantize((int32_t)acc, &q, output_offset, act_min, act_max);
    }
  }
}

static inline void loupe_conv_pixel_s8_thumb_smlal(const int8_t* patch, const int8_t* filter,
                                                   int32_t length, int32_t channels,
                                                   const int32_t* acc_init,
                                                   const int32_t* multiplier, const int32_t* shift,
                                                   int32_t output_offset, int32_t act_min,
                                                   int32_t act_max, int8_t* out) {
  /* The full int8 range gets its own copy, whose clamp is one SSAT. */
  if (act_min == -128 && act_max == 127) {
    loupe_conv_pixel_s8_thumb_smlal_body(patch, filter, length, channels, acc_init, multiplier,
                                         shift, output_offset, -128, 127, out);
  } else {
    loupe_conv_pixel_s8_thumb_smlal_body(patch, filter, length, channels, acc_init, multiplier,
                                         shift, output_offset, act_min, act_max, out);
  }
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_THUMB_CONV_KERNELS_H_ */
