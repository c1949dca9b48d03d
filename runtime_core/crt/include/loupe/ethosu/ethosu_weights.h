/*
 * Weights and scales as the Ethos-U reads them.
 *
 * Weight streams are Vela's mlw format (ethosu/mlw_codec): slices, each with
 * a header (zero-run and weight Golomb-Rice divisors, value count, optional
 * palette), then chunks interleaving the unary parts of weight indices and
 * of zero runs with their remainders. The decoder below is streaming: it
 * holds a few dozen decoded symbols, never a whole slice, and gives out one
 * weight at a time (zero-point corrected, 9-bit signed).
 *
 * The values come in the NPU's brick order (mlw_codec's reorder): per OFM
 * block of the operation's block depth, per IFM block (32 deep for 8-bit
 * depth-first, 16 otherwise), per sub-kernel of at most 8x8 (dilated: 4),
 * per micro-block of OFM and IFM channels, with padding. The block decoder
 * undoes that order, giving one OFM block's weights in OHWI.
 *
 * Scale streams are 10-byte records per OFM channel: a 40-bit signed bias,
 * a 32-bit unsigned scale and a 6-bit shift (weight_compressor.py).
 */
#ifndef LOUPE_ETHOSU_WEIGHTS_H_
#define LOUPE_ETHOSU_WEIGHTS_H_

#include <stdint.h>

#include "loupe/ethosu/ethosu_error.h"
#include "loupe/little_endian.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LOUPE_ETHOSU_MLW_RING 128 /* decoded symbols held ahead of the output */

typedef struct loupe_ethosu_mlw_decoder {
  const uint8_t* data;
  uint32_t size;
  uint32_t bit; /* next bit to read */
  uint8_t at_end, in_slice, first_slice, chunks_done;
  /* slice header */
  int32_t z_div, w_div, w_trunc, w_uncompressed, use_zero_run, new_palette, prev_z_div;
  int32_t nvalues, z_nvalues, palsize, palbits, direct_offset;
  int16_t palette[32];
  /* chunk state */
  int32_t w_pos, z_pos, w_prev_pos, z_prev_pos, w_carry, z_carry;
  int32_t w_nsym, z_nsym, w_prev_nsym, z_prev_nsym, w_prev_enable, z_prev_enable;
  int32_t w_q[12], z_q[12], w_prev_q[12], z_prev_q[12];
  uint16_t w_ring[LOUPE_ETHOSU_MLW_RING];
  uint32_t z_ring[LOUPE_ETHOSU_MLW_RING];
  /* output */
  int32_t out_index;
  uint8_t leading_zeros_done;
  uint32_t pending_zeros;
  uint64_t produced; /* weights handed out so far */
} loupe_ethosu_mlw_decoder;

void loupe_ethosu_mlw_init(loupe_ethosu_mlw_decoder* decoder, const uint8_t* data, uint32_t size);
/* 1 and *value for the next weight, 0 at the end of the stream, or a
 * negative status (LOUPE_ETHOSU_ERR_WEIGHT_STREAM) for a malformed one. */
int loupe_ethosu_mlw_next(loupe_ethosu_mlw_decoder* decoder, int16_t* value,
                          loupe_ethosu_error* err);

/* How one operation's weight stream (of one core) is laid out. */
typedef struct loupe_ethosu_weight_layout {
  uint32_t ofm_depth;     /* OFM channels in this stream */
  uint32_t kernel_height; /* undilated */
  uint32_t kernel_width;
  uint32_t ifm_depth;       /* 1 for depthwise */
  uint32_t ofm_block_depth; /* the operation's OFM block depth (this core's share) */
  uint8_t is_depthwise;
  uint8_t is_part_kernel_first;
  uint8_t ifm_bits;   /* 8 or 16 */
  uint8_t dilation_x; /* 1 or 2 */
  uint8_t dilation_y;
  uint8_t ifm_ublock_depth; /* 8 on every U55/U65 */
  uint8_t ofm_ublock_depth; /* 8 (4 on the U55-32) */
} loupe_ethosu_weight_layout;

/* Channels of the OFM block starting at channel ofm_block_start. */
uint32_t loupe_ethosu_weight_block_channels(const loupe_ethosu_weight_layout* layout,
                                            uint32_t ofm_block_start);
/* Weights (OHWI elements) of that block. */
uint32_t loupe_ethosu_weight_block_elements(const loupe_ethosu_weight_layout* layout,
                                            uint32_t ofm_block_start);
/* Decodes the next OFM block (starting at ofm_block_start, a multiple of
 * the block depth, the blocks in order) from the decoder into out, OHWI:
 * out[((o * kernel_height + y) * kernel_width + x) * ifm_depth + i]. */
int loupe_ethosu_weights_decode_block(loupe_ethosu_mlw_decoder* decoder,
                                      const loupe_ethosu_weight_layout* layout,
                                      uint32_t ofm_block_start, int16_t* out, uint32_t capacity,
                                      loupe_ethosu_error* err);
/* A whole stream in OHWI: out holds ofm_depth * kh * kw * ifm_depth values. */
int loupe_ethosu_weights_decode_ohwi(const uint8_t* stream, uint32_t size,
                                     const loupe_ethosu_weight_layout* layout, int16_t* out,
                                     uint32_t capacity, loupe_ethosu_mlw_decoder* scratch,
                                     loupe_ethosu_error* err);

#define LOUPE_ETHOSU_BIAS_RECORD_BYTES 10

typedef struct loupe_ethosu_bias_record {
  int64_t bias; /* 40-bit signed */
  uint32_t scale;
  uint8_t shift; /* 6 bits */
} loupe_ethosu_bias_record;

static inline loupe_ethosu_bias_record loupe_ethosu_bias_record_decode(const uint8_t* p) {
  loupe_ethosu_bias_record r;
  uint64_t raw = (uint64_t)loupe_le_u32(p) | ((uint64_t)p[4] << 32);
  /* sign-extend 40 bits */
  r.bias = (int64_t)(raw ^ ((uint64_t)1 << 39)) - ((int64_t)1 << 39);
  r.scale = loupe_le_u32(p + 5);
  r.shift = (uint8_t)(p[9] & 0x3Fu);
  return r;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_WEIGHTS_H_ */
