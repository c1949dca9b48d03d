/*
 * The register command stream decoder (loupe/ethosu/ethosu_command_stream.h).
 * Every field is read through the register table of ethosu_registers.h.
 */
#include <loupe/ethosu/ethosu_command_stream.h>
#include <loupe/little_endian.h>
#include <string.h>

void loupe_ethosu_command_decoder_init(loupe_ethosu_command_decoder* d, const void* words,
                                       uint32_t word_count) {
  if (d == NULL) return;
  memset(d, 0, sizeof(*d));
  d->words = (const uint8_t*)words;
  d->word_count = words == NULL ? 0u : word_count;
}

/* A command's parameter as the upper half of its first word, its payload as
 * the second word: the two words the register table's positions count in. */
#define CMD0_WORD(d, name) ((uint32_t)(d)->cmd0[LOUPE_ETHOSU_##name & 0x3FF] << 16)
#define CMD1_WORD0(d, name) ((uint32_t)(d)->cmd1_param[LOUPE_ETHOSU_##name & 0x3FF] << 16)
#define CMD1_WORD1(d, name) ((d)->cmd1[LOUPE_ETHOSU_##name & 0x3FF])
#define F0(d, name, field) LOUPE_ETHOSU_GET(name, field, CMD0_WORD(d, name), 0u)
#define F0S(d, name, field) LOUPE_ETHOSU_GET_SIGNED(name, field, CMD0_WORD(d, name), 0u)
#define F1(d, name, field) LOUPE_ETHOSU_GET(name, field, CMD1_WORD0(d, name), CMD1_WORD1(d, name))
#define ADDRESS(d, name) address_of(d, LOUPE_ETHOSU_##name & 0x3FF)

/* A cmd1 address (base or stride): the payload word, and on the U65 the 8
 * high bits in the parameter. Every address command has the fields of
 * LOUPE_ETHOSU_ADDRESS_FIELDS, so IFM_BASE0's positions stand for all. */
static uint64_t address_of(const loupe_ethosu_command_decoder* d, uint32_t opcode) {
  uint32_t word0 = (uint32_t)d->cmd1_param[opcode] << 16;
  uint32_t word1 = d->cmd1[opcode];
  return ((uint64_t)LOUPE_ETHOSU_GET(NPU_SET_IFM_BASE0, addr_hi, word0, word1) << 32) |
         (uint64_t)LOUPE_ETHOSU_GET(NPU_SET_IFM_BASE0, addr, word0, word1);
}

static uint8_t precision_bits(uint32_t precision) {
  return (uint8_t)(8u << precision);
}

/* One cmd0 field of the register table, as data: which register, where. A
 * width of 0 stands for a register the feature map does not have. */
typedef struct register_field {
  uint16_t opcode;
  uint8_t lsb, width;
} register_field;

