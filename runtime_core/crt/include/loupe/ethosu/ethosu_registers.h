/*
 * The Arm Ethos-U55/U65 command words, described once: every command's
 * opcode, every field's bit position and width, and the names of the values
 * an enumerated field takes. The decoder (ethosu_command_stream.c), the C++
 * listing of the Command Stream view, a stream encoder in the tests and the
 * fuzz grammar all expand these tables, so they cannot disagree.
 *
 * A command is one 32-bit word (cmd0: opcode in bits 0-9, bits 14-15 zero,
 * a 16-bit parameter in bits 16-31) or two (cmd1: bit 14 set, a 16-bit
 * parameter and a 32-bit payload word). Field positions below count bits of
 * the command as one 64-bit little-endian value: 16..31 is the parameter,
 * 32..63 the payload of a cmd1. Facts from Arm's ethosu55_interface.h and
 * ethos_u65_interface.h (hal_ethos_u) and Vela's ethos_u55_regs.py.
 *
 * Plain C99 and C++ (no designated initialisers, no compound literals).
 */
#ifndef LOUPE_ETHOSU_REGISTERS_H_
#define LOUPE_ETHOSU_REGISTERS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOUPE_ETHOSU_CMD1_FLAG 0x4000u   /* bit 14 of the first word: a payload word follows */
#define LOUPE_ETHOSU_OPCODE_MASK 0x03FFu /* bits 0-9 */
#define LOUPE_ETHOSU_CONTROL_MASK 0xC000u

