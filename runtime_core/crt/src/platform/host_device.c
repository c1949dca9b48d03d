/*
 * The host device API: a lock per device (Open/Close), bounded copies into
 * the device's memory buffer. The model for an RTOS port (k_mutex on Zephyr).
 */
#include <stddef.h>
#include <string.h>
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/error_codes.h>

int32_t TVMDeviceInit(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL) return kTvmErrorDeviceInvalid;
  tvm_dev->memory = NULL;
  tvm_dev->memory_bytes = 0;
  tvm_dev->open = 0;
  return pthread_mutex_init(&tvm_dev->lock, NULL) == 0 ? kTvmErrorNoError : kTvmErrorDeviceInvalid;
}

int32_t TVMDevicePlatformBind(tvm_device_t* tvm_dev, uint8_t* memory, size_t memory_bytes) {
  if (tvm_dev == NULL) return kTvmErrorDeviceInvalid;
  tvm_dev->memory = memory;
  tvm_dev->memory_bytes = memory_bytes;
  return kTvmErrorNoError;
}

int32_t TVMDeviceOpen(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL || pthread_mutex_lock(&tvm_dev->lock) != 0) return kTvmErrorDeviceInvalid;
  tvm_dev->open = 1;
  return kTvmErrorNoError;
}

int32_t TVMDeviceClose(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL || !tvm_dev->open) return kTvmErrorDeviceInvalid;
  tvm_dev->open = 0;
  return pthread_mutex_unlock(&tvm_dev->lock) == 0 ? kTvmErrorNoError : kTvmErrorDeviceInvalid;
}

int32_t TVMDeviceDestroy(tvm_device_t* tvm_dev) {
  if (tvm_dev == NULL || tvm_dev->open) return kTvmErrorDeviceInvalid;
  tvm_dev->memory = NULL;
  tvm_dev->memory_bytes = 0;
  return pthread_mutex_destroy(&tvm_dev->lock) == 0 ? kTvmErrorNoError : kTvmErrorDeviceInvalid;
}

int32_t TVMDeviceCopyTo(const void* source, tvm_device_t* destination, size_t num_bytes) {
  if (destination == NULL || source == NULL || destination->memory == NULL ||
      num_bytes > destination->memory_bytes) {
    return kTvmErrorDeviceInvalid;
  }
  memcpy(destination->memory, source, num_bytes);
  return kTvmErrorNoError;
}

int32_t TVMDeviceCopyFrom(tvm_device_t* source, void* destination, size_t num_bytes) {
  if (source == NULL || destination == NULL || source->memory == NULL ||
      num_bytes > source->memory_bytes) {
    return kTvmErrorDeviceInvalid;
  }
  memcpy(destination, source->memory, num_bytes);
  return kTvmErrorNoError;
}
