/*
 * The bare-metal device API (platform/bare_metal.h): a device is the pointer
 * it is bound to; Open/Close need a bound device; copies go to and from the
 * bound memory.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/device.h>

#include "crt_test.h"

static void test_device_lifecycle(void) {
  tvm_device_t dev = (tvm_device_t)&dev;
  uint8_t memory[4];
  CRT_EXPECT_EQ_INT(0, TVMDeviceInit(&dev));
  CRT_EXPECT(dev == NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceOpen(&dev)); /* unbound */
  CRT_EXPECT_EQ_INT(0, TVMDevicePlatformBind(&dev, memory));
  CRT_EXPECT(dev == (void*)memory);
  CRT_EXPECT_EQ_INT(0, TVMDeviceOpen(&dev));
  CRT_EXPECT_EQ_INT(0, TVMDeviceClose(&dev));
  CRT_EXPECT_EQ_INT(0, TVMDeviceDestroy(&dev));
  CRT_EXPECT(dev == NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceInit(NULL));
}

static void test_copies_use_the_bound_memory(void) {
  tvm_device_t dev;
  uint8_t memory[4] = {0, 0, 0, 0};
  uint8_t data[4] = {9, 8, 7, 6};
  uint8_t back[4] = {0, 0, 0, 0};
  TVMDeviceInit(&dev);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, TVMDeviceCopyTo(data, &dev, 4));
  TVMDevicePlatformBind(&dev, memory);
  CRT_EXPECT_EQ_INT(0, TVMDeviceCopyTo(data, &dev, 4));
  CRT_EXPECT(memcmp(memory, data, 4) == 0);
  CRT_EXPECT_EQ_INT(0, TVMDeviceCopyFrom(&dev, back, 4));
  CRT_EXPECT(memcmp(back, data, 4) == 0);
}

int main(void) {
  CRT_RUN(test_device_lifecycle);
  CRT_RUN(test_copies_use_the_bound_memory);
  return crt_test_exit_code();
}