/* X(KIND, NAME, OPCODE): KIND is CMD0 or CMD1; OPCODE is bits 0-9. */
#define LOUPE_ETHOSU_COMMANDS(X)            \
  X(CMD0, NPU_OP_STOP, 0x000)               \
  X(CMD0, NPU_OP_IRQ, 0x001)                \
  X(CMD0, NPU_OP_CONV, 0x002)               \
  X(CMD0, NPU_OP_DEPTHWISE, 0x003)          \
  X(CMD0, NPU_OP_POOL, 0x005)               \
  X(CMD0, NPU_OP_ELEMENTWISE, 0x006)        \
  X(CMD0, NPU_OP_DMA_START, 0x010)          \
  X(CMD0, NPU_OP_DMA_WAIT, 0x011)           \
  X(CMD0, NPU_OP_KERNEL_WAIT, 0x012)        \
  X(CMD0, NPU_OP_PMU_MASK, 0x013)           \
  X(CMD0, NPU_SET_IFM_PAD_TOP, 0x100)       \
  X(CMD0, NPU_SET_IFM_PAD_LEFT, 0x101)      \
  X(CMD0, NPU_SET_IFM_PAD_RIGHT, 0x102)     \
  X(CMD0, NPU_SET_IFM_PAD_BOTTOM, 0x103)    \
  X(CMD0, NPU_SET_IFM_DEPTH_M1, 0x104)      \
  X(CMD0, NPU_SET_IFM_PRECISION, 0x105)     \
  X(CMD0, NPU_SET_IFM_UPSCALE, 0x107)       \
  X(CMD0, NPU_SET_IFM_ZERO_POINT, 0x109)    \
  X(CMD0, NPU_SET_IFM_WIDTH0_M1, 0x10A)     \
  X(CMD0, NPU_SET_IFM_HEIGHT0_M1, 0x10B)    \
  X(CMD0, NPU_SET_IFM_HEIGHT1_M1, 0x10C)    \
  X(CMD0, NPU_SET_IFM_IB_END, 0x10D)        \
  X(CMD0, NPU_SET_IFM_REGION, 0x10F)        \
  X(CMD0, NPU_SET_OFM_WIDTH_M1, 0x111)      \
  X(CMD0, NPU_SET_OFM_HEIGHT_M1, 0x112)     \
  X(CMD0, NPU_SET_OFM_DEPTH_M1, 0x113)      \
  X(CMD0, NPU_SET_OFM_PRECISION, 0x114)     \
  X(CMD0, NPU_SET_OFM_BLK_WIDTH_M1, 0x115)  \
  X(CMD0, NPU_SET_OFM_BLK_HEIGHT_M1, 0x116) \
  X(CMD0, NPU_SET_OFM_BLK_DEPTH_M1, 0x117)  \
  X(CMD0, NPU_SET_OFM_ZERO_POINT, 0x118)    \
  X(CMD0, NPU_SET_OFM_WIDTH0_M1, 0x11A)     \
  X(CMD0, NPU_SET_OFM_HEIGHT0_M1, 0x11B)    \
  X(CMD0, NPU_SET_OFM_HEIGHT1_M1, 0x11C)    \
  X(CMD0, NPU_SET_OFM_REGION, 0x11F)        \
  X(CMD0, NPU_SET_KERNEL_WIDTH_M1, 0x120)   \
  X(CMD0, NPU_SET_KERNEL_HEIGHT_M1, 0x121)  \
  X(CMD0, NPU_SET_KERNEL_STRIDE, 0x122)     \
  X(CMD0, NPU_SET_PARALLEL_MODE, 0x123)     \
  X(CMD0, NPU_SET_ACC_FORMAT, 0x124)        \
  X(CMD0, NPU_SET_ACTIVATION, 0x125)        \
  X(CMD0, NPU_SET_ACTIVATION_MIN, 0x126)    \
  X(CMD0, NPU_SET_ACTIVATION_MAX, 0x127)    \
  X(CMD0, NPU_SET_WEIGHT_REGION, 0x128)     \
  X(CMD0, NPU_SET_SCALE_REGION, 0x129)      \
  X(CMD0, NPU_SET_AB_START, 0x12D)          \
  X(CMD0, NPU_SET_BLOCKDEP, 0x12F)          \
  X(CMD0, NPU_SET_DMA0_SRC_REGION, 0x130)   \
  X(CMD0, NPU_SET_DMA0_DST_REGION, 0x131)   \
  X(CMD0, NPU_SET_DMA0_SIZE0, 0x132)        \
  X(CMD0, NPU_SET_DMA0_SIZE1, 0x133)        \
  X(CMD0, NPU_SET_IFM2_BROADCAST, 0x180)    \
  X(CMD0, NPU_SET_IFM2_SCALAR, 0x181)       \
  X(CMD0, NPU_SET_IFM2_PRECISION, 0x185)    \
  X(CMD0, NPU_SET_IFM2_ZERO_POINT, 0x189)   \
  X(CMD0, NPU_SET_IFM2_WIDTH0_M1, 0x18A)    \
  X(CMD0, NPU_SET_IFM2_HEIGHT0_M1, 0x18B)   \
  X(CMD0, NPU_SET_IFM2_HEIGHT1_M1, 0x18C)   \
  X(CMD0, NPU_SET_IFM2_IB_START, 0x18D)     \
  X(CMD0, NPU_SET_IFM2_REGION, 0x18F)       \
  X(CMD1, NPU_SET_IFM_BASE0, 0x000)         \
  X(CMD1, NPU_SET_IFM_BASE1, 0x001)         \
  X(CMD1, NPU_SET_IFM_BASE2, 0x002)         \
  X(CMD1, NPU_SET_IFM_BASE3, 0x003)         \
  X(CMD1, NPU_SET_IFM_STRIDE_X, 0x004)      \
  X(CMD1, NPU_SET_IFM_STRIDE_Y, 0x005)      \
  X(CMD1, NPU_SET_IFM_STRIDE_C, 0x006)      \
  X(CMD1, NPU_SET_OFM_BASE0, 0x010)         \
  X(CMD1, NPU_SET_OFM_BASE1, 0x011)         \
  X(CMD1, NPU_SET_OFM_BASE2, 0x012)         \
  X(CMD1, NPU_SET_OFM_BASE3, 0x013)         \
  X(CMD1, NPU_SET_OFM_STRIDE_X, 0x014)      \
  X(CMD1, NPU_SET_OFM_STRIDE_Y, 0x015)      \
  X(CMD1, NPU_SET_OFM_STRIDE_C, 0x016)      \
  X(CMD1, NPU_SET_WEIGHT_BASE, 0x020)       \
  X(CMD1, NPU_SET_WEIGHT_LENGTH, 0x021)     \
  X(CMD1, NPU_SET_SCALE_BASE, 0x022)        \
  X(CMD1, NPU_SET_SCALE_LENGTH, 0x023)      \
  X(CMD1, NPU_SET_OFM_SCALE, 0x024)         \
  X(CMD1, NPU_SET_OPA_SCALE, 0x025)         \
  X(CMD1, NPU_SET_OPB_SCALE, 0x026)         \
  X(CMD1, NPU_SET_DMA0_SRC, 0x030)          \
  X(CMD1, NPU_SET_DMA0_DST, 0x031)          \
  X(CMD1, NPU_SET_DMA0_LEN, 0x032)          \
  X(CMD1, NPU_SET_DMA0_SKIP0, 0x033)        \
  X(CMD1, NPU_SET_DMA0_SKIP1, 0x034)        \
  X(CMD1, NPU_SET_IFM2_BASE0, 0x080)        \
  X(CMD1, NPU_SET_IFM2_BASE1, 0x081)        \
  X(CMD1, NPU_SET_IFM2_BASE2, 0x082)        \
  X(CMD1, NPU_SET_IFM2_BASE3, 0x083)        \
  X(CMD1, NPU_SET_IFM2_STRIDE_X, 0x084)     \
  X(CMD1, NPU_SET_IFM2_STRIDE_Y, 0x085)     \
  X(CMD1, NPU_SET_IFM2_STRIDE_C, 0x086)     \
  X(CMD1, NPU_SET_WEIGHT1_BASE, 0x090)      \
  X(CMD1, NPU_SET_WEIGHT1_LENGTH, 0x091)    \
  X(CMD1, NPU_SET_SCALE1_BASE, 0x092)       \
  X(CMD1, NPU_SET_SCALE1_LENGTH, 0x093)

