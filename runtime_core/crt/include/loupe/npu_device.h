/*
 * The software NPU behind the device API (rfcs/000): how a platform binds a
 * loupe_npu_device to a tvm_device_t, and the call an offloaded operator
 * makes with the resource handle the AOT code passes it. Header-only, so the
 * platform header chosen where it is included decides what a tvm_device_t
 * is: on bare metal the bound pointer itself, on the host platform its
 * device memory (the loupe_npu_device, with its size checked).
 * C99, no allocation.
 */
#ifndef LOUPE_NPU_DEVICE_H_
#define LOUPE_NPU_DEVICE_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/error_codes.h>

#include "loupe/npu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Binds `npu` to `device` (after TVMDeviceInit). */
static inline int32_t LoupeNpuDeviceBind(tvm_device_t* device, loupe_npu_device* npu) {
  if (npu == NULL) return kTvmErrorDeviceInvalid;
#if defined(TVM_CRT_PLATFORM_HOST)
  return TVMDevicePlatformBind(device, (uint8_t*)npu, sizeof(*npu));
#else
  return TVMDevicePlatformBind(device, npu);
#endif
}

/* The NPU bound to `device`, or NULL when none is. */
static inline loupe_npu_device* LoupeNpuDeviceOf(tvm_device_t* device) {
  if (device == NULL) return NULL;
#if defined(TVM_CRT_PLATFORM_HOST)
  if (device->memory == NULL || device->memory_bytes < sizeof(loupe_npu_device)) return NULL;
  return (loupe_npu_device*)(void*)device->memory;
#else
  return (loupe_npu_device*)*device;
#endif
}

/* Runs a command stream on the NPU behind an operator's resource handle (a
 * tvm_device_t*); kTvmErrorDeviceInvalid when no NPU is bound to it. */
static inline int32_t LoupeNpuInvoke(void* resource_handle, const uint8_t* command_stream,
                                     size_t length, uint8_t* const base_addresses[],
                                     const size_t base_sizes[], size_t region_count) {
  loupe_npu_device* npu = LoupeNpuDeviceOf((tvm_device_t*)resource_handle);
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  return LoupeNpuExecute(npu, command_stream, length, base_addresses, base_sizes, region_count);
}

/* What a generated NPU operator function calls (its TIR's call_extern): the
 * command stream with its constants (region 0) and the operator's feature
 * maps (IFM, IFM2 or NULL, OFM) as regions 2, 3 and 4, on the NPU behind the
 * resource handle. The constants are only read (region 0 is read-only to the
 * NPU), so dropping their const here is safe. */
static inline int32_t LoupeNpuRunOperator(void* resource_handle, const uint8_t* command_stream,
                                          uint32_t command_stream_bytes, const uint8_t* constants,
                                          uint32_t constants_bytes, const int8_t* ifm,
                                          uint32_t ifm_bytes, const int8_t* ifm2,
                                          uint32_t ifm2_bytes, int8_t* ofm, uint32_t ofm_bytes) {
  uint8_t* base_addresses[LOUPE_NPU_REGION_OFM + 1];
  size_t base_sizes[LOUPE_NPU_REGION_OFM + 1];
  base_addresses[LOUPE_NPU_REGION_CONSTANTS] = (uint8_t*)(uintptr_t)constants;
  base_sizes[LOUPE_NPU_REGION_CONSTANTS] = constants_bytes;
  base_addresses[LOUPE_NPU_REGION_SCRATCH] = NULL;
  base_sizes[LOUPE_NPU_REGION_SCRATCH] = 0;
  base_addresses[LOUPE_NPU_REGION_IFM] = (uint8_t*)(uintptr_t)ifm;
  base_sizes[LOUPE_NPU_REGION_IFM] = ifm_bytes;
  base_addresses[LOUPE_NPU_REGION_IFM2] = (uint8_t*)(uintptr_t)ifm2;
  base_sizes[LOUPE_NPU_REGION_IFM2] = ifm2 == NULL ? 0 : ifm2_bytes;
  base_addresses[LOUPE_NPU_REGION_OFM] = (uint8_t*)ofm;
  base_sizes[LOUPE_NPU_REGION_OFM] = ofm_bytes;
  return LoupeNpuInvoke(resource_handle, command_stream, command_stream_bytes, base_addresses,
                        base_sizes, LOUPE_NPU_REGION_OFM + 1);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOUPE_NPU_DEVICE_H_ */
