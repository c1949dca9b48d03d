/*
 * Streaming decoder of Vela's mlw weight format and the NPU's brick order
 * (loupe/ethosu/ethosu_weights.h). Format facts from mlw_codec/mlw_decode.c
 * and mlw_encode.c; the decoding here is our own, a state machine that
 * keeps the weight and zero-run symbols in two small rings because the
 * format interleaves them chunk by chunk, one chunk behind.
 */
#include <loupe/ethosu/ethosu_weights.h>
#include <string.h>

#define ZDIV_DISABLE 6
#define ZDIV_EOS 7
#define WDIV_UNCOMPRESSED 7

void loupe_ethosu_mlw_init(loupe_ethosu_mlw_decoder* d, const uint8_t* data, uint32_t size) {
  if (d == NULL) return;
  memset(d, 0, sizeof(*d));
  d->data = data;
  d->size = data == NULL ? 0u : size;
  d->first_slice = 1;
}

static int malformed(loupe_ethosu_mlw_decoder* d, loupe_ethosu_error* err, const char* what) {
  loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_WEIGHT_STREAM, "weight stream: ");
  loupe_ethosu_append(err, what);
  loupe_ethosu_append(err, " at bit ");
  loupe_ethosu_append_u(err, d->bit);
  loupe_ethosu_append(err, " of ");
  loupe_ethosu_append_u(err, (uint64_t)d->size * 8u);
  return LOUPE_ETHOSU_ERR_WEIGHT_STREAM;
}

/* len bits, least significant first; -1 past the end. */
static int32_t get_bits(loupe_ethosu_mlw_decoder* d, int len) {
  int32_t value = 0;
  int i;
  if (len <= 0) return 0;
  if ((uint64_t)d->bit + (uint64_t)len > (uint64_t)d->size * 8u) return -1;
  for (i = 0; i < len; ++i) {
    uint32_t b = d->bit++;
    value |= (int32_t)((d->data[b >> 3] >> (b & 7u)) & 1u) << i;
  }
  return value;
}

/* 1 when a slice header was read, 0 at the end of the stream, <0 error. */
static int read_slice_header(loupe_ethosu_mlw_decoder* d, loupe_ethosu_error* err) {
  int32_t z_div = get_bits(d, 3);
  int32_t v;
  int i;
  while (z_div == ZDIV_EOS) {
    d->bit = (d->bit + 7u) & ~7u; /* byte-align */
    d->first_slice = 1;
    if (d->bit / 8u >= d->size) return 0;
    z_div = get_bits(d, 3);
  }
  if (z_div < 0) return malformed(d, err, "slice header past the end");
  if (!(z_div < 4 || z_div == ZDIV_DISABLE)) return malformed(d, err, "zero-run divisor invalid");
  d->z_div = z_div;
  d->use_zero_run = z_div != ZDIV_DISABLE;
  v = get_bits(d, 15);
  d->w_div = get_bits(d, 3);
  d->w_trunc = get_bits(d, 1);
  d->new_palette = get_bits(d, 1);
  if (v < 0 || d->w_div < 0 || d->w_trunc < 0 || d->new_palette < 0) {
    return malformed(d, err, "slice header past the end");
  }
  d->nvalues = v + 1;
  if (d->first_slice && !d->new_palette) return malformed(d, err, "first slice without palette");
  if (!d->new_palette && (d->prev_z_div != ZDIV_DISABLE) != d->use_zero_run) {
    return malformed(d, err, "zero-run mode changed without a new palette");
  }
  d->first_slice = 0;
  d->prev_z_div = z_div;
  if (d->new_palette) {
    d->direct_offset = get_bits(d, 5);
    d->palsize = get_bits(d, 5);
    d->palbits = get_bits(d, 3);
    if (d->direct_offset < 0 || d->palsize < 0 || d->palbits < 0) {
      return malformed(d, err, "palette past the end");
    }
    if (d->palsize > 0) d->palsize++;
    d->palbits += 2;
    for (i = 0; i < d->palsize; ++i) {
      v = get_bits(d, d->palbits);
      if (v < 0) return malformed(d, err, "palette past the end");
      d->palette[i] = (int16_t)v;
    }
  }
  if (d->w_div == WDIV_UNCOMPRESSED) {
    int bits = 0;
    d->w_uncompressed = 1;
    if (d->palsize > 0) {
      while ((1 << bits) < d->palsize) ++bits;
    } else {
      bits = d->palbits;
    }
    d->w_div = bits;
  } else {
    d->w_uncompressed = 0;
    if (d->w_div >= 6) return malformed(d, err, "weight divisor invalid");
  }
  d->z_nvalues = d->nvalues + (d->new_palette ? 1 : 0);
  d->w_pos = d->z_pos = d->w_prev_pos = d->z_prev_pos = 0;
  d->w_carry = d->z_carry = 0;
  d->w_prev_enable = d->z_prev_enable = 0;
  d->w_prev_nsym = d->z_prev_nsym = 0;
  d->out_index = 0;
  d->leading_zeros_done = 0;
  d->pending_zeros = 0;
  d->chunks_done = 0;
  d->in_slice = 1;
  return 1;
}

