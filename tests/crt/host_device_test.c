/*
 * The host platform's device API (platform/host.h): Open takes the device's
 * lock and Close releases it, copies stay inside the bound device memory, and
 * Destroy refuses an open device. Bare-metal devices are checked too, built
 * against the same API in bare_metal_device_test.c.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/device.h>

#include "crt_test.h"

static void test_open_locks_and_close_unlocks(void) {
  tvm_device_t dev;
  uint8_t memory[8];
  CRT_EXPECT_EQ_INT(0, TVMDeviceInit(&dev));
  CRT_EXPECT_EQ_INT(0, TVMDevicePlatformBind(&dev, memory, sizeof(memory)));
  CRT_EXPECT_EQ_INT(0, TVMDeviceOpen(&dev));
  CRT_EXPECT(pthread_mutex_trylock(&dev.lock) != 0);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceDestroy(&dev));
  CRT_EXPECT_EQ_INT(0, TVMDeviceClose(&dev));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceClose(&dev)); /* not open */
  CRT_EXPECT(pthread_mutex_trylock(&dev.lock) == 0);
  pthread_mutex_unlock(&dev.lock);
  CRT_EXPECT_EQ_INT(0, TVMDeviceDestroy(&dev));
}

static void test_copies_stay_inside_device_memory(void) {
  tvm_device_t dev;
  struct {
    uint8_t memory[8];
    uint8_t guard[8];
  } device_memory;
  uint8_t data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  uint8_t back[9];
  memset(&device_memory, 0xEE, sizeof(device_memory));
  memset(back, 0, sizeof(back));
  TVMDeviceInit(&dev);
  TVMDevicePlatformBind(&dev, device_memory.memory, sizeof(device_memory.memory));
  CRT_EXPECT_EQ_INT(0, TVMDeviceCopyTo(data, &dev, 8));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceCopyTo(data, &dev, 9));
  CRT_EXPECT_EQ_INT(0xEE, device_memory.guard[0]);
  CRT_EXPECT_EQ_INT(0, TVMDeviceCopyFrom(&dev, back, 8));
  CRT_EXPECT(memcmp(back, data, 8) == 0);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceCopyFrom(&dev, back, 9));
  CRT_EXPECT_EQ_INT(0, back[8]);
  TVMDeviceDestroy(&dev);
}

static void test_unbound_device_refuses_copies(void) {
  tvm_device_t dev;
  uint8_t data[1] = {0};
  TVMDeviceInit(&dev);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceCopyTo(data, &dev, 1));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceCopyFrom(&dev, data, 1));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceOpen(NULL));
  TVMDeviceDestroy(&dev);
}

int main(void) {
  CRT_RUN(test_open_locks_and_close_unlocks);
  CRT_RUN(test_copies_stay_inside_device_memory);
  CRT_RUN(test_unbound_device_refuses_copies);
  return crt_test_exit_code();
}
