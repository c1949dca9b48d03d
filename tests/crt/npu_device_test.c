/*
 * The software NPU reached the way generated code will reach it: a
 * loupe_npu_device bound to a tvm_device_t (bare metal, or the host platform
 * when compiled with TVM_CRT_PLATFORM_HOST), and a command stream written
 * here byte by byte from docs/npu.md (a 2x2 max pool of a 3x3 IFM, VALID,
 * stride 1, clamped to [-100, 100]) run through LoupeNpuInvoke.
 */
#include <loupe/npu_device.h>
#include <stdint.h>
#include <string.h>

#include "crt_test.h"

static size_t PutU16(uint8_t* p, unsigned v) {
  p[0] = (uint8_t)(v & 0xFF);
  p[1] = (uint8_t)(v >> 8);
  return 2;
}

static size_t PutU32(uint8_t* p, uint32_t v) {
  PutU16(p, v & 0xFFFF);
  PutU16(p + 2, v >> 16);
  return 4;
}

static size_t Command(uint8_t* p, uint8_t opcode, unsigned payload) {
  p[0] = opcode;
  p[1] = 0;
  PutU16(p + 2, payload);
  return 4;
}

/* A contiguous height x width x 1 int8 map at offset 0, zero point 0, no rescale. */
static size_t FeatureMap(uint8_t* p, uint8_t opcode, uint8_t region, unsigned h, unsigned w) {
  size_t n = Command(p, opcode, LOUPE_NPU_TENSOR_PAYLOAD);
  p[n++] = region;
  n += PutU16(p + n, h);
  n += PutU16(p + n, w);
  n += PutU16(p + n, 1);
  n += PutU32(p + n, 0); /* offset */
  n += PutU32(p + n, w); /* stride y */
  n += PutU32(p + n, 1); /* stride x */
  n += PutU32(p + n, 1); /* stride c */
  n += PutU32(p + n, 0); /* zero point */
  n += PutU32(p + n, 0); /* multiplier */
  p[n++] = 0;            /* shift */
  return n;
}

static size_t MaxPoolStream(uint8_t* p) {
  static const uint8_t kernel[LOUPE_NPU_KERNEL_PAYLOAD] = {2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
  size_t n = 0;
  memcpy(p, "LNPU", 4);
  PutU16(p + 4, LOUPE_NPU_STREAM_VERSION);
  PutU16(p + 6, 0);
  PutU32(p + 8, 7);
  n = LOUPE_NPU_STREAM_HEADER_BYTES;
  n += Command(p + n, LOUPE_NPU_CMD_SET_BLOCK_CONFIG, LOUPE_NPU_BLOCK_CONFIG_PAYLOAD);
  n += PutU16(p + n, 2);
  n += PutU16(p + n, 2);
  n += PutU16(p + n, 8);
  n += FeatureMap(p + n, LOUPE_NPU_CMD_SET_IFM, LOUPE_NPU_REGION_IFM, 3, 3);
  n += FeatureMap(p + n, LOUPE_NPU_CMD_SET_OFM, LOUPE_NPU_REGION_OFM, 2, 2);
  n += Command(p + n, LOUPE_NPU_CMD_SET_KERNEL, LOUPE_NPU_KERNEL_PAYLOAD);
  memcpy(p + n, kernel, sizeof(kernel));
  n += sizeof(kernel);
  n += Command(p + n, LOUPE_NPU_CMD_SET_ACTIVATION, LOUPE_NPU_ACTIVATION_PAYLOAD);
  n += PutU16(p + n, (unsigned)(uint16_t)-100);
  n += PutU16(p + n, 100);
  n += Command(p + n, LOUPE_NPU_CMD_SET_ROUNDING, LOUPE_NPU_ROUNDING_PAYLOAD);
  p[n++] = LOUPE_NPU_ROUNDING_TFLITE;
  n += Command(p + n, LOUPE_NPU_CMD_OP_POOL, LOUPE_NPU_POOL_PAYLOAD);
  p[n++] = LOUPE_NPU_POOL_MAX;
  return n;
}

static loupe_npu_device npu;

static void test_a_bound_npu_runs_a_stream(void) {
  uint8_t stream[256];
  const size_t length = MaxPoolStream(stream);
  int8_t ifm[9] = {-128, 5, 3, 7, 120, -2, 1, 0, -1};
  int8_t ofm[4] = {0, 0, 0, 0};
  uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {NULL, NULL, (uint8_t*)ifm, NULL, (uint8_t*)ofm};
  const size_t sizes[LOUPE_NPU_REGION_COUNT] = {0, 0, sizeof(ifm), 0, sizeof(ofm)};
  tvm_device_t device;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceInit(&npu));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMDeviceInit(&device));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceBind(&device, &npu));
  CRT_EXPECT(LoupeNpuDeviceOf(&device) == &npu);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMDeviceOpen(&device));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    LoupeNpuInvoke(&device, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMDeviceClose(&device));
  /* Windows {-128,5,7,120} {5,3,120,-2} {7,120,1,0} {120,-2,0,-1}, clamped to 100. */
  CRT_EXPECT_EQ_INT(100, ofm[0]);
  CRT_EXPECT_EQ_INT(100, ofm[1]);
  CRT_EXPECT_EQ_INT(100, ofm[2]);
  CRT_EXPECT_EQ_INT(100, ofm[3]);
  ifm[4] = -50;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    LoupeNpuInvoke(&device, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
  CRT_EXPECT_EQ_INT(7, ofm[0]);
  CRT_EXPECT_EQ_INT(5, ofm[1]);
  CRT_EXPECT_EQ_INT(7, ofm[2]);
  CRT_EXPECT_EQ_INT(0, ofm[3]);
  CRT_EXPECT_EQ_INT(2, npu.operations_run);
  TVMDeviceDestroy(&device);
}

static void test_an_unbound_handle_is_refused(void) {
  uint8_t stream[256];
  const size_t length = MaxPoolStream(stream);
  uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {NULL};
  const size_t sizes[LOUPE_NPU_REGION_COUNT] = {0};
  tvm_device_t device;
  TVMDeviceInit(&device);
  CRT_EXPECT(LoupeNpuDeviceOf(&device) == NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid,
                    LoupeNpuInvoke(&device, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid,
                    LoupeNpuInvoke(NULL, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, LoupeNpuDeviceBind(&device, NULL));
  TVMDeviceDestroy(&device);
}

int main(void) {
  CRT_RUN(test_a_bound_npu_runs_a_stream);
  CRT_RUN(test_an_unbound_handle_is_refused);
  return crt_test_exit_code();
}
