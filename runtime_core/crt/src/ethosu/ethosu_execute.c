/*
 * The Ethos-U functional model (loupe/ethosu/ethosu_execute.h): one
 * function per kind of operation, each computing one output element at a
 * time, every memory access checked against its region.
 */
#include <loupe/ethosu/ethosu_execute.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * 128-bit arithmetic for scaling: a 40-bit accumulator (or a 64-bit product)
 * times a 32-bit scale does not fit 64 bits. */

typedef struct wide {
  uint64_t lo;
  int64_t hi;
} wide;

static wide wide_from(int64_t v) {
  wide w;
  w.lo = (uint64_t)v;
  w.hi = v < 0 ? -1 : 0;
  return w;
}

static wide wide_add(wide a, wide b) {
  wide r;
  r.lo = a.lo + b.lo;
  r.hi = (int64_t)((uint64_t)a.hi + (uint64_t)b.hi + (r.lo < a.lo ? 1u : 0u));
  return r;
}

static wide wide_neg(wide a) {
  wide r;
  r.lo = ~a.lo + 1u;
  r.hi = (int64_t)(~(uint64_t)a.hi + (r.lo == 0 ? 1u : 0u));
  return r;
}

static int wide_is_negative(wide a) {
  return a.hi < 0;
}

/* Arithmetic shift right (floor division by 2^s), 0 <= s < 128. */
static wide wide_shr(wide a, unsigned s) {
  wide r;
  if (s == 0) return a;
  if (s >= 64) {
    unsigned t = s - 64u;
    r.lo = (uint64_t)(t >= 63 ? (a.hi < 0 ? -1 : 0) : (a.hi >> t));
    r.hi = a.hi < 0 ? -1 : 0;
    return r;
  }
  r.lo = (a.lo >> s) | ((uint64_t)a.hi << (64u - s));
  r.hi = a.hi >> s;
  return r;
}

static wide wide_shl(wide a, unsigned s) {
  wide r;
  if (s == 0) return a;
  if (s >= 64) {
    r.hi = (int64_t)(a.lo << (s - 64u));
    r.lo = 0;
    return r;
  }
  r.hi = (int64_t)(((uint64_t)a.hi << s) | (a.lo >> (64u - s)));
  r.lo = a.lo << s;
  return r;
}

static wide wide_mul(int64_t a, uint32_t b) {
  uint64_t mag = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
  uint64_t lo_part = (mag & 0xFFFFFFFFu) * b;
  uint64_t hi_part = (mag >> 32) * b;
  wide r;
  r.lo = lo_part + (hi_part << 32);
  r.hi = (int64_t)((hi_part >> 32) + (r.lo < lo_part ? 1u : 0u));
  return a < 0 ? wide_neg(r) : r;
}

static int64_t wide_to_i64_saturated(wide a) {
  if (a.hi > 0 || (a.hi == 0 && a.lo > (uint64_t)INT64_MAX)) return INT64_MAX;
  if (a.hi < -1 || (a.hi == -1 && a.lo < (uint64_t)1 << 63)) return INT64_MIN;
  return (int64_t)a.lo;
}

static wide half_of(unsigned s) {
  return wide_shl(wide_from(1), s - 1u);
}

/* Round half up: floor(x / 2^s + 1/2). */
static wide round_natural(wide x, unsigned s) {
  if (s == 0) return x;
  return wide_shr(wide_add(x, half_of(s)), s);
}

static wide round_truncate(wide x, unsigned s) {
  if (s == 0) return x;
  if (wide_is_negative(x)) return wide_neg(wide_shr(wide_neg(x), s));
  return wide_shr(x, s);
}

/* Round half away from zero (TFLite's RoundingDivideByPOT). */
static wide round_away(wide x, unsigned s) {
  if (s == 0) return x;
  if (wide_is_negative(x)) return wide_neg(wide_shr(wide_add(wide_neg(x), half_of(s)), s));
  return wide_shr(wide_add(x, half_of(s)), s);
}

static wide round_shift(wide x, unsigned s, int mode) {
  if (s > 120u) s = 120u;
  switch (mode) {
    case LOUPE_ETHOSU_round_mode_TRUNCATE:
      return round_truncate(x, s);
    case LOUPE_ETHOSU_round_mode_NATURAL:
      return round_natural(x, s);
    default:
      /* TFL: the doubling high multiply rounds at bit 31 (half up), the
       * rounding divide by the rest of the shift half away from zero. */
      if (s <= 31u) return round_natural(x, s);
      return round_away(round_natural(x, 31u), s - 31u);
  }
}

int64_t loupe_ethosu_scale(int64_t x, uint32_t scale, int apply_scale, uint32_t shift,
                           int round_mode) {
  wide p = apply_scale ? wide_mul(x, scale) : wide_from(x);
  return wide_to_i64_saturated(round_shift(p, shift, round_mode));
}

/* ---------------------------------------------------------------------------
 * Memory */

int loupe_ethosu_machine_init(loupe_ethosu_machine* m, const loupe_ethosu_npu_config* config,
                              int16_t* workspace, uint32_t workspace_values) {
  if (m == NULL || config == NULL) return LOUPE_ETHOSU_ERR_ARGUMENT;
  memset(m, 0, sizeof(*m));
  m->config = *config;
  m->workspace = workspace;
  m->workspace_values = workspace == NULL ? 0u : workspace_values;
  m->max_work = LOUPE_ETHOSU_DEFAULT_MAX_WORK;
  return LOUPE_ETHOSU_OK;
}

