/*
 * The device API as the AOT code uses it (rfcs/000), on a counting test
 * platform: a hand-written stand-in for generated code (tvmgen_test_run with
 * struct tvmgen_test_devices) must open each device before every operator
 * that uses it, pass it as that operator's resource_handle, and close it after,
 * also when the operator fails. This is the contract [codegen] must emit.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/tvm_micro_runtime.h>

#include "crt_test.h"

/* ---- The counting platform: implements the device API for bare-metal devices. */
static struct {
  int inits, opens, closes, destroys, binds;
  int open_depth, max_open_depth;
  tvm_device_t* last_opened;
} platform;

int32_t TVMDeviceInit(tvm_device_t* d) {
  ++platform.inits;
  *d = NULL;
  return 0;
}
int32_t TVMDevicePlatformBind(tvm_device_t* d, void* p) {
  ++platform.binds;
  *d = p;
  return 0;
}
int32_t TVMDeviceOpen(tvm_device_t* d) {
  ++platform.opens;
  if (++platform.open_depth > platform.max_open_depth)
    platform.max_open_depth = platform.open_depth;
  platform.last_opened = d;
  return 0;
}
int32_t TVMDeviceClose(tvm_device_t* d) {
  (void)d;
  ++platform.closes;
  --platform.open_depth;
  return 0;
}
int32_t TVMDeviceDestroy(tvm_device_t* d) {
  ++platform.destroys;
  *d = NULL;
  return 0;
}
int32_t TVMDeviceCopyTo(const void* s, tvm_device_t* d, size_t n) {
  (void)s, (void)d, (void)n;
  return 0;
}
int32_t TVMDeviceCopyFrom(tvm_device_t* s, void* d, size_t n) {
  (void)s, (void)d, (void)n;
  return 0;
}

/* ---- The stand-in for generated code. */
struct tvmgen_test_devices {
  tvm_device_t* accelerator;
};

static struct {
  int calls;
  void* resource_handle[8];
  int device_open_during_call[8];
  int fail_at; /* operator index that fails, or -1 */
} ops;

static int32_t Operator(int index, void* resource_handle) {
  ops.resource_handle[ops.calls] = resource_handle;
  ops.device_open_during_call[ops.calls] = platform.open_depth;
  ++ops.calls;
  return index == ops.fail_at ? 0x77 : 0;
}

/* op0 and op2 run on the accelerator, op1 on the CPU (no device). */
static int32_t tvmgen_test_run_model(tvm_device_t* accelerator) {
  int32_t err;
  TVMDeviceOpen(accelerator);
  err = Operator(0, accelerator);
  TVMDeviceClose(accelerator);
  if (err != 0) return err;
  err = Operator(1, NULL);
  if (err != 0) return err;
  TVMDeviceOpen(accelerator);
  err = Operator(2, accelerator);
  TVMDeviceClose(accelerator);
  return err;
}

static int32_t tvmgen_test_entry(void** inputs, void** outputs, TVMContext* context) {
  struct tvmgen_test_devices* devices = (struct tvmgen_test_devices*)context->devices;
  (void)inputs, (void)outputs;
  return tvmgen_test_run_model(devices->accelerator);
}

static const TVMModel kTestModel = {0, 0, 0, NULL, tvmgen_test_entry};

static int32_t RunWithAccelerator(int fail_at) {
  static int hardware; /* what the board's driver would be */
  tvm_device_t accelerator;
  struct tvmgen_test_devices devices;
  TVMContext context;
  int32_t err;
  memset(&platform, 0, sizeof(platform));
  memset(&ops, 0, sizeof(ops));
  ops.fail_at = fail_at;
  memset(&context, 0, sizeof(context));
  TVMDeviceInit(&accelerator);
  TVMDevicePlatformBind(&accelerator, &hardware);
  devices.accelerator = &accelerator;
  TVMSetDevices(&context, &devices);
  err = TVMExecute(&kTestModel, NULL, NULL, &context);
  CRT_EXPECT(platform.last_opened == NULL || platform.last_opened == &accelerator);
  CRT_EXPECT(ops.resource_handle[0] == (void*)&accelerator);
  TVMDeviceDestroy(&accelerator);
  return err;
}

static void test_device_is_open_exactly_around_each_operator_that_uses_it(void) {
  CRT_EXPECT_EQ_INT(0, RunWithAccelerator(-1));
  CRT_EXPECT_EQ_INT(3, ops.calls);
  CRT_EXPECT_EQ_INT(2, platform.opens);
  CRT_EXPECT_EQ_INT(2, platform.closes);
  CRT_EXPECT_EQ_INT(0, platform.open_depth);
  CRT_EXPECT_EQ_INT(1, platform.max_open_depth);
  CRT_EXPECT_EQ_INT(1, ops.device_open_during_call[0]);
  CRT_EXPECT_EQ_INT(0, ops.device_open_during_call[1]);
  CRT_EXPECT_EQ_INT(1, ops.device_open_during_call[2]);
  CRT_EXPECT_EQ_INT(1, platform.inits);
  CRT_EXPECT_EQ_INT(1, platform.binds);
  CRT_EXPECT_EQ_INT(1, platform.destroys);
}

static void test_each_operator_gets_its_device_as_resource_handle(void) {
  RunWithAccelerator(-1);
  CRT_EXPECT(ops.resource_handle[1] == NULL);
  CRT_EXPECT(ops.resource_handle[2] == ops.resource_handle[0]);
}

static void test_failing_operator_still_closes_its_device_and_returns_its_code(void) {
  CRT_EXPECT_EQ_INT(0x77, RunWithAccelerator(0));
  CRT_EXPECT_EQ_INT(1, ops.calls);
  CRT_EXPECT_EQ_INT(1, platform.opens);
  CRT_EXPECT_EQ_INT(1, platform.closes);
  CRT_EXPECT_EQ_INT(0x77, RunWithAccelerator(2));
  CRT_EXPECT_EQ_INT(3, ops.calls);
  CRT_EXPECT_EQ_INT(platform.opens, platform.closes);
}

int main(void) {
  CRT_RUN(test_device_is_open_exactly_around_each_operator_that_uses_it);
  CRT_RUN(test_each_operator_gets_its_device_as_resource_handle);
  CRT_RUN(test_failing_operator_still_closes_its_device_and_returns_its_code);
  return crt_test_exit_code();
}
