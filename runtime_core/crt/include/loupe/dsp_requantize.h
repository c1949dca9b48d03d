/*
 * Requantisation for the DSP-extension kernels (Cortex-M4, M7, M33): the
 * bytes of loupe_requantize_channel (loupe/simd_kernels.h, which includes
 * this file after it) in fewer instructions for the usual channel, whose
 * shift is a right shift of two bits or more; other shifts take
 * loupe_requantize_channel itself. C99, header-only.
 */
#ifndef LOUPE_DSP_REQUANTIZE_H_
#define LOUPE_DSP_REQUANTIZE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(LOUPE_HAVE_DSP)
/* loupe_requantize_channel, faster for a right shift of two bits or more
 * (every channel of the usual model): TFLite rounds twice, the doubling
 * high multiply (P = acc * m + 2^30, high = P >> 31) then the divide by
 * 2^r with ties away from zero, which is (high + 2^(r-1) - [high < 0])
 * >> r; both floors fold into one, (P + 2^(30+r) - [P < 0] 2^31) >>
 * (31 + r), the high word of the 64-bit sum shifted by r - 1. SMLAL
 * starts from 2^30 + 2^(30+r); P < 0 is that sum's high word below
 * 2^(r-2), and subtracting 2^31 lowers the high word by one unless the
 * low word's top bit is set. */
static inline LOUPE_ALWAYS_INLINE int32_t loupe_requantize_dsp(int32_t acc, int32_t c,
                                                               const int32_t* multiplier,
                                                               const int32_t* shift,
                                                               int32_t output_offset,
                                                               int32_t act_min, int32_t act_max) {
  const int32_t s = shift[c];
  if (s < -1) {
    const int32_t r = -s;
    const int32_t k_hi = (int32_t)1 << (r - 2);
    const int64_t sum =
        (int64_t)acc * multiplier[c] + (int64_t)(((uint64_t)(uint32_t)k_hi << 32) | 0x40000000u);
    int32_t hi = (int32_t)(sum >> 32);
    if (hi < k_hi) hi -= (int32_t)(~(uint32_t)sum >> 31);
    const int32_t value = (hi >> (r - 1)) + output_offset;
    /* The whole int8 range (the caller's constants, once inlined): SSAT. */
    if (act_min == -128 && act_max == 127) return __ssat(value, 8);
    return loupe_clamp_i32(value, act_min, act_max);
  }
  return loupe_requantize_channel(acc, c, multiplier, shift, output_offset, act_min, act_max);
}

static inline LOUPE_ALWAYS_INLINE void loupe_requantize_store_x4_dsp(
    int32_t acc0, int32_t acc1, int32_t acc2, int32_t acc3, int32_t c, const int32_t* multiplier,
    const int32_t* shift, int32_t output_offset, int32_t act_min, int32_t act_max, int8_t* out) {
  out[c] =
      (int8_t)loupe_requantize_dsp(acc0, c, multiplier, shift, output_offset, act_min, act_max);
  out[c + 1] =
      (int8_t)loupe_requantize_dsp(acc1, c + 1, multiplier, shift, output_offset, act_min, act_max);
  out[c + 2] =
      (int8_t)loupe_requantize_dsp(acc2, c + 2, multiplier, shift, output_offset, act_min, act_max);
  out[c + 3] =
      (int8_t)loupe_requantize_dsp(acc3, c + 3, multiplier, shift, output_offset, act_min, act_max);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_DSP_REQUANTIZE_H_ */
