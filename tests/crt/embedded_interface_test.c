/*
 * The embedded interface (rfcs/002): TVMModel, TVMContext, TVMExecute,
 * TVMSetWorkspaces, TVMGetWorkspaceSize. A hand-written stand-in for a
 * generated model fills its whole workspace, so guard bytes around the
 * application's buffers show any write outside them; a too-small or missing
 * workspace must give an error code before the model runs; the model's own
 * error codes come back unchanged.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/tvm_micro_runtime.h>

#include "crt_test.h"

#define WORKSPACE_BYTES 64
#define OUTPUT_BYTES 4
#define GUARD_BYTES 16
#define GUARD 0xA5

static int entry_calls;
static int32_t entry_result;

/* "Generated": adds 1 to each input byte via the workspace, fills the workspace. */
static int32_t TestModelEntry(void** inputs, void** outputs, TVMContext* context) {
  uint8_t* workspace = (uint8_t*)context->workspace[0];
  const uint8_t* in = (const uint8_t*)inputs[0];
  uint8_t* out = (uint8_t*)outputs[0];
  int i;
  ++entry_calls;
  if (entry_result != 0) return entry_result;
  memset(workspace, 0x11, WORKSPACE_BYTES);
  for (i = 0; i < OUTPUT_BYTES; ++i) {
    workspace[i] = (uint8_t)(in[i] + 1);
    out[i] = workspace[i];
  }
  return 0;
}

static const size_t kTestModelWorkspaceSizes[] = {WORKSPACE_BYTES};
static const TVMModel kTestModel = {1, 1, 1, kTestModelWorkspaceSizes, TestModelEntry};

/* The application's memory: every buffer between guard bytes. */
static struct {
  uint8_t before_workspace[GUARD_BYTES];
  uint8_t workspace[WORKSPACE_BYTES];
  uint8_t after_workspace[GUARD_BYTES];
  uint8_t output[OUTPUT_BYTES];
  uint8_t after_output[GUARD_BYTES];
} memory;

static void FillGuards(void) {
  memset(&memory, GUARD, sizeof(memory));
  entry_calls = 0;
  entry_result = 0;
}

static int GuardsIntact(void) {
  int i;
  for (i = 0; i < GUARD_BYTES; ++i) {
    if (memory.before_workspace[i] != GUARD || memory.after_workspace[i] != GUARD ||
        memory.after_output[i] != GUARD) {
      return 0;
    }
  }
  return 1;
}

static int32_t Run(size_t workspace_bytes_given) {
  static uint8_t input[OUTPUT_BYTES] = {1, 2, 3, 4};
  void* workspaces[1];
  size_t sizes[1];
  void* inputs[1];
  void* outputs[1];
  TVMContext context;
  memset(&context, 0, sizeof(context));
  workspaces[0] = memory.workspace;
  sizes[0] = workspace_bytes_given;
  inputs[0] = input;
  outputs[0] = memory.output;
  TVMSetWorkspaces(&context, workspaces, sizes, 1);
  return TVMExecute(&kTestModel, inputs, outputs, &context);
}

static void test_workspace_size_is_read_from_the_model(void) {
  CRT_EXPECT_EQ_INT(WORKSPACE_BYTES, TVMGetWorkspaceSize(&kTestModel, 0));
  CRT_EXPECT_EQ_INT(0, TVMGetWorkspaceSize(&kTestModel, 1));
}

static void test_set_workspaces_fills_the_context(void) {
  void* workspaces[2] = {NULL, NULL};
  size_t sizes[2] = {1, 2};
  TVMContext context;
  TVMSetWorkspaces(&context, workspaces, sizes, 2);
  CRT_EXPECT(context.workspace == workspaces);
  CRT_EXPECT(context.workspace_bytes == sizes);
  CRT_EXPECT_EQ_INT(2, context.num_workspaces);
  TVMSetDevices(&context, &context);
  CRT_EXPECT(context.devices == (void*)&context);
}