/* One chunk: unary parts of this chunk, remainders of the previous one. */
static int read_chunk(loupe_ethosu_mlw_decoder* d, loupe_ethosu_error* err) {
  int32_t balance = d->use_zero_run ? d->w_pos - d->z_pos : 0;
  int w_enable = (balance < 8 || !d->use_zero_run) && d->w_pos < d->nvalues;
  int z_enable = balance >= 0 && d->use_zero_run && d->z_pos < d->z_nvalues;
  int32_t w_unary0 = 0;
  int i;
  if (w_enable && !d->w_uncompressed) {
    w_unary0 = get_bits(d, 12);
    if (w_unary0 < 0) return malformed(d, err, "weight chunk past the end");
  }
  if (z_enable) {
    int len = d->z_div < 3 ? 12 : 8;
    int32_t z_unary = get_bits(d, len);
    int32_t cnt = d->z_carry;
    if (z_unary < 0) return malformed(d, err, "zero-run chunk past the end");
    d->z_nsym = 0;
    for (i = 0; i < len; ++i) {
      if (z_unary & (1 << i)) {
        cnt++;
      } else {
        d->z_q[d->z_nsym++] = cnt;
        cnt = 0;
      }
    }
    d->z_carry = cnt;
    d->z_pos += d->z_nsym;
  }
  if (w_enable) {
    int max_symbols = d->w_uncompressed && d->w_div > 5 ? 8 : 12;
    int unary1_len = 0;
    int32_t w_unary1;
    int32_t cnt = d->w_carry;
    for (i = 0; i < max_symbols; ++i) {
      if (w_unary0 & (1 << i)) unary1_len++;
    }
    w_unary1 = get_bits(d, unary1_len);
    if (w_unary1 < 0) return malformed(d, err, "weight chunk past the end");
    d->w_nsym = 0;
    for (i = 0; i < max_symbols; ++i) {
      int code = 0;
      if (w_unary0 & (1 << i)) {
        code++;
        if (w_unary1 & 1) code++;
        w_unary1 >>= 1;
      }
      cnt += code;
      if (code < 2 || d->w_trunc) {
        d->w_q[d->w_nsym++] = cnt;
        cnt = 0;
      }
    }
    d->w_carry = cnt;
    d->w_pos += d->w_nsym;
  }
  if (d->w_prev_enable) {
    for (i = 0; i < d->w_prev_nsym && d->w_prev_pos < d->nvalues; ++i, ++d->w_prev_pos) {
      int32_t remain = get_bits(d, d->w_div);
      int32_t value;
      if (remain < 0) return malformed(d, err, "weight remainder past the end");
      if (d->w_prev_pos - d->out_index >= LOUPE_ETHOSU_MLW_RING) {
        return malformed(d, err, "weights run too far ahead of zero runs");
      }
      value = (d->w_prev_q[i] << d->w_div) + remain;
      if (value >= 512 || value < 0) return malformed(d, err, "weight index beyond 9 bits");
      d->w_ring[d->w_prev_pos % LOUPE_ETHOSU_MLW_RING] = (uint16_t)value;
    }
  }
  if (d->z_prev_enable) {
    for (i = 0; i < d->z_prev_nsym && d->z_prev_pos < d->z_nvalues; ++i, ++d->z_prev_pos) {
      int32_t remain = get_bits(d, d->z_div);
      if (remain < 0) return malformed(d, err, "zero-run remainder past the end");
      if (d->z_prev_pos - d->out_index >= LOUPE_ETHOSU_MLW_RING) {
        return malformed(d, err, "zero runs run too far ahead of weights");
      }
      d->z_ring[d->z_prev_pos % LOUPE_ETHOSU_MLW_RING] =
          ((uint32_t)d->z_prev_q[i] << d->z_div) + (uint32_t)remain;
    }
  }
  d->w_prev_enable = w_enable;
  d->w_prev_nsym = d->w_nsym;
  memcpy(d->w_prev_q, d->w_q, sizeof(d->w_q));
  d->z_prev_enable = z_enable;
  d->z_prev_nsym = d->z_nsym;
  memcpy(d->z_prev_q, d->z_q, sizeof(d->z_q));
  if (!w_enable && !z_enable) d->chunks_done = 1;
  return 0;
}