/* F(COMMAND, FIELD, LSB, WIDTH, SIGNED, ENUM): ENUM names the value table
 * below (NONE for a plain number); SIGNED is 1 for two's-complement fields.
 * Arm's headers declare every field an unsigned bitfield; the signed ones
 * are those whose values are signed quantities that Vela writes masked to
 * 16 bits (register_command_stream_generator.py: cmd0_with_param's
 * `param & 0xFFFF`): the IFM, IFM2 and OFM zero points, the activation
 * clip boundaries (clamped to int16) and the IFM2 scalar ("int16 or uint16
 * depending on ifm2_precision.type", ethosu55_interface.h; Vela's scalars
 * fit int16). Decoder and listing both read them through this column.
 * Addresses of cmd1 are the payload plus, on the U65, 8 high bits in the
 * parameter (addr_hi); the U55 leaves them 0. */
#define LOUPE_ETHOSU_ADDRESS_FIELDS(F, CMD) \
  F(CMD, addr_hi, 16, 8, 0, NONE)           \
  F(CMD, addr, 32, 32, 0, NONE)

#define LOUPE_ETHOSU_FIELDS(F)                                                    \
  F(NPU_OP_STOP, mask, 16, 16, 0, NONE)                                           \
  F(NPU_OP_IRQ, mask, 16, 16, 0, NONE)                                            \
  F(NPU_OP_POOL, pooling_mode, 16, 3, 0, pooling_mode)                            \
  F(NPU_OP_ELEMENTWISE, elementwise_mode, 16, 6, 0, elementwise_mode)             \
  F(NPU_OP_DMA_START, channel_mode, 16, 16, 0, NONE)                              \
  F(NPU_OP_DMA_WAIT, k, 16, 4, 0, NONE)                                           \
  F(NPU_OP_KERNEL_WAIT, n, 16, 2, 0, NONE)                                        \
  F(NPU_OP_PMU_MASK, enable, 16, 1, 0, NONE)                                      \
  F(NPU_SET_IFM_PAD_TOP, pad, 16, 7, 0, NONE)                                     \
  F(NPU_SET_IFM_PAD_LEFT, pad, 16, 7, 0, NONE)                                    \
  F(NPU_SET_IFM_PAD_RIGHT, pad, 16, 8, 0, NONE)                                   \
  F(NPU_SET_IFM_PAD_BOTTOM, pad, 16, 8, 0, NONE)                                  \
  F(NPU_SET_IFM_DEPTH_M1, depth_m1, 16, 16, 0, NONE)                              \
  F(NPU_SET_IFM_PRECISION, activation_type, 16, 1, 0, activation_type)            \
  F(NPU_SET_IFM_PRECISION, activation_precision, 18, 2, 0, activation_precision)  \
  F(NPU_SET_IFM_PRECISION, activation_format, 22, 2, 0, activation_format)        \
  F(NPU_SET_IFM_PRECISION, scale_mode, 24, 2, 0, ifm_scale_mode)                  \
  F(NPU_SET_IFM_PRECISION, round_mode, 30, 2, 0, round_mode)                      \
  F(NPU_SET_IFM_UPSCALE, mode, 16, 2, 0, upscale_mode)                            \
  F(NPU_SET_IFM_ZERO_POINT, zero_point, 16, 16, 1, NONE)                          \
  F(NPU_SET_IFM_WIDTH0_M1, width_m1, 16, 16, 0, NONE)                             \
  F(NPU_SET_IFM_HEIGHT0_M1, height_m1, 16, 16, 0, NONE)                           \
  F(NPU_SET_IFM_HEIGHT1_M1, height_m1, 16, 16, 0, NONE)                           \
  F(NPU_SET_IFM_IB_END, ib_end, 16, 6, 0, NONE)                                   \
  F(NPU_SET_IFM_REGION, region, 16, 3, 0, NONE)                                   \
  F(NPU_SET_OFM_WIDTH_M1, width_m1, 16, 16, 0, NONE)                              \
  F(NPU_SET_OFM_HEIGHT_M1, height_m1, 16, 16, 0, NONE)                            \
  F(NPU_SET_OFM_DEPTH_M1, depth_m1, 16, 16, 0, NONE)                              \
  F(NPU_SET_OFM_PRECISION, activation_type, 16, 1, 0, activation_type)            \
  F(NPU_SET_OFM_PRECISION, activation_precision, 17, 2, 0, activation_precision)  \
  F(NPU_SET_OFM_PRECISION, activation_format, 22, 2, 0, activation_format)        \
  F(NPU_SET_OFM_PRECISION, scale_mode, 24, 1, 0, ofm_scale_mode)                  \
  F(NPU_SET_OFM_PRECISION, round_mode, 30, 2, 0, round_mode)                      \
  F(NPU_SET_OFM_BLK_WIDTH_M1, width_m1, 16, 6, 0, NONE)                           \
  F(NPU_SET_OFM_BLK_HEIGHT_M1, height_m1, 16, 5, 0, NONE)                         \
  F(NPU_SET_OFM_BLK_DEPTH_M1, depth_m1, 16, 7, 0, NONE)                           \
  F(NPU_SET_OFM_ZERO_POINT, zero_point, 16, 16, 1, NONE)                          \
  F(NPU_SET_OFM_WIDTH0_M1, width_m1, 16, 16, 0, NONE)                             \
  F(NPU_SET_OFM_HEIGHT0_M1, height_m1, 16, 16, 0, NONE)                           \
  F(NPU_SET_OFM_HEIGHT1_M1, height_m1, 16, 16, 0, NONE)                           \
  F(NPU_SET_OFM_REGION, region, 16, 3, 0, NONE)                                   \
  F(NPU_SET_KERNEL_WIDTH_M1, width_m1, 16, 16, 0, NONE)                           \
  F(NPU_SET_KERNEL_HEIGHT_M1, height_m1, 16, 16, 0, NONE)                         \
  F(NPU_SET_KERNEL_STRIDE, stride_x_lsb, 16, 1, 0, NONE)                          \
  F(NPU_SET_KERNEL_STRIDE, stride_y_lsb, 17, 1, 0, NONE)                          \
  F(NPU_SET_KERNEL_STRIDE, weight_order, 18, 1, 0, weight_order)                  \
  F(NPU_SET_KERNEL_STRIDE, dilation_x, 19, 1, 0, NONE)                            \
  F(NPU_SET_KERNEL_STRIDE, dilation_y, 20, 1, 0, NONE)                            \
  F(NPU_SET_KERNEL_STRIDE, decomposition, 21, 1, 0, NONE)                         \
  F(NPU_SET_KERNEL_STRIDE, stride_x_msb, 22, 1, 0, NONE)                          \
  F(NPU_SET_KERNEL_STRIDE, stride_y_msb, 25, 1, 0, NONE)                          \
  F(NPU_SET_PARALLEL_MODE, parallel_mode, 16, 1, 0, NONE)                         \
  F(NPU_SET_ACC_FORMAT, acc_format, 16, 2, 0, acc_format)                         \
  F(NPU_SET_ACTIVATION, activation_function, 16, 5, 0, activation_function)       \
  F(NPU_SET_ACTIVATION, activation_clip_range, 28, 3, 0, activation_clip_range)   \
  F(NPU_SET_ACTIVATION_MIN, clip_boundary, 16, 16, 1, NONE)                       \
  F(NPU_SET_ACTIVATION_MAX, clip_boundary, 16, 16, 1, NONE)                       \
  F(NPU_SET_WEIGHT_REGION, region, 16, 3, 0, NONE)                                \
  F(NPU_SET_SCALE_REGION, region, 16, 3, 0, NONE)                                 \
  F(NPU_SET_AB_START, ab_start, 16, 6, 0, NONE)                                   \
  F(NPU_SET_BLOCKDEP, blockdep, 16, 2, 0, NONE)                                   \
  F(NPU_SET_DMA0_SRC_REGION, region, 16, 3, 0, NONE)                              \
  F(NPU_SET_DMA0_SRC_REGION, region_mode, 24, 1, 0, dma_region_mode)              \
  F(NPU_SET_DMA0_SRC_REGION, stride_mode, 25, 2, 0, NONE)                         \
  F(NPU_SET_DMA0_DST_REGION, region, 16, 3, 0, NONE)                              \
  F(NPU_SET_DMA0_DST_REGION, region_mode, 24, 1, 0, dma_region_mode)              \
  F(NPU_SET_DMA0_DST_REGION, stride_mode, 25, 2, 0, NONE)                         \
  F(NPU_SET_DMA0_SIZE0, size, 16, 16, 0, NONE)                                    \
  F(NPU_SET_DMA0_SIZE1, size, 16, 16, 0, NONE)                                    \
  F(NPU_SET_IFM2_BROADCAST, broadcast_h, 16, 1, 0, NONE)                          \
  F(NPU_SET_IFM2_BROADCAST, broadcast_w, 17, 1, 0, NONE)                          \
  F(NPU_SET_IFM2_BROADCAST, broadcast_c, 18, 1, 0, NONE)                          \
  F(NPU_SET_IFM2_BROADCAST, operand_order, 22, 1, 0, NONE)                        \
  F(NPU_SET_IFM2_BROADCAST, broadcast_constant, 23, 1, 0, NONE)                   \
  F(NPU_SET_IFM2_SCALAR, scalar, 16, 16, 1, NONE)                                 \
  F(NPU_SET_IFM2_PRECISION, activation_type, 16, 1, 0, activation_type)           \
  F(NPU_SET_IFM2_PRECISION, activation_precision, 18, 2, 0, activation_precision) \
  F(NPU_SET_IFM2_PRECISION, activation_format, 22, 2, 0, activation_format)       \
  F(NPU_SET_IFM2_ZERO_POINT, zero_point, 16, 16, 1, NONE)                         \
  F(NPU_SET_IFM2_WIDTH0_M1, width_m1, 16, 16, 0, NONE)                            \
  F(NPU_SET_IFM2_HEIGHT0_M1, height_m1, 16, 16, 0, NONE)                          \
  F(NPU_SET_IFM2_HEIGHT1_M1, height_m1, 16, 16, 0, NONE)                          \
  F(NPU_SET_IFM2_IB_START, ib_start, 16, 6, 0, NONE)                              \
  F(NPU_SET_IFM2_REGION, region, 16, 3, 0, NONE)                                  \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_BASE0)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_BASE1)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_BASE2)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_BASE3)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_STRIDE_X)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_STRIDE_Y)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM_STRIDE_C)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_BASE0)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_BASE1)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_BASE2)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_BASE3)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_STRIDE_X)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_STRIDE_Y)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_OFM_STRIDE_C)                            \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_WEIGHT_BASE)                             \
  F(NPU_SET_WEIGHT_LENGTH, length, 32, 32, 0, NONE)                               \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_SCALE_BASE)                              \
  F(NPU_SET_SCALE_LENGTH, length, 32, 20, 0, NONE)                                \
  F(NPU_SET_OFM_SCALE, shift, 16, 6, 0, NONE)                                     \
  F(NPU_SET_OFM_SCALE, scale, 32, 32, 0, NONE)                                    \
  F(NPU_SET_OPA_SCALE, shift, 16, 6, 0, NONE)                                     \
  F(NPU_SET_OPA_SCALE, scale, 32, 32, 0, NONE)                                    \
  F(NPU_SET_OPB_SCALE, scale, 32, 16, 0, NONE)                                    \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_DMA0_SRC)                                \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_DMA0_DST)                                \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_DMA0_LEN)                                \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_DMA0_SKIP0)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_DMA0_SKIP1)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_BASE0)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_BASE1)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_BASE2)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_BASE3)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_STRIDE_X)                           \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_STRIDE_Y)                           \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_IFM2_STRIDE_C)                           \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_WEIGHT1_BASE)                            \
  F(NPU_SET_WEIGHT1_LENGTH, length, 32, 32, 0, NONE)                              \
  LOUPE_ETHOSU_ADDRESS_FIELDS(F, NPU_SET_SCALE1_BASE)                             \
  F(NPU_SET_SCALE1_LENGTH, length, 32, 20, 0, NONE)

