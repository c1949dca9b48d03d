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

/* What a generated NPU region function calls (its TIR's call_externs): one
 * LoupeNpuSetRegion per base-address region its command stream names (0 the
 * constants, 2.. one per feature-map tensor), then one LoupeNpuRunStream that
 * runs every operation of the region. Pointers arrive const when the
 * function only reads the tensor (its inputs, its constants): the stream
 * writes only through OFM regions, which the function binds from pointers it
 * was given to write, so dropping const here writes no const object. */
static inline int32_t LoupeNpuSetRegion(void* resource_handle, uint32_t region, const void* base,
                                        uint32_t bytes) {
  loupe_npu_device* npu = LoupeNpuDeviceOf((tvm_device_t*)resource_handle);
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  return LoupeNpuDeviceSetRegion(npu, region, (uint8_t*)(uintptr_t)base, bytes);
}

static inline int32_t LoupeNpuRunStream(void* resource_handle, const uint8_t* command_stream,
                                        uint32_t command_stream_bytes) {
  loupe_npu_device* npu = LoupeNpuDeviceOf((tvm_device_t*)resource_handle);
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  return LoupeNpuDeviceRun(npu, command_stream, command_stream_bytes);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOUPE_NPU_DEVICE_H_ */