static int address_error(loupe_ethosu_error* err, const char* what, uint32_t region,
                         uint64_t offset, uint64_t bytes, uint64_t size) {
  loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ADDRESS, what);
  loupe_ethosu_append(err, ": bytes [");
  loupe_ethosu_append_hex(err, offset);
  loupe_ethosu_append(err, ", +");
  loupe_ethosu_append_u(err, bytes);
  loupe_ethosu_append(err, ") outside region ");
  loupe_ethosu_append_u(err, region);
  loupe_ethosu_append(err, " of ");
  loupe_ethosu_append_u(err, size);
  loupe_ethosu_append(err, " bytes");
  return LOUPE_ETHOSU_ERR_ADDRESS;
}

/* Region r's bytes [offset, offset + bytes), or NULL with the error set. */
static uint8_t* region_bytes(loupe_ethosu_machine* m, uint32_t r, uint64_t offset, uint64_t bytes,
                             const char* what, loupe_ethosu_error* err) {
  const loupe_ethosu_region* region;
  if (r >= LOUPE_ETHOSU_REGIONS || m->regions[r].data == NULL) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_REGION, what);
    loupe_ethosu_append(err, ": region ");
    loupe_ethosu_append_u(err, r);
    loupe_ethosu_append(err, " has no base address");
    return NULL;
  }
  region = &m->regions[r];
  if (offset > region->size || bytes > region->size - offset) {
    address_error(err, what, r, offset, bytes, region->size);
    return NULL;
  }
  return region->data + offset;
}

/* A feature map resolved to memory: element (y, x, c) is at
 * tile base + y * stride_y + x * stride_x + channel offset. */
typedef struct fm_view {
  const loupe_ethosu_feature_map* fm;
  loupe_ethosu_region region;
  uint32_t bytes; /* per element */
} fm_view;

static int fm_open(loupe_ethosu_machine* m, const loupe_ethosu_feature_map* f, const char* what,
                   fm_view* v, loupe_ethosu_error* err) {
  v->fm = f;
  v->bytes = f->precision_bits / 8u;
  if (f->precision_bits == 64u || v->bytes == 0u) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED, what);
    loupe_ethosu_append(err, ": 64-bit feature maps are not modelled");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  if (f->region >= LOUPE_ETHOSU_REGIONS || m->regions[f->region].data == NULL) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_REGION, what);
    loupe_ethosu_append(err, ": region ");
    loupe_ethosu_append_u(err, f->region);
    loupe_ethosu_append(err, " has no base address");
    return LOUPE_ETHOSU_ERR_REGION;
  }
  v->region = m->regions[f->region];
  return LOUPE_ETHOSU_OK;
}

/* Byte offset of (y, x, c) in the region; UINT64_MAX when it overflows. */
static uint64_t fm_offset(const fm_view* v, uint32_t y, uint32_t x, uint32_t c) {
  const loupe_ethosu_feature_map* f = v->fm;
  uint32_t tile = 0;
  uint64_t channel;
  if (x >= f->width0) {
    x -= f->width0;
    tile = 1;
    if (y >= f->height1) {
      y -= f->height1;
      tile = 3;
    }
  } else if (y >= f->height0) {
    y -= f->height0;
    tile = 2;
  }
  if (f->layout == LOUPE_ETHOSU_activation_format_NHCWB16) {
    channel = (uint64_t)(c / 16u) * f->stride_c + (uint64_t)(c % 16u) * v->bytes;
  } else {
    channel = (uint64_t)c * v->bytes;
  }
  /* 64-bit arithmetic on at most 32-bit factors cannot overflow here. */
  return f->base[tile] + (uint64_t)y * f->stride_y + (uint64_t)x * f->stride_x + channel;
}

static int fm_check(const fm_view* v, uint64_t offset, const char* what, loupe_ethosu_error* err) {
  if (offset > v->region.size || v->bytes > v->region.size - offset) {
    return address_error(err, what, v->fm->region, offset, v->bytes, v->region.size);
  }
  return LOUPE_ETHOSU_OK;
}

static int64_t load_element(const fm_view* v, uint64_t offset) {
  const uint8_t* p = v->region.data + offset;
  switch (v->bytes) {
    case 1:
      return v->fm->is_signed ? (int64_t)(int8_t)p[0] : (int64_t)p[0];
    case 2: {
      uint16_t u = loupe_le_u16(p);
      return v->fm->is_signed ? (int64_t)(int16_t)u : (int64_t)u;
    }
    default: {
      uint32_t u = loupe_le_u32(p);
      return v->fm->is_signed ? (int64_t)(int32_t)u : (int64_t)u;
    }
  }
}

static int fm_read(const fm_view* v, uint32_t y, uint32_t x, uint32_t c, int64_t* value,
                   const char* what, loupe_ethosu_error* err) {
  uint64_t offset = fm_offset(v, y, x, c);
  int status = fm_check(v, offset, what, err);
  if (status != LOUPE_ETHOSU_OK) return status;
  *value = load_element(v, offset);
  return LOUPE_ETHOSU_OK;
}

