/*
 * The functional model of the Ethos-U55/U65: runs decoded operations
 * (ethosu_command_stream.h) on memory regions, with the NPU's integer
 * arithmetic, so that Vela-compiled networks give TFLite's bytes.
 *
 * Arithmetic, as the registers and Vela's scaling code (scaling.py,
 * register_command_stream_generator.py) imply and TFLite's reference
 * kernels require:
 *  - convolutions accumulate (ifm - zero point) * weight in 64 bits from the
 *    channel's 40-bit bias; padding reads the zero point (adds nothing);
 *  - scaling multiplies by a 32-bit scale (not for 32-bit IFMs: there only
 *    the shift applies) and shifts right with the OFM rounding mode:
 *    NATURAL rounds half up, TRUNCATE towards zero, TFL as TFLite's
 *    MultiplyByQuantizedMultiplier: half up at bit 31 (its doubling high
 *    multiply), then half away from zero for the rest of the shift;
 *  - ADD/SUB with a 32-bit operand scale (IFM scale modes OPA_32/OPB_32)
 *    rescale as TFLite's ADD: both operands shifted left by 20 (8-bit) or 15
 *    (16-bit), the scaled one multiplied and shifted, the other halved;
 *    with 16-bit operand scales each operand is multiplied by its scale;
 *  - the OFM zero point is added after scaling, then the activation: clamp
 *    to ACTIVATION_MIN/MAX (not for 32-bit OFMs) or a lookup table in SHRAM.
 *
 * No allocation and no large stack: the caller's machine holds the regions,
 * the SHRAM lookup-table area and a workspace for one OFM block of decoded
 * weights.
 */
#ifndef LOUPE_ETHOSU_EXECUTE_H_
#define LOUPE_ETHOSU_EXECUTE_H_

#include <stdint.h>

#include "loupe/ethosu/ethosu_command_stream.h"
#include "loupe/ethosu/ethosu_error.h"
#include "loupe/ethosu/ethosu_payload.h"
#include "loupe/ethosu/ethosu_weights.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LOUPE_ETHOSU_REGIONS 8       /* region numbers a command stream can name */
#define LOUPE_ETHOSU_LUT_BYTES 2048u /* the SHRAM lookup-table area */
/* Multiply-accumulates (or reads) one operation may ask for before it is
 * refused: bounds the time a corrupt stream can take. */
#define LOUPE_ETHOSU_DEFAULT_MAX_WORK ((uint64_t)1 << 36)
/* The most workspace values (one OFM block of decoded weights) a host should
 * hand the model for one operation: 128 MiB. Vela's largest blocks are far
 * smaller (128 channels of 3x3x1024 weights are 1.2 M values); a corrupt
 * stream can ask for billions, which a host would otherwise allocate before
 * the operation fails on its weights. */
#define LOUPE_ETHOSU_MAX_WORKSPACE_VALUES ((uint32_t)1 << 26)

typedef struct loupe_ethosu_region {
  uint8_t* data; /* NULL: not given */
  uint64_t size;
} loupe_ethosu_region;

typedef struct loupe_ethosu_machine {
  loupe_ethosu_npu_config config;
  loupe_ethosu_region regions[LOUPE_ETHOSU_REGIONS];
  uint8_t lut[LOUPE_ETHOSU_LUT_BYTES];
  int16_t* workspace; /* decoded weights of one OFM block */
  uint32_t workspace_values;
  loupe_ethosu_mlw_decoder mlw;
  uint64_t macs;     /* multiply-accumulates done, for profiling */
  uint64_t max_work; /* per operation; LOUPE_ETHOSU_DEFAULT_MAX_WORK after init */
} loupe_ethosu_machine;

/* Sets up a machine for an NPU; regions empty, lookup tables zero. */
int loupe_ethosu_machine_init(loupe_ethosu_machine* machine, const loupe_ethosu_npu_config* config,
                              int16_t* workspace, uint32_t workspace_values);

/* Runs one operation (waits, IRQ and PMU commands do nothing). */
int loupe_ethosu_execute(loupe_ethosu_machine* machine, const loupe_ethosu_operation* op,
                         loupe_ethosu_error* err);

/* How core `core` of `cores` holds a CONV or DEPTHWISE operation's weight
 * stream (output channel o goes to core o % cores): what
 * loupe_ethosu_weights_decode_ohwi needs to decode it. */
void loupe_ethosu_operation_weight_layout(const loupe_ethosu_npu_config* config,
                                          const loupe_ethosu_operation* op, uint32_t core,
                                          uint32_t cores, loupe_ethosu_weight_layout* layout);

/* The workspace values an operation needs (0 if none; UINT32_MAX when
 * more than 32 bits count). */
uint32_t loupe_ethosu_workspace_needed(const loupe_ethosu_machine* machine,
                                       const loupe_ethosu_operation* op);

/* The scaling step alone, for tests and for the views: x * scale (scale
 * ignored if apply_scale is 0) shifted right by shift with round_mode. */
int64_t loupe_ethosu_scale(int64_t x, uint32_t scale, int apply_scale, uint32_t shift,
                           int round_mode);

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_EXECUTE_H_ */
