/*
 * Host devices (rfcs/000), shaped like an RTOS port: the platform device
 * (here a plain memory buffer standing in for device memory) plus a lock that
 * Open takes and Close releases, so two models cannot use the device at once.
 */
#ifndef TVM_RUNTIME_CRT_PLATFORM_HOST_H_
#define TVM_RUNTIME_CRT_PLATFORM_HOST_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint8_t* memory;     /*!< the device's memory */
  size_t memory_bytes; /*!< its size; copies beyond it are refused */
  pthread_mutex_t lock;
  int open; /*!< 1 between Open and Close */
} tvm_device_t;

int32_t TVMDevicePlatformBind(tvm_device_t* tvm_dev, uint8_t* memory, size_t memory_bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PLATFORM_HOST_H_ */