#define FIELD_OF(cmd, field)                                                              \
  {                                                                                       \
    (uint16_t)(LOUPE_ETHOSU_##cmd & 0x3FF), (uint8_t)LOUPE_ETHOSU_##cmd##__##field##_LSB, \
        (uint8_t)LOUPE_ETHOSU_##cmd##__##field##_WIDTH                                    \
  }
#define NO_FIELD \
  { 0, 0, 0 }

/* The registers that describe one feature map. IFM, IFM2 and OFM have the
 * same set at other opcodes (and IFM2's precision at other bits), less the
 * extents the NPU derives: the IFM has only its depth, IFM2 none. */
typedef struct feature_map_registers {
  register_field region, type, precision, format, zero_point;
  register_field height0_m1, height1_m1, width0_m1;
  register_field height_m1, width_m1, depth_m1;
  uint16_t base[4], stride_x, stride_y, stride_c; /* cmd1 opcodes */
} feature_map_registers;

#define FEATURE_MAP_REGISTERS(FM, height, width, depth)                                           \
  {                                                                                               \
    FIELD_OF(NPU_SET_##FM##_REGION, region), FIELD_OF(NPU_SET_##FM##_PRECISION, activation_type), \
        FIELD_OF(NPU_SET_##FM##_PRECISION, activation_precision),                                 \
        FIELD_OF(NPU_SET_##FM##_PRECISION, activation_format),                                    \
        FIELD_OF(NPU_SET_##FM##_ZERO_POINT, zero_point),                                          \
        FIELD_OF(NPU_SET_##FM##_HEIGHT0_M1, height_m1),                                           \
        FIELD_OF(NPU_SET_##FM##_HEIGHT1_M1, height_m1),                                           \
        FIELD_OF(NPU_SET_##FM##_WIDTH0_M1, width_m1), height, width, depth,                       \
        {(uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_BASE0 & 0x3FF),                                   \
         (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_BASE1 & 0x3FF),                                   \
         (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_BASE2 & 0x3FF),                                   \
         (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_BASE3 & 0x3FF)},                                  \
        (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_STRIDE_X & 0x3FF),                                 \
        (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_STRIDE_Y & 0x3FF),                                 \
        (uint16_t)(LOUPE_ETHOSU_NPU_SET_##FM##_STRIDE_C & 0x3FF)                                  \
  }

static const feature_map_registers ifm_registers =
    FEATURE_MAP_REGISTERS(IFM, NO_FIELD, NO_FIELD, FIELD_OF(NPU_SET_IFM_DEPTH_M1, depth_m1));
static const feature_map_registers ifm2_registers =
    FEATURE_MAP_REGISTERS(IFM2, NO_FIELD, NO_FIELD, NO_FIELD);
static const feature_map_registers ofm_registers = FEATURE_MAP_REGISTERS(
    OFM, FIELD_OF(NPU_SET_OFM_HEIGHT_M1, height_m1), FIELD_OF(NPU_SET_OFM_WIDTH_M1, width_m1),
    FIELD_OF(NPU_SET_OFM_DEPTH_M1, depth_m1));

static uint32_t field_of(const loupe_ethosu_command_decoder* d, const register_field* f) {
  return loupe_ethosu_field_get((uint32_t)d->cmd0[f->opcode] << 16, 0u, f->lsb, f->width);
}

/* An extent register holds the extent less one; one the map lacks is left
 * as it is (0), for the caller to derive. */
static void set_extent(const loupe_ethosu_command_decoder* d, const register_field* f,
                       uint32_t* extent) {
  if (f->width != 0u) *extent = field_of(d, f) + 1u;
}

static void decode_feature_map(const loupe_ethosu_command_decoder* d,
                               const feature_map_registers* r, loupe_ethosu_feature_map* f) {
  uint32_t i;
  f->region = (uint8_t)field_of(d, &r->region);
  f->precision_bits = precision_bits(field_of(d, &r->precision));
  f->is_signed = (uint8_t)field_of(d, &r->type);
  f->layout = (uint8_t)field_of(d, &r->format);
  f->zero_point = loupe_ethosu_field_get_signed((uint32_t)d->cmd0[r->zero_point.opcode] << 16, 0u,
                                                r->zero_point.lsb, r->zero_point.width);
  set_extent(d, &r->height_m1, &f->height);
  set_extent(d, &r->width_m1, &f->width);
  set_extent(d, &r->depth_m1, &f->depth);
  set_extent(d, &r->height0_m1, &f->height0);
  set_extent(d, &r->height1_m1, &f->height1);
  set_extent(d, &r->width0_m1, &f->width0);
  for (i = 0; i < 4u; ++i) f->base[i] = address_of(d, r->base[i]);
  f->stride_x = address_of(d, r->stride_x);
  f->stride_y = address_of(d, r->stride_y);
  f->stride_c = address_of(d, r->stride_c);
}

/* The IFM extent a kernel operation reads: what the OFM, kernel, stride and
 * padding imply (the NPU holds no IFM height or width register). */
static uint32_t implied_extent(uint32_t ofm, uint32_t stride, uint32_t kernel, uint32_t pad_a,
                               uint32_t pad_b) {
  int64_t n = (int64_t)(ofm - 1u) * stride + kernel - pad_a - pad_b;
  return n < 0 ? 0u : (uint32_t)n;
}

static void decode_block_operation(const loupe_ethosu_command_decoder* d,
                                   loupe_ethosu_operation* op) {
  uint32_t stride;
  decode_feature_map(d, &ifm_registers, &op->ifm);
  decode_feature_map(d, &ofm_registers, &op->ofm);
  op->ifm_scale_mode = (uint8_t)F0(d, NPU_SET_IFM_PRECISION, scale_mode);
  op->ifm_round_mode = (uint8_t)F0(d, NPU_SET_IFM_PRECISION, round_mode);
  op->ofm_scale_mode = (uint8_t)F0(d, NPU_SET_OFM_PRECISION, scale_mode);
  op->round_mode = (uint8_t)F0(d, NPU_SET_OFM_PRECISION, round_mode);
  op->ifm_upscale = (uint8_t)F0(d, NPU_SET_IFM_UPSCALE, mode);

  op->activation_function = (uint8_t)F0(d, NPU_SET_ACTIVATION, activation_function);
  op->activation_clip_range = (uint8_t)F0(d, NPU_SET_ACTIVATION, activation_clip_range);
  op->activation_min = F0S(d, NPU_SET_ACTIVATION_MIN, clip_boundary);
  op->activation_max = F0S(d, NPU_SET_ACTIVATION_MAX, clip_boundary);

  op->block_width = F0(d, NPU_SET_OFM_BLK_WIDTH_M1, width_m1) + 1u;
  op->block_height = F0(d, NPU_SET_OFM_BLK_HEIGHT_M1, height_m1) + 1u;
  op->block_depth = F0(d, NPU_SET_OFM_BLK_DEPTH_M1, depth_m1) + 1u;
  op->ib_end = (uint8_t)F0(d, NPU_SET_IFM_IB_END, ib_end);
  op->ab_start = (uint8_t)F0(d, NPU_SET_AB_START, ab_start);
  op->ib_start2 = (uint8_t)F0(d, NPU_SET_IFM2_IB_START, ib_start);
  op->acc_format = (uint8_t)F0(d, NPU_SET_ACC_FORMAT, acc_format);
  op->blockdep = (uint8_t)F0(d, NPU_SET_BLOCKDEP, blockdep);
  op->parallel_mode = (uint8_t)F0(d, NPU_SET_PARALLEL_MODE, parallel_mode);

  op->ofm_scale = F1(d, NPU_SET_OFM_SCALE, scale);
  op->ofm_shift = (uint8_t)F1(d, NPU_SET_OFM_SCALE, shift);
  op->opa_scale = F1(d, NPU_SET_OPA_SCALE, scale);
  op->opa_shift = (uint8_t)F1(d, NPU_SET_OPA_SCALE, shift);
  op->opb_scale = F1(d, NPU_SET_OPB_SCALE, scale);

  if (op->kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE) {
    /* No kernel: IFM and IFM2 cover the OFM, IFM2 less its broadcast axes. */
    op->kernel_width = op->kernel_height = 1;
    op->stride_x = op->stride_y = op->dilation_x = op->dilation_y = 1;
    op->ifm.height = op->ofm.height;
    op->ifm.width = op->ofm.width;
    op->ifm2_broadcast_h = (uint8_t)F0(d, NPU_SET_IFM2_BROADCAST, broadcast_h);
    op->ifm2_broadcast_w = (uint8_t)F0(d, NPU_SET_IFM2_BROADCAST, broadcast_w);
    op->ifm2_broadcast_c = (uint8_t)F0(d, NPU_SET_IFM2_BROADCAST, broadcast_c);
    op->ifm2_reversed = (uint8_t)F0(d, NPU_SET_IFM2_BROADCAST, operand_order);
    op->ifm2_is_scalar = (uint8_t)F0(d, NPU_SET_IFM2_BROADCAST, broadcast_constant);
    op->ifm2_scalar = F0S(d, NPU_SET_IFM2_SCALAR, scalar);
    decode_feature_map(d, &ifm2_registers, &op->ifm2);
    op->ifm2.height = op->ifm2_broadcast_h ? 1u : op->ofm.height;
    op->ifm2.width = op->ifm2_broadcast_w ? 1u : op->ofm.width;
    op->ifm2.depth = op->ifm2_broadcast_c ? 1u : op->ofm.depth;
    return;
  }

  op->kernel_width = F0(d, NPU_SET_KERNEL_WIDTH_M1, width_m1) + 1u;
  op->kernel_height = F0(d, NPU_SET_KERNEL_HEIGHT_M1, height_m1) + 1u;
  stride = CMD0_WORD(d, NPU_SET_KERNEL_STRIDE);
  op->stride_x =
      (uint8_t)((LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, stride_x_lsb, stride, 0u) |
                 (LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, stride_x_msb, stride, 0u) << 1)) +
                1u);
  op->stride_y =
      (uint8_t)((LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, stride_y_lsb, stride, 0u) |
                 (LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, stride_y_msb, stride, 0u) << 1)) +
                1u);
  op->dilation_x = (uint8_t)(LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, dilation_x, stride, 0u) + 1u);
  op->dilation_y = (uint8_t)(LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, dilation_y, stride, 0u) + 1u);
  op->part_kernel_first =
      (uint8_t)LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, weight_order, stride, 0u);
  op->decomposition = (uint8_t)LOUPE_ETHOSU_GET(NPU_SET_KERNEL_STRIDE, decomposition, stride, 0u);
  op->pad_top = F0(d, NPU_SET_IFM_PAD_TOP, pad);
  op->pad_left = F0(d, NPU_SET_IFM_PAD_LEFT, pad);
  op->pad_bottom = F0(d, NPU_SET_IFM_PAD_BOTTOM, pad);
  op->pad_right = F0(d, NPU_SET_IFM_PAD_RIGHT, pad);
  op->ifm.height =
      implied_extent(op->ofm.height, op->stride_y, op->kernel_height, op->pad_top, op->pad_bottom);
  op->ifm.width =
      implied_extent(op->ofm.width, op->stride_x, op->kernel_width, op->pad_left, op->pad_right);

  if (op->kind == LOUPE_ETHOSU_OPERATION_CONV || op->kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE) {
    uint8_t weight_region = (uint8_t)F0(d, NPU_SET_WEIGHT_REGION, region);
    uint8_t scale_region = (uint8_t)F0(d, NPU_SET_SCALE_REGION, region);
    op->weight_streams = 1;
    op->weights[0].region = weight_region;
    op->weights[0].base = ADDRESS(d, NPU_SET_WEIGHT_BASE);
    op->weights[0].length = F1(d, NPU_SET_WEIGHT_LENGTH, length);
    op->scales[0].region = scale_region;
    op->scales[0].base = ADDRESS(d, NPU_SET_SCALE_BASE);
    op->scales[0].length = F1(d, NPU_SET_SCALE_LENGTH, length);
    op->weights[1].region = weight_region;
    op->weights[1].base = ADDRESS(d, NPU_SET_WEIGHT1_BASE);
    op->weights[1].length = F1(d, NPU_SET_WEIGHT1_LENGTH, length);
    op->scales[1].region = scale_region;
    op->scales[1].base = ADDRESS(d, NPU_SET_SCALE1_BASE);
    op->scales[1].length = F1(d, NPU_SET_SCALE1_LENGTH, length);
    if (op->weights[1].length != 0u) op->weight_streams = 2;
  }
}

static void decode_dma(const loupe_ethosu_command_decoder* d, loupe_ethosu_operation* op) {
  op->dma_src_region = (uint8_t)F0(d, NPU_SET_DMA0_SRC_REGION, region);
  op->dma_src_internal = (uint8_t)F0(d, NPU_SET_DMA0_SRC_REGION, region_mode);
  op->dma_src_stride_mode = (uint8_t)F0(d, NPU_SET_DMA0_SRC_REGION, stride_mode);
  op->dma_dst_region = (uint8_t)F0(d, NPU_SET_DMA0_DST_REGION, region);
  op->dma_dst_internal = (uint8_t)F0(d, NPU_SET_DMA0_DST_REGION, region_mode);
  op->dma_dst_stride_mode = (uint8_t)F0(d, NPU_SET_DMA0_DST_REGION, stride_mode);
  op->dma_src = ADDRESS(d, NPU_SET_DMA0_SRC);
  op->dma_dst = ADDRESS(d, NPU_SET_DMA0_DST);
  op->dma_length = ADDRESS(d, NPU_SET_DMA0_LEN);
  op->dma_skip0 = ADDRESS(d, NPU_SET_DMA0_SKIP0);
  op->dma_skip1 = ADDRESS(d, NPU_SET_DMA0_SKIP1);
  op->dma_size0 = F0(d, NPU_SET_DMA0_SIZE0, size);
  op->dma_size1 = F0(d, NPU_SET_DMA0_SIZE1, size);
}

int loupe_ethosu_command_decoder_next(loupe_ethosu_command_decoder* d, loupe_ethosu_operation* op,
                                      loupe_ethosu_error* err) {
  uint32_t entry;
  if (d == NULL || op == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "command stream: null pointer");
  }
  if (d->stopped) return 0;
  entry = d->position;
  while (d->position < d->word_count) {
    uint32_t at = d->position;
    uint32_t word = loupe_le_u32(d->words + 4u * at);
    uint32_t code = word & (LOUPE_ETHOSU_CONTROL_MASK | LOUPE_ETHOSU_OPCODE_MASK);
    uint32_t opcode = word & LOUPE_ETHOSU_OPCODE_MASK;
    uint16_t param = (uint16_t)(word >> 16);
    if (loupe_ethosu_find_command(code) == NULL) {
      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND, "command stream: unknown command ");
      loupe_ethosu_append_hex(err, word);
      loupe_ethosu_append(err, " at word ");
      loupe_ethosu_append_u(err, at);
      return LOUPE_ETHOSU_ERR_UNKNOWN_COMMAND;
    }
    if (code & LOUPE_ETHOSU_CMD1_FLAG) {
      if (at + 1u >= d->word_count) {
        loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_STREAM_TRUNCATED,
                          "command stream: cmd1 without its payload word at word ");
        loupe_ethosu_append_u(err, at);
        return LOUPE_ETHOSU_ERR_STREAM_TRUNCATED;
      }
      d->cmd1[opcode] = loupe_le_u32(d->words + 4u * (at + 1u));
      d->cmd1_param[opcode] = param;
      d->position += 2;
      continue;
    }
    d->position += 1;
    if (opcode >= 0x100u) {
      d->cmd0[opcode] = param;
      continue;
    }
    /* An NPU_OP_* word: one operation with the registers as they are. */
    memset(op, 0, sizeof(*op));
    op->index = d->operations++;
    op->end_word = d->position;
    switch (code) {
      case LOUPE_ETHOSU_NPU_OP_STOP:
        op->kind = LOUPE_ETHOSU_OPERATION_STOP;
        d->stopped = 1;
        break;
      case LOUPE_ETHOSU_NPU_OP_IRQ:
        op->kind = LOUPE_ETHOSU_OPERATION_IRQ;
        break;
      case LOUPE_ETHOSU_NPU_OP_CONV:
        op->kind = LOUPE_ETHOSU_OPERATION_CONV;
        decode_block_operation(d, op);
        break;
      case LOUPE_ETHOSU_NPU_OP_DEPTHWISE:
        op->kind = LOUPE_ETHOSU_OPERATION_DEPTHWISE;
        decode_block_operation(d, op);
        break;
      case LOUPE_ETHOSU_NPU_OP_POOL:
        op->kind = LOUPE_ETHOSU_OPERATION_POOL;
        op->sub_kind = (uint8_t)LOUPE_ETHOSU_GET(NPU_OP_POOL, pooling_mode, word, 0u);
        decode_block_operation(d, op);
        break;
      case LOUPE_ETHOSU_NPU_OP_ELEMENTWISE:
        op->kind = LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
        op->sub_kind = (uint8_t)LOUPE_ETHOSU_GET(NPU_OP_ELEMENTWISE, elementwise_mode, word, 0u);
        decode_block_operation(d, op);
        break;
      case LOUPE_ETHOSU_NPU_OP_DMA_START:
        op->kind = LOUPE_ETHOSU_OPERATION_DMA;
        op->sub_kind = (uint8_t)(param & 0xFFu);
        decode_dma(d, op);
        break;
      case LOUPE_ETHOSU_NPU_OP_DMA_WAIT:
        op->kind = LOUPE_ETHOSU_OPERATION_DMA_WAIT;
        op->sub_kind = (uint8_t)LOUPE_ETHOSU_GET(NPU_OP_DMA_WAIT, k, word, 0u);
        break;
      case LOUPE_ETHOSU_NPU_OP_KERNEL_WAIT:
        op->kind = LOUPE_ETHOSU_OPERATION_KERNEL_WAIT;
        op->sub_kind = (uint8_t)LOUPE_ETHOSU_GET(NPU_OP_KERNEL_WAIT, n, word, 0u);
        break;
      default: /* NPU_OP_PMU_MASK: the table knows no other cmd0 below 0x100 */
        op->kind = LOUPE_ETHOSU_OPERATION_PMU_MASK;
        op->sub_kind = (uint8_t)LOUPE_ETHOSU_GET(NPU_OP_PMU_MASK, enable, word, 0u);
        break;
    }
    /* The words since the last operation that does work set up the next
     * such one: a wait (or IRQ, PMU mask) among them keeps only its own word
     * and leaves the group open, since Vela puts a wait just before the
     * operation that needs it, among that operation's register writes. */
    if (loupe_ethosu_operation_is_control(op)) {
      op->first_word = at;
    } else {
      op->first_word = d->group_start;
      d->group_start = d->position;
    }
    return 1;
  }
  if (entry != d->word_count) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_STREAM_TRUNCATED,
                      "command stream: ends without NPU_OP_STOP after word ");
    loupe_ethosu_append_u(err, entry);
    return LOUPE_ETHOSU_ERR_STREAM_TRUNCATED;
  }
  return 0;
}

