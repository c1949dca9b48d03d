/* The model of the model_rpc firmware tests, in place of a generated
 * model_descriptor.c: output[i] = input[i] + 1 over 64 bytes, as two
 * profiled "operators" (the first half, then the second), and a run
 * counter as its state. */
#include <stdint.h>
#include <tvm/runtime/crt/profiler.h>

#include "model_descriptor.h"

#define TEST_MODEL_BYTES 64

static uint8_t input[TEST_MODEL_BYTES];
static uint8_t output[TEST_MODEL_BYTES];
static uint32_t runs;

static void add_one(uint32_t begin, uint32_t end) {
  uint32_t i;
  for (i = begin; i < end; ++i) output[i] = (uint8_t)(input[i] + 1u);
}

static int32_t run(void) {
  add_one(0, TEST_MODEL_BYTES / 2);
  TVMProfilerOperatorDone(0);
  add_one(TEST_MODEL_BYTES / 2, TEST_MODEL_BYTES);
  TVMProfilerOperatorDone(1);
  ++runs;
  return 0;
}

static void reset_state(void) {
  runs = 0;
}

static uint8_t* const inputs[] = {input};
static const uint32_t input_bytes[] = {TEST_MODEL_BYTES};
static uint8_t* const outputs[] = {output};
static const uint32_t output_bytes[] = {TEST_MODEL_BYTES};

static const TVMModelDescriptor descriptor = {"add_one",    1, 1, inputs, input_bytes, outputs,
                                              output_bytes, 2, 0, 4,      run,         reset_state};

const TVMModelDescriptor* loupe_model_descriptor(void) {
  return &descriptor;
}