/* E(ENUM, NAME, VALUE): the named values of enumerated fields. */
#define LOUPE_ETHOSU_ENUM_VALUES(E)          \
  E(activation_type, UNSIGNED, 0)            \
  E(activation_type, SIGNED, 1)              \
  E(activation_precision, B8, 0)             \
  E(activation_precision, B16, 1)            \
  E(activation_precision, B32, 2)            \
  E(activation_precision, B64, 3)            \
  E(activation_format, NHWC, 0)              \
  E(activation_format, NHCWB16, 1)           \
  E(ifm_scale_mode, OPA_OPB_16, 0)           \
  E(ifm_scale_mode, OPA_32, 1)               \
  E(ifm_scale_mode, OPB_32, 2)               \
  E(ofm_scale_mode, PER_CHANNEL, 0)          \
  E(ofm_scale_mode, GLOBAL, 1)               \
  E(round_mode, TFL, 0)                      \
  E(round_mode, TRUNCATE, 1)                 \
  E(round_mode, NATURAL, 2)                  \
  E(upscale_mode, NONE, 0)                   \
  E(upscale_mode, NEAREST, 1)                \
  E(upscale_mode, ZEROS, 2)                  \
  E(weight_order, DEPTH_FIRST, 0)            \
  E(weight_order, PART_KERNEL_FIRST, 1)      \
  E(acc_format, I32, 0)                      \
  E(acc_format, I40, 1)                      \
  E(acc_format, F16, 2)                      \
  E(activation_function, RELU, 0)            \
  E(activation_function, TANH, 3)            \
  E(activation_function, SIGMOID, 4)         \
  E(activation_function, TABLE_0, 16)        \
  E(activation_function, TABLE_1, 17)        \
  E(activation_function, TABLE_2, 18)        \
  E(activation_function, TABLE_3, 19)        \
  E(activation_function, TABLE_4, 20)        \
  E(activation_function, TABLE_5, 21)        \
  E(activation_function, TABLE_6, 22)        \
  E(activation_function, TABLE_7, 23)        \
  E(activation_clip_range, OFM_PRECISION, 0) \
  E(activation_clip_range, FORCE_UINT8, 2)   \
  E(activation_clip_range, FORCE_INT8, 3)    \
  E(activation_clip_range, FORCE_INT16, 5)   \
  E(pooling_mode, MAX, 0)                    \
  E(pooling_mode, AVERAGE, 1)                \
  E(pooling_mode, REDUCE_SUM, 2)             \
  E(elementwise_mode, MUL, 0)                \
  E(elementwise_mode, ADD, 1)                \
  E(elementwise_mode, SUB, 2)                \
  E(elementwise_mode, MIN, 3)                \
  E(elementwise_mode, MAX, 4)                \
  E(elementwise_mode, LRELU, 5)              \
  E(elementwise_mode, ABS, 6)                \
  E(elementwise_mode, CLZ, 7)                \
  E(elementwise_mode, SHR, 8)                \
  E(elementwise_mode, SHL, 9)                \
  E(dma_region_mode, EXTERNAL, 0)            \
  E(dma_region_mode, INTERNAL, 1)

