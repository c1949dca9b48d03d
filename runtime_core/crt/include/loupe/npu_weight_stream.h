/*
 * The NPU's encoded weight and scale streams (docs/npu.md), and a streaming
 * decoder for the weights: the software NPU decodes them on the fly while it
 * convolves, holding nothing but a few bytes of bit-reader state.
 *
 * A weight stream is one sub-stream per block of OFM channels (the block
 * depth of the operation's block configuration). A sub-stream holds the
 * block's weights in the order the NPU reads them, kernel row, kernel column,
 * IFM channel, then OFM channel innermost, compressed losslessly: a header
 * byte choosing the code, then a bit stream (least significant bit first)
 * padded to a whole byte. Each weight w is coded as its zig-zag value
 * u = 2w (w >= 0) or -2w-1 (w < 0) with a Golomb-Rice code of parameter k;
 * in zero-run mode a Rice code of parameter kz first says how many zeros
 * precede the next non-zero weight, which is then coded as u - 1. Weights
 * that no Rice code shrinks are stored raw (header 0x80, one byte each), so
 * a sub-stream is never more than one byte longer than its weights.
 *
 * The scale stream holds LOUPE_NPU_SCALE_RECORD_BYTES per OFM channel: a
 * 40-bit two's-complement bias, a 32-bit multiplier (Q0.31, non-negative) and
 * a byte whose low 6 bits are shift + 32 (TFLite's shift, -32..31).
 * C99, no allocation; usable from C++.
 */
#ifndef LOUPE_NPU_WEIGHT_STREAM_H_
#define LOUPE_NPU_WEIGHT_STREAM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sub-stream header byte: bits 0-2 k, bit 3 zero-run mode, bits 4-6 kz, bit 7
 * zero; or exactly LOUPE_NPU_WEIGHT_HEADER_RAW. */
#define LOUPE_NPU_WEIGHT_HEADER_K_MASK 0x07u
#define LOUPE_NPU_WEIGHT_HEADER_ZERO_RUN 0x08u
#define LOUPE_NPU_WEIGHT_HEADER_KZ_SHIFT 4
#define LOUPE_NPU_WEIGHT_HEADER_RAW 0x80u

/* A Rice quotient of this many one bits is an escape: the number follows raw
 * in LOUPE_NPU_WEIGHT_VALUE_BITS (a weight) or LOUPE_NPU_WEIGHT_RUN_BITS (a
 * zero run) bits instead. */
#define LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT 15
#define LOUPE_NPU_WEIGHT_VALUE_BITS 8
#define LOUPE_NPU_WEIGHT_RUN_BITS 24
/* Most weights one sub-stream may hold (a zero run must fit its raw field). */
#define LOUPE_NPU_WEIGHT_MAX_SUBSTREAM_VALUES ((1ul << LOUPE_NPU_WEIGHT_RUN_BITS) - 1ul)

#define LOUPE_NPU_SCALE_RECORD_BYTES 10
#define LOUPE_NPU_SCALE_SHIFT_BIAS 32

/* Decodes one sub-stream of `value_count` weights. */
typedef struct loupe_npu_weight_decoder {
  const uint8_t* data;
  size_t length;       /* bytes of the whole weight stream */
  size_t bit_position; /* from data[0] */
  uint32_t values_left;
  uint32_t zeros_pending; /* zero-run mode: zeros still to emit before the next value */
  uint8_t k, kz, zero_run, raw;
  uint8_t value_pending; /* zero-run mode: a non-zero value follows the pending zeros */
} loupe_npu_weight_decoder;

/* Starts the sub-stream at byte `offset` of data[0..length). */
int32_t LoupeNpuWeightDecoderBegin(loupe_npu_weight_decoder* decoder, const uint8_t* data,
                                   size_t length, size_t offset, uint32_t value_count);

/* The next weight; kTvmErrorNpuBadWeightStream when the bits run out or a
 * code is impossible (a value beyond int8, a run past the sub-stream's end). */
int32_t LoupeNpuWeightDecoderNext(loupe_npu_weight_decoder* decoder, int8_t* value);

/* After the last weight: the byte offset at which the next sub-stream starts. */
size_t LoupeNpuWeightDecoderEnd(const loupe_npu_weight_decoder* decoder);

/* One OFM channel's scale record. */
typedef struct loupe_npu_channel_scale {
  int64_t bias;
  int32_t multiplier;
  int shift;
} loupe_npu_channel_scale;

/* Reads the record at `record`; kTvmErrorNpuBadWeightStream for a negative
 * multiplier or reserved shift bits set. */
int32_t LoupeNpuReadChannelScale(const uint8_t record[LOUPE_NPU_SCALE_RECORD_BYTES],
                                 loupe_npu_channel_scale* scale);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOUPE_NPU_WEIGHT_STREAM_H_ */
