/*
 * Streaming decoder of the NPU's compressed weights and reader of its scale
 * records (loupe/npu_weight_stream.h). One bit at a time: the software NPU
 * decodes each weight once per OFM block, which is cheap next to the
 * multiply-accumulates that weight feeds.
 */
#include <loupe/npu_weight_stream.h>
#include <tvm/runtime/crt/error_codes.h>

int32_t LoupeNpuWeightDecoderBegin(loupe_npu_weight_decoder* decoder, const uint8_t* data,
                                   size_t length, size_t offset, uint32_t value_count) {
  uint8_t header;
  if (offset >= length) return kTvmErrorNpuBadWeightStream;
  header = data[offset];
  if (((header & LOUPE_NPU_WEIGHT_HEADER_RAW) != 0 && header != LOUPE_NPU_WEIGHT_HEADER_RAW) ||
      value_count > LOUPE_NPU_WEIGHT_MAX_SUBSTREAM_VALUES) {
    return kTvmErrorNpuBadWeightStream;
  }
  decoder->data = data;
  decoder->length = length;
  decoder->bit_position = (offset + 1) * 8;
  decoder->values_left = value_count;
  decoder->zeros_pending = 0;
  decoder->value_pending = 0;
  decoder->raw = header == LOUPE_NPU_WEIGHT_HEADER_RAW;
  decoder->k = (uint8_t)(header & LOUPE_NPU_WEIGHT_HEADER_K_MASK);
  decoder->zero_run = (header & LOUPE_NPU_WEIGHT_HEADER_ZERO_RUN) != 0;
  decoder->kz = (uint8_t)((header >> LOUPE_NPU_WEIGHT_HEADER_KZ_SHIFT) & 0x07u);
  return kTvmErrorNoError;
}

static int ReadBits(loupe_npu_weight_decoder* d, int count, uint32_t* value) {
  int i;
  *value = 0;
  for (i = 0; i < count; ++i) {
    const size_t byte = d->bit_position >> 3;
    if (byte >= d->length) return 0;
    *value |= (uint32_t)((d->data[byte] >> (d->bit_position & 7u)) & 1u) << i;
    ++d->bit_position;
  }
  return 1;
}

/* A Rice code of parameter k, or an escape and `raw_bits` raw bits. */
static int ReadRice(loupe_npu_weight_decoder* d, int k, int raw_bits, uint32_t* value) {
  uint32_t quotient = 0;
  uint32_t bit;
  for (;;) {
    if (!ReadBits(d, 1, &bit)) return 0;
    if (bit == 0) break;
    if (++quotient == LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT) return ReadBits(d, raw_bits, value);
  }
  if (!ReadBits(d, k, &bit)) return 0;
  *value = (quotient << k) | bit;
  return 1;
}

static int8_t FromZigZag(uint32_t u) {
  /* u <= 255 here: 2w for w >= 0, -2w-1 for w < 0. */
  return (u & 1u) ? (int8_t)(-(int32_t)(u >> 1) - 1) : (int8_t)(u >> 1);
}

int32_t LoupeNpuWeightDecoderNext(loupe_npu_weight_decoder* d, int8_t* value) {
  uint32_t code;
  if (d->values_left == 0) return kTvmErrorNpuBadWeightStream;
  if (d->raw) {
    if (!ReadBits(d, LOUPE_NPU_WEIGHT_VALUE_BITS, &code)) return kTvmErrorNpuBadWeightStream;
    --d->values_left;
    *value = code <= 0x7Fu ? (int8_t)code : (int8_t)((int32_t)code - 256);
    return kTvmErrorNoError;
  }
  if (!d->zero_run) {
    if (!ReadRice(d, d->k, LOUPE_NPU_WEIGHT_VALUE_BITS, &code) || code > 255u) {
      return kTvmErrorNpuBadWeightStream;
    }
    --d->values_left;
    *value = FromZigZag(code);
    return kTvmErrorNoError;
  }
  if (d->zeros_pending == 0 && !d->value_pending) {
    uint32_t run;
    if (!ReadRice(d, d->kz, LOUPE_NPU_WEIGHT_RUN_BITS, &run) || run > d->values_left) {
      return kTvmErrorNpuBadWeightStream;
    }
    d->zeros_pending = run;
    /* A run that ends the sub-stream is not followed by a value. */
    d->value_pending = run < d->values_left;
  }
  --d->values_left;
  if (d->zeros_pending > 0) {
    --d->zeros_pending;
    *value = 0;
    return kTvmErrorNoError;
  }
  d->value_pending = 0;
  /* Non-zero weights are coded as u - 1 (u = 0 is the weight 0). */
  if (!ReadRice(d, d->k, LOUPE_NPU_WEIGHT_VALUE_BITS, &code) || code > 254u) {
    return kTvmErrorNpuBadWeightStream;
  }
  *value = FromZigZag(code + 1u);
  return kTvmErrorNoError;
}

size_t LoupeNpuWeightDecoderEnd(const loupe_npu_weight_decoder* decoder) {
  return (decoder->bit_position + 7) >> 3;
}

int32_t LoupeNpuReadChannelScale(const uint8_t record[LOUPE_NPU_SCALE_RECORD_BYTES],
                                 loupe_npu_channel_scale* scale) {
  uint64_t bias = 0;
  uint32_t multiplier = 0;
  int i;
  for (i = 0; i < 5; ++i) bias |= (uint64_t)record[i] << (8 * i);
  for (i = 0; i < 4; ++i) multiplier |= (uint32_t)record[5 + i] << (8 * i);
  if (multiplier > 0x7FFFFFFFu || (record[9] & 0xC0u) != 0) return kTvmErrorNpuBadWeightStream;
  /* Sign-extend the 40-bit bias. */
  scale->bias = (bias & ((uint64_t)1 << 39))
                    ? (int64_t)(bias & 0x7FFFFFFFFFull) - ((int64_t)1 << 39)
                    : (int64_t)bias;
  scale->multiplier = (int32_t)multiplier;
  scale->shift = (int)(record[9] & 0x3Fu) - LOUPE_NPU_SCALE_SHIFT_BIAS;
  return kTvmErrorNoError;
}