/* Command codes: the low 16 bits of a command's first word with the
 * parameter cleared (cmd1 codes carry LOUPE_ETHOSU_CMD1_FLAG), so cmd0 and
 * cmd1 opcodes share one enumeration without colliding. */
#define LOUPE_ETHOSU_CODE_CMD0 0u
#define LOUPE_ETHOSU_CODE_CMD1 LOUPE_ETHOSU_CMD1_FLAG
#define LOUPE_ETHOSU_X_CODE(kind, name, opcode) \
  LOUPE_ETHOSU_##name = (int)(LOUPE_ETHOSU_CODE_##kind | (opcode)),
enum loupe_ethosu_command_code {
  LOUPE_ETHOSU_COMMANDS(LOUPE_ETHOSU_X_CODE) LOUPE_ETHOSU_CODE_END_
};
#undef LOUPE_ETHOSU_X_CODE

/* Per field: LOUPE_ETHOSU_<COMMAND>__<field>_LSB and _WIDTH. */
#define LOUPE_ETHOSU_X_FIELD(cmd, field, lsb, width, is_signed, enum_name) \
  LOUPE_ETHOSU_##cmd##__##field##_LSB = (lsb), LOUPE_ETHOSU_##cmd##__##field##_WIDTH = (width),
enum loupe_ethosu_field_position {
  LOUPE_ETHOSU_FIELDS(LOUPE_ETHOSU_X_FIELD) LOUPE_ETHOSU_FIELD_END_
};
#undef LOUPE_ETHOSU_X_FIELD