/* Reads chunks until weight `w` and zero run `z` (-1: none) are decoded. */
static int need(loupe_ethosu_mlw_decoder* d, int32_t w, int32_t z, loupe_ethosu_error* err) {
  while ((w >= 0 && d->w_prev_pos <= w) || (z >= 0 && d->z_prev_pos <= z)) {
    int status;
    if (d->chunks_done) return malformed(d, err, "slice ends before its values");
    status = read_chunk(d, err);
    if (status < 0) return status;
  }
  return 0;
}

static int16_t weight_value(const loupe_ethosu_mlw_decoder* d, uint32_t index) {
  int32_t v = index < (uint32_t)d->palsize ? d->palette[index]
                                           : (int32_t)index - d->palsize + d->direct_offset;
  int32_t magnitude = v >> 1;
  return (int16_t)((v & 1) ? -magnitude : magnitude);
}

int loupe_ethosu_mlw_next(loupe_ethosu_mlw_decoder* d, int16_t* value, loupe_ethosu_error* err) {
  int status;
  if (d == NULL || value == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "weight stream: null pointer");
  }
  for (;;) {
    if (d->pending_zeros > 0) {
      d->pending_zeros--;
      *value = 0;
      d->produced++;
      return 1;
    }
    if (d->at_end) return 0;
    if (!d->in_slice) {
      status = read_slice_header(d, err);
      if (status < 0) return status;
      if (status == 0) {
        d->at_end = 1;
        return 0;
      }
    }
    if (d->use_zero_run && d->new_palette && !d->leading_zeros_done) {
      /* A slice with a new palette may start with zeros. */
      status = need(d, -1, 0, err);
      if (status < 0) return status;
      d->leading_zeros_done = 1;
      d->pending_zeros = d->z_ring[0];
      continue;
    }
    if (d->out_index < d->nvalues) {
      int32_t i = d->out_index;
      int32_t z = d->use_zero_run ? i + (d->new_palette ? 1 : 0) : -1;
      status = need(d, i, z, err);
      if (status < 0) return status;
      *value = weight_value(d, d->w_ring[i % LOUPE_ETHOSU_MLW_RING]);
      if (z >= 0) d->pending_zeros = d->z_ring[z % LOUPE_ETHOSU_MLW_RING];
      d->out_index++;
      d->produced++;
      return 1;
    }
    /* Slice done: its remaining chunks carry nothing more to hand out. */
    while (!d->chunks_done) {
      status = read_chunk(d, err);
      if (status < 0) return status;
    }
    d->in_slice = 0;
  }
}

uint32_t loupe_ethosu_weight_block_channels(const loupe_ethosu_weight_layout* l, uint32_t start) {
  uint32_t left;
  if (l == NULL || start >= l->ofm_depth) return 0;
  left = l->ofm_depth - start;
  return left < l->ofm_block_depth ? left : l->ofm_block_depth;
}

uint32_t loupe_ethosu_weight_block_elements(const loupe_ethosu_weight_layout* l, uint32_t start) {
  return loupe_ethosu_weight_block_channels(l, start) * l->kernel_height * l->kernel_width *
         l->ifm_depth;
}

static uint32_t round_up(uint32_t n, uint32_t m) {
  return (n + m - 1u) / m * m;
}
static uint32_t min_u(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}

