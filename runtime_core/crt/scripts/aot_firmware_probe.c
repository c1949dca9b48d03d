/*
 * The runtime calls an AOT-only firmware makes, linked by the standalone
 * board build (CMakeLists.txt, target crt_aot_firmware_probe) with
 * --gc-sections to measure what such a firmware really takes from the
 * runtime. The model is a stub: kernels are not part of the runtime's size.
 * Its one operator is marked the way generated code marks every operator,
 * so the _profiled build (TVM_CRT_PROFILING=1) shows the profiler's cost.
 */
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>
#include <tvm/runtime/crt/tvm_micro_runtime.h>

static unsigned char heap[1024];
static unsigned char workspace_0[64];

static int32_t ModelEntry(void** inputs, void** outputs, TVMContext* context) {
  (void)inputs, (void)outputs, (void)context;
  TVM_PROFILE_OPERATOR_DONE(0);
  return 0;
}
static const size_t kWorkspaceSizes[] = {sizeof(workspace_0)};
static const TVMModel kModel = {0, 0, 1, kWorkspaceSizes, ModelEntry};

void TVMPlatformAbort(tvm_crt_error_t error_code) {
  (void)error_code;
  for (;;) {
  }
}

int main(void);
int main(void) {
  void* workspaces[1];
  size_t sizes[1];
  TVMContext context;
  tvm_device_t device;
  void* scratch;
#ifdef TVM_CRT_PROFILING
  TVMProfilerReset();
#endif
  TVMPlatformMemoryInit(heap, sizeof(heap));
  if (TVMPlatformMemoryAllocate(16, &scratch) != 0) return 1;
  TVMDeviceInit(&device);
  TVMDevicePlatformBind(&device, heap);
  TVMDeviceOpen(&device);
  TVMDeviceClose(&device);
  workspaces[0] = workspace_0;
  sizes[0] = sizeof(workspace_0);
  TVMSetWorkspaces(&context, workspaces, sizes, 1);
#ifdef TVM_CRT_PROFILING
  (void)TVMProfilerRunStart();
#endif
  return TVMExecute(&kModel, 0, 0, &context) + TVMPlatformMemoryFree(scratch);
}