/* Per enumerated value: LOUPE_ETHOSU_<enum>_<NAME>. */
#define LOUPE_ETHOSU_X_ENUM(enum_name, name, value) LOUPE_ETHOSU_##enum_name##_##name = (value),
enum loupe_ethosu_enum_value {
  LOUPE_ETHOSU_ENUM_VALUES(LOUPE_ETHOSU_X_ENUM) LOUPE_ETHOSU_ENUM_END_
};
#undef LOUPE_ETHOSU_X_ENUM

/* The tables as data, for listings and grammars that iterate. */
typedef struct loupe_ethosu_command_info {
  const char* name; /* "NPU_SET_IFM_PRECISION" */
  uint16_t code;    /* enum loupe_ethosu_command_code */
  uint8_t words;    /* 1 (cmd0) or 2 (cmd1) */
} loupe_ethosu_command_info;

typedef struct loupe_ethosu_field_info {
  uint16_t command_code;
  const char* name;      /* "scale_mode" */
  uint8_t lsb;           /* bit of the 64-bit command */
  uint8_t width;         /* bits */
  uint8_t is_signed;     /* two's complement */
  const char* enum_name; /* "ifm_scale_mode", or NULL for a number */
} loupe_ethosu_field_info;

typedef struct loupe_ethosu_enum_info {
  const char* enum_name;
  const char* name;
  uint32_t value;
} loupe_ethosu_enum_info;