static int fm_write(const fm_view* v, uint32_t y, uint32_t x, uint32_t c, int64_t value,
                    loupe_ethosu_error* err) {
  uint64_t offset = fm_offset(v, y, x, c);
  uint8_t* p;
  uint32_t i;
  int status = fm_check(v, offset, "OFM", err);
  if (status != LOUPE_ETHOSU_OK) return status;
  p = v->region.data + offset;
  for (i = 0; i < v->bytes; ++i) p[i] = (uint8_t)((uint64_t)value >> (8u * i));
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * Output stage: zero point, activation (clamp or lookup table), saturation */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static uint64_t mul_saturated(uint64_t a, uint64_t b) {
  return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* Sums saturate: a hostile stream's accumulations must not overflow. */
static int64_t add_saturated(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

static void type_range(uint32_t bits, int is_signed, int64_t* lo, int64_t* hi) {
  if (is_signed) {
    *lo = -((int64_t)1 << (bits - 1u));
    *hi = ((int64_t)1 << (bits - 1u)) - 1;
  } else {
    *lo = 0;
    *hi = ((int64_t)1 << bits) - 1;
  }
}

static int output_stage(const loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                        int64_t scaled, int64_t* out, loupe_ethosu_error* err) {
  const loupe_ethosu_feature_map* f = &op->ofm;
  int64_t v = add_saturated(scaled, f->zero_point);
  int64_t lo, hi;
  uint32_t function = op->activation_function;
  if (function >= LOUPE_ETHOSU_activation_function_TABLE_0 &&
      function <= LOUPE_ETHOSU_activation_function_TABLE_7) {
    uint32_t slot = function - LOUPE_ETHOSU_activation_function_TABLE_0;
    switch (op->activation_clip_range) {
      case LOUPE_ETHOSU_activation_clip_range_FORCE_UINT8:
        lo = 0;
        hi = 255;
        break;
      case LOUPE_ETHOSU_activation_clip_range_FORCE_INT8:
        lo = -128;
        hi = 127;
        break;
      case LOUPE_ETHOSU_activation_clip_range_FORCE_INT16:
        lo = -32768;
        hi = 32767;
        break;
      default:
        type_range(f->precision_bits, f->is_signed, &lo, &hi);
        break;
    }
    v = clamp64(v, lo, hi);
    v = clamp64(v, op->activation_min, op->activation_max);
    if (hi - lo == 255) {
      /* 8-bit index: 8-bit entries, or 32-bit ones for a 32-bit OFM. */
      uint32_t index = (uint32_t)(v - lo);
      if (f->precision_bits == 32u) {
        uint32_t at = slot * 256u + index * 4u;
        if (at + 4u > LOUPE_ETHOSU_LUT_BYTES) {
          return loupe_ethosu_fail(
              err, LOUPE_ETHOSU_ERR_INVALID_OPERATION,
              "activation: 32-bit lookup table runs past the SHRAM table area");
        }
        *out = (int64_t)(int32_t)loupe_le_u32(m->lut + at);
      } else {
        uint8_t byte = m->lut[slot * 256u + index];
        *out = f->is_signed ? (int64_t)(int8_t)byte : (int64_t)byte;
      }
      return LOUPE_ETHOSU_OK;
    }
    if (hi - lo == 65535 && slot == 0u) {
      /* 16-bit: 512 intervals of base (low half) and slope (high half),
       * interpolated over the 7 low bits. */
      uint32_t u = (uint32_t)(v - lo);
      uint32_t index = u >> 7;
      uint32_t fraction = u & 0x7Fu;
      uint32_t entry = loupe_le_u32(m->lut + 4u * index);
      int32_t base = (int16_t)(entry & 0xFFFFu);
      int32_t slope = (int16_t)(entry >> 16);
      int64_t r = base + ((slope * (int32_t)fraction + 64) >> 7);
      *out = clamp64(r, lo, hi);
      return LOUPE_ETHOSU_OK;
    }
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED,
                             "activation: lookup table for this clip range not modelled");
  }
  if (function != LOUPE_ETHOSU_activation_function_RELU) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED, "activation: function ");
    loupe_ethosu_append_u(err, function);
    loupe_ethosu_append(err, " (TANH/SIGMOID) not modelled; Vela uses lookup tables");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  type_range(f->precision_bits, f->is_signed, &lo, &hi);
  if (f->precision_bits <= 16u) {
    v = clamp64(v, op->activation_min, op->activation_max);
  } else {
    /* A 32-bit OFM is raw: no zero point, no clamp (Vela leaves the IFM's
     * zero point and 16-bit clamps in these registers). */
    v = scaled;
  }
  *out = clamp64(v, lo, hi);
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * Checks common to block operations */

static int invalid(loupe_ethosu_error* err, const loupe_ethosu_operation* op, const char* what) {
  loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_INVALID_OPERATION, "operation ");
  loupe_ethosu_append_u(err, op->index);
  loupe_ethosu_append(err, " (");
  loupe_ethosu_append(err, loupe_ethosu_operation_name(op));
  loupe_ethosu_append(err, "): ");
  loupe_ethosu_append(err, what);
  return LOUPE_ETHOSU_ERR_INVALID_OPERATION;
}

static int check_block_operation(const loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                                 loupe_ethosu_error* err) {
  uint64_t work;
  if (op->ofm.height == 0 || op->ofm.width == 0 || op->ofm.depth == 0) {
    return invalid(err, op, "empty OFM");
  }
  /* Every OFM element reads its kernel window over the IFM depth at most:
   * a bound on the time a (hostile) operation can take. */
  work = mul_saturated((uint64_t)op->ofm.height * op->ofm.width, op->ofm.depth);
  work = mul_saturated(work, (uint64_t)op->kernel_height * op->kernel_width);
  work = mul_saturated(work, op->ifm.depth == 0 ? 1u : op->ifm.depth);
  if (work > m->max_work) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED, "operation ");
    loupe_ethosu_append_u(err, op->index);
    loupe_ethosu_append(err, ": more work than the machine's limit (max_work)");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  if (op->ifm_upscale > LOUPE_ETHOSU_upscale_mode_ZEROS) return invalid(err, op, "upscale mode");
  if (op->ifm_upscale != LOUPE_ETHOSU_upscale_mode_NONE) {
    /* What the hardware defines (Linux's ethosu validator): a kernel of
     * stride 1 moving over the upscaled map; no element-wise operation, no
     * REDUCE_SUM, no MAX over inserted zeros. */
    if (op->kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE) {
      return invalid(err, op, "IFM upscaling of an element-wise operation");
    }
    if (op->stride_x != 1 || op->stride_y != 1) {
      return invalid(err, op, "IFM upscaling with a kernel stride other than 1");
    }
    if (op->kind == LOUPE_ETHOSU_OPERATION_POOL &&
        (op->sub_kind == LOUPE_ETHOSU_pooling_mode_REDUCE_SUM ||
         (op->sub_kind == LOUPE_ETHOSU_pooling_mode_MAX &&
          op->ifm_upscale == LOUPE_ETHOSU_upscale_mode_ZEROS))) {
      return invalid(err, op, "IFM upscaling of this pooling mode");
    }
  }
  if (op->kind != LOUPE_ETHOSU_OPERATION_ELEMENTWISE) {
    if (op->ifm.height == 0 || op->ifm.width == 0 || op->ifm.depth == 0) {
      return invalid(err, op, "empty IFM (padding larger than the kernel covers)");
    }
    if ((op->kernel_height - 1u) % op->dilation_y != 0 ||
        (op->kernel_width - 1u) % op->dilation_x != 0) {
      return invalid(err, op, "kernel size not a multiple of its dilation");
    }
  }
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * IFM upscaling. With NPU_SET_IFM_UPSCALE the kernel moves over an IFM of
 * twice the height and width of the one in memory: NEAREST repeats each
 * element 2x2, ZEROS (Vela's TRANSPOSE, for transpose convolutions) keeps
 * the elements at even rows and columns and inserts the IFM zero point at
 * the others. The padding and the extent the OFM, kernel and padding imply
 * (op->ifm.height and width) are in the upscaled map; the map in memory
 * has half of it, rounded up. */

/* The element of the IFM in memory under upscaled (y, x): 1 and *y, *x
 * replaced by its row and column, or 0 for an inserted zero point. */
static int upscaled_source(const loupe_ethosu_operation* op, uint32_t* y, uint32_t* x) {
  switch (op->ifm_upscale) {
    case LOUPE_ETHOSU_upscale_mode_NEAREST:
      *y /= 2u;
      *x /= 2u;
      return 1;
    case LOUPE_ETHOSU_upscale_mode_ZEROS:
      if ((*y | *x) & 1u) return 0;
      *y /= 2u;
      *x /= 2u;
      return 1;
    default:
      return 1;
  }
}

/* The IFM element a kernel reads at upscaled (y, x), channel c, inside the
 * upscaled extent. */
static int ifm_read(const fm_view* v, const loupe_ethosu_operation* op, uint32_t y, uint32_t x,
                    uint32_t c, int64_t* value, loupe_ethosu_error* err) {
  if (!upscaled_source(op, &y, &x)) {
    *value = op->ifm.zero_point;
    return LOUPE_ETHOSU_OK;
  }
  return fm_read(v, y, x, c, value, "IFM", err);
}

/* ---------------------------------------------------------------------------
 * Convolution and depthwise convolution */

static uint32_t core_channels(uint32_t depth, uint32_t core, uint32_t cores) {
  return depth > core ? (depth - core + cores - 1u) / cores : 0u;
}

void loupe_ethosu_operation_weight_layout(const loupe_ethosu_npu_config* config,
                                          const loupe_ethosu_operation* op, uint32_t core,
                                          uint32_t cores, loupe_ethosu_weight_layout* l) {
  memset(l, 0, sizeof(*l));
  l->ofm_depth = core_channels(op->ofm.depth, core, cores);
  l->dilation_x = op->dilation_x;
  l->dilation_y = op->dilation_y;
  l->kernel_height = (op->kernel_height - 1u) / op->dilation_y + 1u;
  l->kernel_width = (op->kernel_width - 1u) / op->dilation_x + 1u;
  l->is_depthwise = op->kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE;
  l->ifm_depth = l->is_depthwise ? 1u : op->ifm.depth;
  l->ofm_block_depth = core_channels(op->block_depth, core, cores);
  l->is_part_kernel_first = op->part_kernel_first;
  l->ifm_bits = op->ifm.precision_bits;
  l->ifm_ublock_depth = config->ifm_ublock_depth;
  l->ofm_ublock_depth = config->ofm_ublock_depth;
}

uint32_t loupe_ethosu_workspace_needed(const loupe_ethosu_machine* m,
                                       const loupe_ethosu_operation* op) {
  loupe_ethosu_weight_layout l;
  uint64_t needed;
  if (m == NULL || op == NULL) return 0;
  if (op->kind != LOUPE_ETHOSU_OPERATION_CONV && op->kind != LOUPE_ETHOSU_OPERATION_DEPTHWISE) {
    return 0;
  }
  if (op->dilation_x == 0 || op->dilation_y == 0 || op->kernel_height == 0 ||
      op->kernel_width == 0) {
    return 0;
  }
  loupe_ethosu_operation_weight_layout(&m->config, op, 0,
                                       op->weight_streams > 1 ? op->weight_streams : 1u, &l);
  /* Saturated, not wrapped: a corrupt kernel must not look small. */
  needed = mul_saturated((uint64_t)l.ofm_block_depth * l.kernel_height, l.kernel_width);
  needed = mul_saturated(needed, l.ifm_depth);
  return needed > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)needed;
}

static int run_convolution(loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                           loupe_ethosu_error* err) {
  fm_view ifm, ofm;
  uint32_t cores = op->weight_streams > 1 ? op->weight_streams : 1u;
  uint32_t core;
  int status = check_block_operation(m, op, err);
  if (status != LOUPE_ETHOSU_OK) return status;
  if (op->weight_streams == 0) return invalid(err, op, "no weight stream");
  if (op->ofm_scale_mode != LOUPE_ETHOSU_ofm_scale_mode_PER_CHANNEL) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED,
                      "convolution with a global OFM scale not modelled");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  if (op->ifm.precision_bits != 8u && op->ifm.precision_bits != 16u) {
    return invalid(err, op, "convolution IFM must be 8 or 16 bits");
  }
  if (op->kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE && op->ifm.depth < op->ofm.depth) {
    return invalid(err, op, "depthwise IFM shallower than its OFM");
  }
  if ((status = fm_open(m, &op->ifm, "IFM", &ifm, err)) != LOUPE_ETHOSU_OK) return status;
  if ((status = fm_open(m, &op->ofm, "OFM", &ofm, err)) != LOUPE_ETHOSU_OK) return status;

  for (core = 0; core < cores; ++core) {
    loupe_ethosu_weight_layout l;
    const uint8_t* weights;
    const uint8_t* scales;
    uint32_t start, per_channel;
    loupe_ethosu_operation_weight_layout(&m->config, op, core, cores, &l);
    if (l.ofm_depth == 0) continue;
    if (l.ofm_block_depth == 0) return invalid(err, op, "OFM block shallower than the cores");
    weights = region_bytes(m, op->weights[core].region, op->weights[core].base,
                           op->weights[core].length, "weight stream", err);
    if (weights == NULL) return err != NULL ? err->code : LOUPE_ETHOSU_ERR_ADDRESS;
    if ((uint64_t)l.ofm_depth * LOUPE_ETHOSU_BIAS_RECORD_BYTES > op->scales[core].length) {
      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_INVALID_OPERATION, "scale stream of ");
      loupe_ethosu_append_u(err, op->scales[core].length);
      loupe_ethosu_append(err, " bytes, ");
      loupe_ethosu_append_u(err, l.ofm_depth);
      loupe_ethosu_append(err, " OFM channels need 10 bytes each");
      return LOUPE_ETHOSU_ERR_INVALID_OPERATION;
    }
    scales = region_bytes(m, op->scales[core].region, op->scales[core].base,
                          op->scales[core].length, "scale stream", err);
    if (scales == NULL) return err != NULL ? err->code : LOUPE_ETHOSU_ERR_ADDRESS;
    per_channel = l.kernel_height * l.kernel_width * l.ifm_depth;
    if (loupe_ethosu_workspace_needed(m, op) > m->workspace_values) {
      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_WORKSPACE, "operation ");
      loupe_ethosu_append_u(err, op->index);
      loupe_ethosu_append(err, ": one OFM block of weights needs ");
      loupe_ethosu_append_u(err, loupe_ethosu_workspace_needed(m, op));
      loupe_ethosu_append(err, " workspace values, there are ");
      loupe_ethosu_append_u(err, m->workspace_values);
      return LOUPE_ETHOSU_ERR_WORKSPACE;
    }
    loupe_ethosu_mlw_init(&m->mlw, weights, op->weights[core].length);
    for (start = 0; start < l.ofm_depth; start += l.ofm_block_depth) {
      uint32_t channels = loupe_ethosu_weight_block_channels(&l, start);
      uint32_t oy, ox, k;
      status = loupe_ethosu_weights_decode_block(&m->mlw, &l, start, m->workspace,
                                                 m->workspace_values, err);
      if (status != LOUPE_ETHOSU_OK) return status;
      for (oy = 0; oy < op->ofm.height; ++oy) {
        for (ox = 0; ox < op->ofm.width; ++ox) {
          for (k = 0; k < channels; ++k) {
            uint32_t local = start + k;
            uint32_t o = core + cores * local;
            loupe_ethosu_bias_record rec =
                loupe_ethosu_bias_record_decode(scales + (size_t)local * 10u);
            const int16_t* w = m->workspace + (size_t)k * per_channel;
            int64_t acc = rec.bias;
            int64_t result;
            uint32_t ky, kx;
            for (ky = 0; ky < l.kernel_height; ++ky) {
              int64_t iy = (int64_t)oy * op->stride_y - op->pad_top + (int64_t)ky * op->dilation_y;
              if (iy < 0 || iy >= (int64_t)op->ifm.height) continue;
              for (kx = 0; kx < l.kernel_width; ++kx) {
                int64_t ix =
                    (int64_t)ox * op->stride_x - op->pad_left + (int64_t)kx * op->dilation_x;
                const int16_t* wk = w + (ky * l.kernel_width + kx) * l.ifm_depth;
                uint32_t sy, sx;
                if (ix < 0 || ix >= (int64_t)op->ifm.width) continue;
                sy = (uint32_t)iy;
                sx = (uint32_t)ix;
                /* An inserted zero point adds nothing. */
                if (!upscaled_source(op, &sy, &sx)) continue;
                if (l.is_depthwise) {
                  int64_t v;
                  status = fm_read(&ifm, sy, sx, o, &v, "IFM", err);
                  if (status != LOUPE_ETHOSU_OK) return status;
                  acc = add_saturated(acc, (v - op->ifm.zero_point) * wk[0]);
                } else {
                  uint32_t ic;
                  /* The pixel's first and last channels bound the rest. */
                  uint64_t first = fm_offset(&ifm, sy, sx, 0);
                  uint64_t last = fm_offset(&ifm, sy, sx, l.ifm_depth - 1u);
                  if ((status = fm_check(&ifm, first, "IFM", err)) != LOUPE_ETHOSU_OK ||
                      (status = fm_check(&ifm, last, "IFM", err)) != LOUPE_ETHOSU_OK) {
                    return status;
                  }
                  for (ic = 0; ic < l.ifm_depth; ++ic) {
                    int64_t v = load_element(&ifm, fm_offset(&ifm, sy, sx, ic));
                    acc = add_saturated(acc, (v - op->ifm.zero_point) * wk[ic]);
                  }
                }
              }
            }
            m->macs += per_channel;
            result = loupe_ethosu_scale(acc, rec.scale, 1, rec.shift, op->round_mode);
            status = output_stage(m, op, result, &result, err);
            if (status != LOUPE_ETHOSU_OK) return status;
            status = fm_write(&ofm, oy, ox, o, result, err);
            if (status != LOUPE_ETHOSU_OK) return status;
          }
        }
      }
    }
  }
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * Pooling */

