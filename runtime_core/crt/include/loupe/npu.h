/*
 * The software NPU: a C model of Loupe's NPU (Ethos-U55-like), docs/npu.md,
 * that executes a command stream bit-exactly as TFLite Micro's reference
 * kernels would compute the same operators. The application owns one
 * loupe_npu_device (its accumulators are the NPU's on-chip memory; nothing is
 * allocated) and, through the device API (rfcs/000), binds it to the
 * tvm_device_t that generated code passes to each offloaded operator as its
 * resource handle (loupe/npu_device.h: LoupeNpuDeviceBind, LoupeNpuInvoke).
 *
 * Base addresses follow Vela's regions (loupe_npu_region): the encoded
 * weights and scales (read only), scratch, IFM, IFM2, OFM. Every tensor and
 * stream a command names is checked against its region's size before any
 * byte is read or written.
 * C99, no allocation.
 */
#ifndef LOUPE_NPU_H_
#define LOUPE_NPU_H_

#include <stddef.h>
#include <stdint.h>

#include "crt_config.h"
#include "loupe/npu_command_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int32 accumulators of one OFM block: the largest block configuration
 * (h * w * c) the device runs. Set in crt_config.h, so the runtime and the
 * application that owns the device agree on its size; 2048 (every block the
 * compiler chooses, up to 256 MACs) when a crt_config.h leaves it out. */
#ifndef LOUPE_NPU_ACCUMULATOR_CAPACITY
#define LOUPE_NPU_ACCUMULATOR_CAPACITY 2048
#endif

typedef struct loupe_npu_device {
  uint32_t accumulators[LOUPE_NPU_ACCUMULATOR_CAPACITY];
  uint32_t operations_run; /* since LoupeNpuDeviceInit, for tests and profiling */
  /* The base-address table LoupeNpuDeviceSetRegion fills and
   * LoupeNpuDeviceRun runs a stream with (then clears): like Ethos-U's base
   * pointer registers, set before a command stream is started. */
  uint8_t* region_bases[LOUPE_NPU_MAX_REGIONS];
  size_t region_sizes[LOUPE_NPU_MAX_REGIONS];
} loupe_npu_device;

int32_t LoupeNpuDeviceInit(loupe_npu_device* npu);

/* Runs every operation of the command stream in order. base_addresses[r] and
 * base_sizes[r] describe region r for r < region_count (unused regions may be
 * NULL with size 0). Returns kTvmErrorNoError, or the first kTvmErrorNpu*
 * code; on an error no later operation runs. Each operation's regions,
 * shapes and parameters are checked before it writes anything; a corrupt
 * weight stream is only found while it is decoded. */
int32_t LoupeNpuExecute(loupe_npu_device* npu, const uint8_t* command_stream, size_t length,
                        uint8_t* const base_addresses[], const size_t base_sizes[],
                        size_t region_count);

/* Binds region `region` (< LOUPE_NPU_MAX_REGIONS) of the next
 * LoupeNpuDeviceRun to `bytes` bytes at `base` (NULL: unbound).
 * kTvmErrorNpuRegionInvalid for a region past the table. */
int32_t LoupeNpuDeviceSetRegion(loupe_npu_device* npu, uint32_t region, uint8_t* base,
                                size_t bytes);

/* Runs a command stream (all its operations, in order) with the regions set
 * since the last run, then unbinds every region, whether it succeeded or not.
 * Returns what LoupeNpuExecute returns. */
int32_t LoupeNpuDeviceRun(loupe_npu_device* npu, const uint8_t* command_stream, size_t length);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOUPE_NPU_H_ */