static void test_execute_with_exact_workspace_runs_inside_the_buffers(void) {
  FillGuards();
  CRT_EXPECT_EQ_INT(0, Run(WORKSPACE_BYTES));
  CRT_EXPECT_EQ_INT(1, entry_calls);
  CRT_EXPECT_EQ_INT(2, memory.output[0]);
  CRT_EXPECT_EQ_INT(5, memory.output[3]);
  CRT_EXPECT_EQ_INT(0x11, memory.workspace[WORKSPACE_BYTES - 1]);
  CRT_EXPECT(GuardsIntact());
}

static void test_execute_with_too_small_workspace_fails_and_writes_nothing(void) {
  int i;
  int untouched = 1;
  FillGuards();
  CRT_EXPECT_EQ_INT(kTvmErrorExecutorWorkspaceTooSmall, Run(WORKSPACE_BYTES - 1));
  CRT_EXPECT_EQ_INT(0, entry_calls);
  for (i = 0; i < WORKSPACE_BYTES; ++i) untouched &= memory.workspace[i] == GUARD;
  for (i = 0; i < OUTPUT_BYTES; ++i) untouched &= memory.output[i] == GUARD;
  CRT_EXPECT(untouched);
  CRT_EXPECT(GuardsIntact());
  CRT_EXPECT_EQ_INT(kTvmErrorExecutorWorkspaceTooSmall, Run(0));
}

static void test_execute_without_workspace_fails(void) {
  void* workspaces[1] = {NULL};
  size_t sizes[1] = {WORKSPACE_BYTES};
  TVMContext context;
  FillGuards();
  CRT_EXPECT_EQ_INT(kTvmErrorExecutorWorkspaceMissing, TVMExecute(&kTestModel, NULL, NULL, NULL));
  TVMSetWorkspaces(&context, workspaces, sizes, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorExecutorWorkspaceMissing,
                    TVMExecute(&kTestModel, NULL, NULL, &context));
  TVMSetWorkspaces(&context, NULL, NULL, 0);
  CRT_EXPECT_EQ_INT(kTvmErrorExecutorWorkspaceMissing,
                    TVMExecute(&kTestModel, NULL, NULL, &context));
  CRT_EXPECT_EQ_INT(0, entry_calls);
}

static void test_model_errors_propagate_to_the_caller(void) {
  FillGuards();
  entry_result = 0x1234;
  CRT_EXPECT_EQ_INT(0x1234, Run(WORKSPACE_BYTES));
  CRT_EXPECT_EQ_INT(1, entry_calls);
  entry_result = -1;
  CRT_EXPECT_EQ_INT(-1, Run(WORKSPACE_BYTES));
  CRT_EXPECT(GuardsIntact());
}

static int32_t PinnedEntry(void** inputs, void** outputs, TVMContext* context) {
  (void)inputs, (void)outputs;
  ++entry_calls;
  return context == NULL ? 0 : 1;
}

static void test_model_with_pinned_workspace_runs_without_context(void) {
  static const TVMModel pinned = {0, 0, 0, NULL, PinnedEntry};
  FillGuards();
  CRT_EXPECT_EQ_INT(0, TVMGetWorkspaceSize(&pinned, 0));
  CRT_EXPECT_EQ_INT(0, TVMExecute(&pinned, NULL, NULL, NULL));
  CRT_EXPECT_EQ_INT(1, entry_calls);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMExecute(NULL, NULL, NULL, NULL));
}

int main(void) {
  CRT_RUN(test_workspace_size_is_read_from_the_model);
  CRT_RUN(test_set_workspaces_fills_the_context);
  CRT_RUN(test_execute_with_exact_workspace_runs_inside_the_buffers);
  CRT_RUN(test_execute_with_too_small_workspace_fails_and_writes_nothing);
  CRT_RUN(test_execute_without_workspace_fails);
  CRT_RUN(test_model_errors_propagate_to_the_caller);
  CRT_RUN(test_model_with_pinned_workspace_runs_without_context);
  return crt_test_exit_code();
}