int loupe_ethosu_weights_decode_block(loupe_ethosu_mlw_decoder* d,
                                      const loupe_ethosu_weight_layout* l, uint32_t ofm_block_z,
                                      int16_t* out, uint32_t capacity, loupe_ethosu_error* err) {
  uint32_t block_depth, ifm_block_depth, decomp_h, decomp_w;
  uint32_t ifm_block_z, sub_y, sub_x;
  uint32_t ifm_loop_end;
  if (d == NULL || l == NULL || out == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "weights: null pointer");
  }
  if (l->ofm_block_depth == 0 || l->ifm_ublock_depth == 0 || l->ofm_ublock_depth == 0 ||
      l->kernel_height == 0 || l->kernel_width == 0 || l->ifm_depth == 0 ||
      (l->dilation_x != 1 && l->dilation_x != 2) || (l->dilation_y != 1 && l->dilation_y != 2) ||
      (l->ifm_bits != 8 && l->ifm_bits != 16) || (l->is_depthwise && l->is_part_kernel_first)) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_INVALID_OPERATION,
                             "weights: layout invalid (zero size, dilation or precision)");
  }
  block_depth = loupe_ethosu_weight_block_channels(l, ofm_block_z);
  if (block_depth == 0) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "weights: block beyond the OFM");
  }
  if (loupe_ethosu_weight_block_elements(l, ofm_block_z) > capacity) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_WORKSPACE, "weights: block needs ");
    loupe_ethosu_append_u(err, loupe_ethosu_weight_block_elements(l, ofm_block_z));
    loupe_ethosu_append(err, " values, the buffer holds ");
    loupe_ethosu_append_u(err, capacity);
    return LOUPE_ETHOSU_ERR_WORKSPACE;
  }
  ifm_block_depth = (l->is_part_kernel_first || l->ifm_bits == 16) ? 16u : 32u;
  decomp_h = 8u / l->dilation_y;
  decomp_w = 8u / l->dilation_x;
  ifm_loop_end = l->is_depthwise ? 1u : l->ifm_depth;
  /* The loop nest of the NPU's weight order, reading one value per step and
   * keeping those that are real weights (the rest is padding). */
  for (ifm_block_z = 0; ifm_block_z < ifm_loop_end; ifm_block_z += ifm_block_depth) {
    uint32_t clipped_ifm = l->is_depthwise ? l->ifm_ublock_depth
                           : l->is_part_kernel_first
                               ? min_u(ifm_block_depth, l->ifm_depth - ifm_block_z)
                               : ifm_block_depth;
    for (sub_y = 0; sub_y < l->kernel_height; sub_y += decomp_h) {
      uint32_t sub_h = min_u(l->kernel_height - sub_y, decomp_h);
      for (sub_x = 0; sub_x < l->kernel_width; sub_x += decomp_w) {
        uint32_t sub_w = min_u(l->kernel_width - sub_x, decomp_w);
        uint32_t elements = sub_w * sub_h;
        uint32_t outer_depth, inner_depth, outer, ofm_ublk, element;
        if (l->is_part_kernel_first) {
          elements = round_up(elements, l->ifm_bits == 16 ? 2u : 4u);
        } else if (l->is_depthwise) {
          elements = round_up(elements, 4u);
        }
        outer_depth = l->is_part_kernel_first ? clipped_ifm : 1u;
        inner_depth = l->is_part_kernel_first ? 1u : clipped_ifm;
        for (outer = 0; outer < outer_depth; outer += l->ifm_ublock_depth) {
          for (ofm_ublk = 0; ofm_ublk < block_depth; ofm_ublk += l->ofm_ublock_depth) {
            for (element = 0; element < elements; ++element) {
              uint32_t kx = element % sub_w;
              uint32_t ky = element / sub_w;
              uint32_t inner;
              for (inner = 0; inner < inner_depth; inner += l->ifm_ublock_depth) {
                uint32_t oz;
                for (oz = 0; oz < l->ofm_ublock_depth; ++oz) {
                  uint32_t iz;
                  uint32_t iz_end = l->is_depthwise ? 1u : l->ifm_ublock_depth;
                  for (iz = 0; iz < iz_end; ++iz) {
                    uint32_t ifm_z = ifm_block_z + inner + outer + iz;
                    uint32_t ofm_local = ofm_ublk + oz;
                    int16_t value;
                    int status = loupe_ethosu_mlw_next(d, &value, err);
                    if (status < 0) return status;
                    if (status == 0) {
                      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_WEIGHT_STREAM,
                                        "weight stream: ends after ");
                      loupe_ethosu_append_u(err, d->produced);
                      loupe_ethosu_append(err, " weights, in the OFM block at channel ");
                      loupe_ethosu_append_u(err, ofm_block_z);
                      return LOUPE_ETHOSU_ERR_WEIGHT_STREAM;
                    }
                    if (ifm_z < l->ifm_depth && ofm_local < block_depth && ky < sub_h) {
                      uint32_t wy = sub_y + ky;
                      uint32_t wx = sub_x + kx;
                      out[((ofm_local * l->kernel_height + wy) * l->kernel_width + wx) *
                              l->ifm_depth +
                          ifm_z] = value;
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return LOUPE_ETHOSU_OK;
}

int loupe_ethosu_weights_decode_ohwi(const uint8_t* stream, uint32_t size,
                                     const loupe_ethosu_weight_layout* l, int16_t* out,
                                     uint32_t capacity, loupe_ethosu_mlw_decoder* d,
                                     loupe_ethosu_error* err) {
  uint32_t start;
  uint32_t per_channel;
  if (stream == NULL || l == NULL || out == NULL || d == NULL || l->ofm_block_depth == 0) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "weights: null pointer");
  }
  per_channel = l->kernel_height * l->kernel_width * l->ifm_depth;
  loupe_ethosu_mlw_init(d, stream, size);
  for (start = 0; start < l->ofm_depth; start += l->ofm_block_depth) {
    uint32_t offset = start * per_channel;
    int status;
    if (offset > capacity) {
      return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_WORKSPACE, "weights: output buffer too small");
    }
    status = loupe_ethosu_weights_decode_block(d, l, start, out + offset, capacity - offset, err);
    if (status != LOUPE_ETHOSU_OK) return status;
  }
  return LOUPE_ETHOSU_OK;
}