extern const loupe_ethosu_command_info loupe_ethosu_commands[];
extern const uint32_t loupe_ethosu_command_count;
extern const loupe_ethosu_field_info loupe_ethosu_fields[];
extern const uint32_t loupe_ethosu_field_count;
extern const loupe_ethosu_enum_info loupe_ethosu_enum_values[];
extern const uint32_t loupe_ethosu_enum_value_count;

/* The command with this code (first word & 0xC3FF), or NULL if unknown. */
const loupe_ethosu_command_info* loupe_ethosu_find_command(uint32_t code);
/* The name of value `value` of enumeration `enum_name`, or NULL. */
const char* loupe_ethosu_enum_name(const char* enum_name, uint32_t value);

/* A field of a command given as its two words (word1 = 0 for a cmd0). */
static inline uint32_t loupe_ethosu_field_get(uint32_t word0, uint32_t word1, unsigned lsb,
                                              unsigned width) {
  uint64_t v = ((uint64_t)word1 << 32) | word0;
  uint64_t mask = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1u);
  return (uint32_t)((v >> lsb) & mask);
}
/* The same, sign-extended from `width` bits. */
static inline int32_t loupe_ethosu_field_get_signed(uint32_t word0, uint32_t word1, unsigned lsb,
                                                    unsigned width) {
  uint32_t u = loupe_ethosu_field_get(word0, word1, lsb, width);
  uint32_t sign = (uint32_t)1 << (width - 1u);
  return (int32_t)((u ^ sign) - sign);
}
/* Sets a field in a command's two words (an encoder's helper). */
static inline void loupe_ethosu_field_set(uint32_t* word0, uint32_t* word1, unsigned lsb,
                                          unsigned width, uint32_t value) {
  uint64_t v = ((uint64_t)*word1 << 32) | *word0;
  uint64_t mask = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1u);
  v = (v & ~(mask << lsb)) | (((uint64_t)value & mask) << lsb);
  *word0 = (uint32_t)v;
  *word1 = (uint32_t)(v >> 32);
}

/* Field access by names: LOUPE_ETHOSU_GET(NPU_SET_IFM_PRECISION, scale_mode, w0, w1). */
#define LOUPE_ETHOSU_GET(cmd, field, w0, w1)                                        \
  loupe_ethosu_field_get((w0), (w1), (unsigned)LOUPE_ETHOSU_##cmd##__##field##_LSB, \
                         (unsigned)LOUPE_ETHOSU_##cmd##__##field##_WIDTH)
#define LOUPE_ETHOSU_GET_SIGNED(cmd, field, w0, w1)                                        \
  loupe_ethosu_field_get_signed((w0), (w1), (unsigned)LOUPE_ETHOSU_##cmd##__##field##_LSB, \
                                (unsigned)LOUPE_ETHOSU_##cmd##__##field##_WIDTH)
#define LOUPE_ETHOSU_SET(cmd, field, w0p, w1p, value)                                 \
  loupe_ethosu_field_set((w0p), (w1p), (unsigned)LOUPE_ETHOSU_##cmd##__##field##_LSB, \
                         (unsigned)LOUPE_ETHOSU_##cmd##__##field##_WIDTH, (uint32_t)(value))

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_REGISTERS_H_ */