int loupe_ethosu_command_stream_walk(const void* words, uint32_t word_count,
                                     loupe_ethosu_command_decoder* decoder,
                                     loupe_ethosu_operation* op,
                                     loupe_ethosu_operation_visitor visit, void* user,
                                     loupe_ethosu_error* err) {
  int status;
  if (decoder == NULL || op == NULL || visit == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "command stream: null pointer");
  }
  loupe_ethosu_command_decoder_init(decoder, words, word_count);
  while ((status = loupe_ethosu_command_decoder_next(decoder, op, err)) == 1) {
    int r = visit(user, op);
    if (r != 0) return r;
  }
  return status;
}

int loupe_ethosu_operation_is_control(const loupe_ethosu_operation* op) {
  return op != NULL &&
         (op->kind == LOUPE_ETHOSU_OPERATION_DMA_WAIT ||
          op->kind == LOUPE_ETHOSU_OPERATION_KERNEL_WAIT ||
          op->kind == LOUPE_ETHOSU_OPERATION_IRQ || op->kind == LOUPE_ETHOSU_OPERATION_PMU_MASK);
}

const char* loupe_ethosu_operation_name(const loupe_ethosu_operation* op) {
  static const char* const pool[] = {"POOL MAX", "POOL AVERAGE", "POOL REDUCE_SUM"};
  static const char* const elementwise[] = {
      "ELEMENTWISE MUL", "ELEMENTWISE ADD",   "ELEMENTWISE SUB", "ELEMENTWISE MIN",
      "ELEMENTWISE MAX", "ELEMENTWISE LRELU", "ELEMENTWISE ABS", "ELEMENTWISE CLZ",
      "ELEMENTWISE SHR", "ELEMENTWISE SHL"};
  if (op == NULL) return "?";
  switch (op->kind) {
    case LOUPE_ETHOSU_OPERATION_STOP:
      return "STOP";
    case LOUPE_ETHOSU_OPERATION_IRQ:
      return "IRQ";
    case LOUPE_ETHOSU_OPERATION_CONV:
      return "CONV";
    case LOUPE_ETHOSU_OPERATION_DEPTHWISE:
      return "DEPTHWISE";
    case LOUPE_ETHOSU_OPERATION_POOL:
      return op->sub_kind < 3 ? pool[op->sub_kind] : "POOL ?";
    case LOUPE_ETHOSU_OPERATION_ELEMENTWISE:
      return op->sub_kind < 10 ? elementwise[op->sub_kind] : "ELEMENTWISE ?";
    case LOUPE_ETHOSU_OPERATION_DMA:
      return "DMA";
    case LOUPE_ETHOSU_OPERATION_DMA_WAIT:
      return "DMA_WAIT";
    case LOUPE_ETHOSU_OPERATION_KERNEL_WAIT:
      return "KERNEL_WAIT";
    case LOUPE_ETHOSU_OPERATION_PMU_MASK:
      return "PMU_MASK";
    default:
      return "?";
  }
}
