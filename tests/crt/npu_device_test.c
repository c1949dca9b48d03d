/*
 * The software NPU reached the way generated code will reach it: a
 * loupe_npu_device bound to a tvm_device_t (bare metal, or the host platform
 * when compiled with TVM_CRT_PLATFORM_HOST), and a command stream written
 * here byte by byte from docs/npu.md (a 2x2 max pool of a 3x3 IFM, VALID,
 * stride 1, clamped to [-100, 100]) run through LoupeNpuInvoke; and a
 * stream of two operations run the way a generated NPU region function runs
 * it (LoupeNpuSetRegion, LoupeNpuRunStream), with the region-count checks of
 * stream version 2.
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

static void Header(uint8_t* p, unsigned version, unsigned regions, uint32_t commands) {
  memcpy(p, "LNPU", 4);
  PutU16(p + 4, version);
  PutU16(p + 6, regions);
  PutU32(p + 8, commands);
}

/* The 7 commands of a 2x2 max pool, VALID, stride 1, clamped to [-100, 100],
 * of a size x size IFM in region `ifm` into region `ofm`. */
static size_t MaxPool(uint8_t* p, uint8_t ifm, uint8_t ofm, unsigned size) {
  static const uint8_t kernel[LOUPE_NPU_KERNEL_PAYLOAD] = {2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
  size_t n = 0;
  n += Command(p + n, LOUPE_NPU_CMD_SET_BLOCK_CONFIG, LOUPE_NPU_BLOCK_CONFIG_PAYLOAD);
  n += PutU16(p + n, 2);
  n += PutU16(p + n, 2);
  n += PutU16(p + n, 8);
  n += FeatureMap(p + n, LOUPE_NPU_CMD_SET_IFM, ifm, size, size);
  n += FeatureMap(p + n, LOUPE_NPU_CMD_SET_OFM, ofm, size - 1, size - 1);
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

static size_t MaxPoolStream(uint8_t* p) {
  Header(p, LOUPE_NPU_STREAM_VERSION, LOUPE_NPU_REGION_OFM + 1, 7);
  return LOUPE_NPU_STREAM_HEADER_BYTES +
         MaxPool(p + LOUPE_NPU_STREAM_HEADER_BYTES, LOUPE_NPU_REGION_IFM, LOUPE_NPU_REGION_OFM, 3);
}

/* Two pools in one stream, as a region function's stream: 3x3 in region 2,
 * a 2x2 intermediate in region 9, the 1x1 result in region 3. */
static size_t TwoPoolStream(uint8_t* p, unsigned regions) {
  size_t n = LOUPE_NPU_STREAM_HEADER_BYTES;
  Header(p, LOUPE_NPU_STREAM_VERSION, regions, 14);
  n += MaxPool(p + n, 2, 9, 3);
  n += MaxPool(p + n, 9, 3, 2);
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

/* A version 1 stream (no region count, regions 0..7) still runs. */
static void test_a_version_1_stream_runs(void) {
  uint8_t stream[256];
  const size_t length = MaxPoolStream(stream);
  int8_t ifm[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  int8_t ofm[4] = {0, 0, 0, 0};
  uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {NULL, NULL, (uint8_t*)ifm, NULL, (uint8_t*)ofm};
  const size_t sizes[LOUPE_NPU_REGION_COUNT] = {0, 0, sizeof(ifm), 0, sizeof(ofm)};
  PutU16(stream + 4, LOUPE_NPU_STREAM_VERSION_1);
  PutU16(stream + 6, 0);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceInit(&npu));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    LoupeNpuExecute(&npu, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
  CRT_EXPECT_EQ_INT(9, ofm[3]);
  /* A version 1 header with a region count is malformed. */
  PutU16(stream + 6, 5);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuBadHeader,
                    LoupeNpuExecute(&npu, stream, length, bases, sizes, LOUPE_NPU_REGION_COUNT));
}

/* What a generated region function does: bind every region, run one stream
 * of several operations, the intermediate in a region of its own. */
static void test_a_region_function_runs_one_stream_of_two_operations(void) {
  uint8_t stream[512];
  const size_t length = TwoPoolStream(stream, 10);
  int8_t ifm[9] = {-128, 5, 3, 7, 120, -2, 1, 0, -1};
  int8_t intermediate[4] = {0, 0, 0, 0};
  int8_t ofm[1] = {0};
  tvm_device_t device;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceInit(&npu));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMDeviceInit(&device));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceBind(&device, &npu));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuSetRegion(&device, 2, ifm, sizeof(ifm)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuSetRegion(&device, 3, ofm, sizeof(ofm)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    LoupeNpuSetRegion(&device, 9, intermediate, sizeof(intermediate)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuRunStream(&device, stream, (uint32_t)length));
  CRT_EXPECT_EQ_INT(2, npu.operations_run);
  CRT_EXPECT_EQ_INT(100, intermediate[0]);
  CRT_EXPECT_EQ_INT(100, ofm[0]);
  /* The run unbinds every region: a second run without binding is refused
   * before any operation runs. */
  CRT_EXPECT_EQ_INT(kTvmErrorNpuRegionInvalid,
                    LoupeNpuRunStream(&device, stream, (uint32_t)length));
  CRT_EXPECT_EQ_INT(2, npu.operations_run);
  /* The table has LOUPE_NPU_MAX_REGIONS entries. */
  CRT_EXPECT_EQ_INT(kTvmErrorNpuRegionInvalid,
                    LoupeNpuSetRegion(&device, LOUPE_NPU_MAX_REGIONS, ifm, sizeof(ifm)));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, LoupeNpuSetRegion(NULL, 2, ifm, sizeof(ifm)));
  CRT_EXPECT_EQ_INT(kTvmErrorDeviceInvalid, LoupeNpuRunStream(NULL, stream, (uint32_t)length));
  TVMDeviceDestroy(&device);
}

/* The header's region count bounds every region a command names, and the
 * caller must bind at least that many. */
static void test_region_counts_are_checked(void) {
  uint8_t stream[512];
  size_t length;
  int8_t ifm[9] = {0};
  int8_t intermediate[4] = {0};
  int8_t ofm[1] = {0};
  uint8_t* bases[10] = {NULL, NULL, (uint8_t*)ifm, (uint8_t*)ofm, NULL,
                        NULL, NULL, NULL,          NULL,          (uint8_t*)intermediate};
  const size_t sizes[10] = {0, 0, sizeof(ifm), sizeof(ofm), 0, 0, 0, 0, 0, sizeof(intermediate)};
  loupe_npu_stream_decoder decoder;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuDeviceInit(&npu));
  /* Region 9 named by a stream of 9 regions: refused while decoding. */
  length = TwoPoolStream(stream, 9);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuRegionInvalid,
                    LoupeNpuExecute(&npu, stream, length, bases, sizes, 10));
  CRT_EXPECT_EQ_INT(0, npu.operations_run);
  /* A correct count, but the caller binds fewer regions: refused up front. */
  length = TwoPoolStream(stream, 10);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuRegionInvalid,
                    LoupeNpuExecute(&npu, stream, length, bases, sizes, 9));
  CRT_EXPECT_EQ_INT(0, npu.operations_run);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuExecute(&npu, stream, length, bases, sizes, 10));
  CRT_EXPECT_EQ_INT(2, npu.operations_run);
  /* Counts of 0 and past LOUPE_NPU_MAX_REGIONS are bad headers. */
  PutU16(stream + 6, 0);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuBadHeader, LoupeNpuStreamBegin(&decoder, stream, length));
  PutU16(stream + 6, LOUPE_NPU_MAX_REGIONS + 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuBadHeader, LoupeNpuStreamBegin(&decoder, stream, length));
  PutU16(stream + 6, LOUPE_NPU_MAX_REGIONS);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, LoupeNpuStreamBegin(&decoder, stream, length));
  PutU16(stream + 4, 3);
  CRT_EXPECT_EQ_INT(kTvmErrorNpuUnsupportedVersion, LoupeNpuStreamBegin(&decoder, stream, length));
}

int main(void) {
  CRT_RUN(test_a_bound_npu_runs_a_stream);
  CRT_RUN(test_an_unbound_handle_is_refused);
  CRT_RUN(test_a_version_1_stream_runs);
  CRT_RUN(test_a_region_function_runs_one_stream_of_two_operations);
  CRT_RUN(test_region_counts_are_checked);
  return crt_test_exit_code();
}
