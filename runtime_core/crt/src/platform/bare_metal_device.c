/*
 * The bare-metal device API: devices need no setup, so Init/Open/Close/Destroy
 * only validate; copies treat the bound pointer as device memory.
 */
#include <stddef.h>
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/error_codes.h>

int32_t TVMDeviceInit(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL) return kTvmErrorDeviceInvalid;
  *tvm_dev = NULL;
  return kTvmErrorNoError;
}

int32_t TVMDevicePlatformBind(tvm_device_t* tvm_dev, void* platform_device) {
  if (tvm_dev == NULL) return kTvmErrorDeviceInvalid;
  *tvm_dev = platform_device;
  return kTvmErrorNoError;
}

int32_t TVMDeviceOpen(tvm_device_t* tvm_dev) {
  return tvm_dev == NULL || *tvm_dev == NULL ? kTvmErrorDeviceInvalid : kTvmErrorNoError;
}

int32_t TVMDeviceClose(tvm_device_t* tvm_dev) {
  return tvm_dev == NULL || *tvm_dev == NULL ? kTvmErrorDeviceInvalid : kTvmErrorNoError;
}

int32_t TVMDeviceDestroy(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL) return kTvmErrorDeviceInvalid;
  *tvm_dev = NULL;
  return kTvmErrorNoError;
}

int32_t TVMDeviceCopyTo(const void* source, tvm_device_t* destination, size_t num_bytes) {
  const uint8_t* from = (const uint8_t*)source;
  volatile uint8_t* to;
  size_t i;
  if (destination == NULL || *destination == NULL || source == NULL) return kTvmErrorDeviceInvalid;
  /* volatile: device memory may be a peripheral's buffer. */
  to = (volatile uint8_t*)*destination;
  for (i = 0; i < num_bytes; ++i) to[i] = from[i];
  return kTvmErrorNoError;
}

int32_t TVMDeviceCopyFrom(tvm_device_t* source, void* destination, size_t num_bytes) {
  const volatile uint8_t* from;
  uint8_t* to = (uint8_t*)destination;
  size_t i;
  if (source == NULL || *source == NULL || destination == NULL) return kTvmErrorDeviceInvalid;
  from = (const volatile uint8_t*)*source;
  for (i = 0; i < num_bytes; ++i) to[i] = from[i];
  return kTvmErrorNoError;
}