static int run_pooling(loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                       loupe_ethosu_error* err) {
  fm_view ifm, ofm;
  uint32_t oy, ox, c;
  int is32 = op->ifm.precision_bits == 32u;
  int reduce_channels = op->sub_kind == LOUPE_ETHOSU_pooling_mode_REDUCE_SUM &&
                        op->ofm.depth == 1u && op->ifm.depth > 1u;
  int status = check_block_operation(m, op, err);
  if (status != LOUPE_ETHOSU_OK) return status;
  if (op->sub_kind > LOUPE_ETHOSU_pooling_mode_REDUCE_SUM) return invalid(err, op, "pooling mode");
  if (!reduce_channels && op->ifm.depth < op->ofm.depth) {
    return invalid(err, op, "IFM shallower than its OFM");
  }
  if ((status = fm_open(m, &op->ifm, "IFM", &ifm, err)) != LOUPE_ETHOSU_OK) return status;
  if ((status = fm_open(m, &op->ofm, "OFM", &ofm, err)) != LOUPE_ETHOSU_OK) return status;
  for (oy = 0; oy < op->ofm.height; ++oy) {
    for (ox = 0; ox < op->ofm.width; ++ox) {
      for (c = 0; c < op->ofm.depth; ++c) {
        int64_t sum = 0, raw_sum = 0, best = 0, result;
        uint32_t count = 0, ky, kx;
        for (ky = 0; ky < op->kernel_height; ky += op->dilation_y) {
          int64_t iy = (int64_t)oy * op->stride_y - op->pad_top + ky;
          if (iy < 0 || iy >= (int64_t)op->ifm.height) continue;
          for (kx = 0; kx < op->kernel_width; kx += op->dilation_x) {
            int64_t ix = (int64_t)ox * op->stride_x - op->pad_left + kx;
            uint32_t ic, ic_end = reduce_channels ? op->ifm.depth : c + 1u;
            if (ix < 0 || ix >= (int64_t)op->ifm.width) continue;
            for (ic = reduce_channels ? 0u : c; ic < ic_end; ++ic) {
              int64_t v;
              status = ifm_read(&ifm, op, (uint32_t)iy, (uint32_t)ix, ic, &v, err);
              if (status != LOUPE_ETHOSU_OK) return status;
              if (count == 0 || v > best) best = v;
              raw_sum = add_saturated(raw_sum, v);
              sum = add_saturated(sum, v - op->ifm.zero_point);
              ++count;
            }
          }
        }
        switch (op->sub_kind) {
          case LOUPE_ETHOSU_pooling_mode_MAX:
            result = (count == 0 ? op->ifm.zero_point : best) - op->ifm.zero_point;
            if (op->ofm_scale_mode == LOUPE_ETHOSU_ofm_scale_mode_GLOBAL) {
              result =
                  loupe_ethosu_scale(result, op->ofm_scale, !is32, op->ofm_shift, op->round_mode);
            }
            break;
          case LOUPE_ETHOSU_pooling_mode_AVERAGE:
            if (op->ofm_scale_mode == LOUPE_ETHOSU_ofm_scale_mode_GLOBAL) {
              result = loupe_ethosu_scale(sum, op->ofm_scale, !is32, op->ofm_shift, op->round_mode);
            } else {
              /* Without a global scale the NPU divides by the elements
               * inside the IFM, rounding as TFLite's average pool does. */
              int64_t half = count / 2u;
              if (count == 0) {
                result = 0;
              } else {
                result = raw_sum > 0 ? (raw_sum + half) / (int64_t)count
                                     : (raw_sum - half) / (int64_t)count;
                result -= op->ifm.zero_point;
              }
            }
            break;
          default: /* REDUCE_SUM */
            result = sum;
            if (op->ofm_scale_mode == LOUPE_ETHOSU_ofm_scale_mode_GLOBAL) {
              result = loupe_ethosu_scale(sum, op->ofm_scale, !is32, op->ofm_shift, op->round_mode);
            }
            break;
        }
        status = output_stage(m, op, result, &result, err);
        if (status != LOUPE_ETHOSU_OK) return status;
        status = fm_write(&ofm, oy, ox, c, result, err);
        if (status != LOUPE_ETHOSU_OK) return status;
      }
    }
  }
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * Elementwise */

static uint32_t count_leading_zeros(uint32_t v) {
  uint32_t n = 0;
  if (v == 0) return 32;
  while (!(v & 0x80000000u)) {
    v <<= 1;
    ++n;
  }
  return n;
}

static int is_unary(uint32_t mode) {
  return mode == LOUPE_ETHOSU_elementwise_mode_ABS || mode == LOUPE_ETHOSU_elementwise_mode_LRELU ||
         mode == LOUPE_ETHOSU_elementwise_mode_CLZ;
}

/* One ADD/SUB operand pair brought to a common scale. */
static void rescale_add_operands(const loupe_ethosu_operation* op, int64_t* a, int64_t* b) {
  if (op->ifm_scale_mode == LOUPE_ETHOSU_ifm_scale_mode_OPA_OPB_16) {
    *a *= (int64_t)(op->opa_scale & 0xFFFFu);
    *b *= (int64_t)(op->opb_scale & 0xFFFFu);
  } else {
    /* As TFLite's ADD: both left-shifted, one scaled with the 32-bit
     * operand scale, the other by one half (the shift less one). */
    unsigned left = op->ifm.precision_bits == 16u ? 15u : 20u;
    int64_t* scaled = op->ifm_scale_mode == LOUPE_ETHOSU_ifm_scale_mode_OPA_32 ? a : b;
    int64_t* other = scaled == a ? b : a;
    *scaled =
        wide_to_i64_saturated(round_shift(wide_mul(*scaled * ((int64_t)1 << left), op->opa_scale),
                                          (unsigned)op->opa_shift + left, op->round_mode));
    *other *= (int64_t)1 << (left - 1u);
  }
}

static int run_elementwise(loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                           loupe_ethosu_error* err) {
  fm_view ifm, ifm2, ofm;
  uint32_t mode = op->sub_kind;
  int unary = is_unary(mode);
  int is32 = op->ifm.precision_bits == 32u;
  uint32_t y, x, c;
  int status = check_block_operation(m, op, err);
  if (status != LOUPE_ETHOSU_OK) return status;
  if (mode > LOUPE_ETHOSU_elementwise_mode_SHL) return invalid(err, op, "elementwise mode");
  if ((status = fm_open(m, &op->ifm, "IFM", &ifm, err)) != LOUPE_ETHOSU_OK) return status;
  if ((status = fm_open(m, &op->ofm, "OFM", &ofm, err)) != LOUPE_ETHOSU_OK) return status;
  if (!unary && !op->ifm2_is_scalar) {
    if ((status = fm_open(m, &op->ifm2, "IFM2", &ifm2, err)) != LOUPE_ETHOSU_OK) return status;
  }
  for (y = 0; y < op->ofm.height; ++y) {
    for (x = 0; x < op->ofm.width; ++x) {
      for (c = 0; c < op->ofm.depth; ++c) {
        int64_t a, b = 0, r;
        status = fm_read(&ifm, y, x, c, &a, "IFM", err);
        if (status != LOUPE_ETHOSU_OK) return status;
        a -= op->ifm.zero_point;
        if (!unary) {
          if (op->ifm2_is_scalar) {
            b = op->ifm2_scalar;
          } else {
            status = fm_read(&ifm2, op->ifm2_broadcast_h ? 0u : y, op->ifm2_broadcast_w ? 0u : x,
                             op->ifm2_broadcast_c ? 0u : c, &b, "IFM2", err);
            if (status != LOUPE_ETHOSU_OK) return status;
          }
          b -= op->ifm2.zero_point;
          if (op->ifm2_reversed) {
            /* IFM2 is the first operand. */
            int64_t t = a;
            a = b;
            b = t;
          }
        }
        switch (mode) {
          case LOUPE_ETHOSU_elementwise_mode_ADD:
          case LOUPE_ETHOSU_elementwise_mode_SUB:
            rescale_add_operands(op, &a, &b);
            r = mode == LOUPE_ETHOSU_elementwise_mode_ADD
                    ? add_saturated(a, b)
                    : add_saturated(a, b == INT64_MIN ? INT64_MAX : -b);
            break;
          case LOUPE_ETHOSU_elementwise_mode_MUL:
            r = a * b;
            break;
          case LOUPE_ETHOSU_elementwise_mode_MIN:
            r = a < b ? a : b;
            break;
          case LOUPE_ETHOSU_elementwise_mode_MAX:
            r = a > b ? a : b;
            break;
          case LOUPE_ETHOSU_elementwise_mode_ABS:
            r = a < 0 ? -a : a;
            break;
          case LOUPE_ETHOSU_elementwise_mode_LRELU:
            r = a < 0 ? loupe_ethosu_scale(a, op->ofm_scale, 1, op->ofm_shift, op->round_mode) : a;
            break;
          case LOUPE_ETHOSU_elementwise_mode_CLZ:
            r = count_leading_zeros((uint32_t)a);
            break;
          case LOUPE_ETHOSU_elementwise_mode_SHL: {
            int64_t s = b < 0 ? 0 : b > 31 ? 31 : b;
            r = (int64_t)(int32_t)((uint32_t)a << s);
            break;
          }
          default: { /* SHR: the OFM rounding mode rounds the shift */
            int64_t s = b < 0 ? 0 : b > 63 ? 63 : b;
            r = wide_to_i64_saturated(round_shift(wide_from(a), (unsigned)s, op->round_mode));
            break;
          }
        }
        if (op->ofm_scale_mode == LOUPE_ETHOSU_ofm_scale_mode_GLOBAL &&
            mode != LOUPE_ETHOSU_elementwise_mode_LRELU) {
          r = loupe_ethosu_scale(r, op->ofm_scale, !is32, op->ofm_shift, op->round_mode);
        }
        status = output_stage(m, op, r, &r, err);
        if (status != LOUPE_ETHOSU_OK) return status;
        status = fm_write(&ofm, y, x, c, r, err);
        if (status != LOUPE_ETHOSU_OK) return status;
      }
    }
  }
  return LOUPE_ETHOSU_OK;
}

/* ---------------------------------------------------------------------------
 * DMA */

static int run_dma(loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                   loupe_ethosu_error* err) {
  const uint8_t* src;
  uint8_t* dst;
  if (op->dma_src_stride_mode != 0 || op->dma_dst_stride_mode != 0) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED, "DMA: only 1D transfers are modelled");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  if (op->dma_src_internal) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNSUPPORTED, "DMA: reading SHRAM not modelled");
    return LOUPE_ETHOSU_ERR_UNSUPPORTED;
  }
  src = region_bytes(m, op->dma_src_region, op->dma_src, op->dma_length, "DMA source", err);
  if (src == NULL) return err != NULL ? err->code : LOUPE_ETHOSU_ERR_ADDRESS;
  if (op->dma_dst_internal) {
    /* Into SHRAM: Vela only moves lookup tables there. */
    uint64_t start = m->config.lut_shram_address;
    if (op->dma_dst < start || op->dma_dst - start > LOUPE_ETHOSU_LUT_BYTES ||
        op->dma_length > LOUPE_ETHOSU_LUT_BYTES - (op->dma_dst - start)) {
      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ADDRESS, "DMA into SHRAM: bytes [");
      loupe_ethosu_append_hex(err, op->dma_dst);
      loupe_ethosu_append(err, ", +");
      loupe_ethosu_append_u(err, op->dma_length);
      loupe_ethosu_append(err, ") outside the lookup-table area at ");
      loupe_ethosu_append_hex(err, start);
      return LOUPE_ETHOSU_ERR_ADDRESS;
    }
    memmove(m->lut + (op->dma_dst - start), src, (size_t)op->dma_length);
    return LOUPE_ETHOSU_OK;
  }
  dst = region_bytes(m, op->dma_dst_region, op->dma_dst, op->dma_length, "DMA destination", err);
  if (dst == NULL) return err != NULL ? err->code : LOUPE_ETHOSU_ERR_ADDRESS;
  memmove(dst, src, (size_t)op->dma_length);
  return LOUPE_ETHOSU_OK;
}

int loupe_ethosu_execute(loupe_ethosu_machine* m, const loupe_ethosu_operation* op,
                         loupe_ethosu_error* err) {
  if (m == NULL || op == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "execute: null pointer");
  }
  switch (op->kind) {
    case LOUPE_ETHOSU_OPERATION_CONV:
    case LOUPE_ETHOSU_OPERATION_DEPTHWISE:
      return run_convolution(m, op, err);
    case LOUPE_ETHOSU_OPERATION_POOL:
      return run_pooling(m, op, err);
    case LOUPE_ETHOSU_OPERATION_ELEMENTWISE:
      return run_elementwise(m, op, err);
    case LOUPE_ETHOSU_OPERATION_DMA:
      return run_dma(m, op, err);
    default: /* operations run in order: waits have nothing to wait for */
      return LOUPE_ETHOSU_OK;
  }
}
