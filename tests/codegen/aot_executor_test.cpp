// The generated AOT executor driven through the embedded interface by a C
// main() of the test's own: devices opened and closed around exactly the
// operators mapped to them (a counting bare-metal platform), errors from a
// device propagated, the profiling hook's table filled when TVM_CRT_PROFILING
// is on, an external workspace checked by TVMExecute, and every operator
// function found by name in the system library (runtime.SystemLib) and
// called through TVMFuncCall.
#include <QtTest>

#include <regex>

#include "codegen/runtime_files.h"
#include "deploy/host_build.h"
#include "deploy/process_runner.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "test_group.h"

namespace aot_executor_test {

using namespace loupe;

namespace {

// Three chained FULLY_CONNECTED layers, int8.
ir::Graph threeLayers() {
  test::GraphBuilder g;
  int previous = g.tensor("x", ir::DType::Int8, {1, 8}, test::perTensor(0.1f, 3));
  const int input = previous;
  for (int layer = 0; layer < 3; ++layer) {
    std::vector<std::int8_t> w(64);
    for (std::size_t i = 0; i < w.size(); ++i)
      w[i] = static_cast<std::int8_t>((i * 37 + layer) % 255 - 127);
    const int weights = g.constant("w" + std::to_string(layer), ir::DType::Int8, {8, 8}, w,
                                   test::perTensor(0.02f, 0));
    const int out =
        g.tensor("y" + std::to_string(layer), ir::DType::Int8, {1, 8}, test::perTensor(0.2f, -1));
    g.op(ir::OpType::FullyConnected, {previous, weights, ir::kNoTensor}, {out},
         ir::FullyConnectedAttrs{});
    previous = out;
  }
  return g.inputs({input}).outputs({previous}).build();
}

deploy::ProcessResult buildAndRun(const codegen::CompiledModel& model,
                                  deploy::HostBuildOptions options) {
  options.cacheRoot = test::codegenCacheRoot();
  const deploy::HostBuild build = deploy::buildHostExecutable(model, options);
  return deploy::runProcess({build.executable.string()}, build.directory);
}

int field(const std::string& text, const std::string& name) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex("\\b" + name + "=(-?\\d+)"))) return -9999;
  return std::stoi(match[1]);
}

const char* kCountingPlatform = R"(
#include <stdio.h>
#include <string.h>
#include <tvm/runtime/crt/device.h>
#include <tvm/runtime/crt/tvm_micro_runtime.h>
#include "tvmgen_default.h"

static struct { int opens, closes, depth, max_depth, fail_open; void* last; } platform;

int32_t TVMDeviceInit(tvm_device_t* d) { *d = NULL; return 0; }
int32_t TVMDevicePlatformBind(tvm_device_t* d, void* handle) { *d = handle; return 0; }
int32_t TVMDeviceOpen(tvm_device_t* d) {
  if (platform.fail_open) return 0x0601;
  ++platform.opens; ++platform.depth; platform.last = *d;
  if (platform.depth > platform.max_depth) platform.max_depth = platform.depth;
  return 0;
}
int32_t TVMDeviceClose(tvm_device_t* d) { (void)d; ++platform.closes; --platform.depth; return 0; }
int32_t TVMDeviceDestroy(tvm_device_t* d) { *d = NULL; return 0; }

int main(void) {
  static int hardware;
  static int8_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static int8_t y[8];
  void* inputs[1] = {x};
  void* outputs[1] = {y};
  tvm_device_t accelerator;
  struct tvmgen_default_devices devices;
  TVMContext context;
  int32_t status;
  memset(&context, 0, sizeof(context));
  TVMDeviceInit(&accelerator);
  TVMDevicePlatformBind(&accelerator, &hardware);
  devices.accelerator = &accelerator;
  TVMSetDevices(&context, &devices);
  status = TVMExecute(&tvmgen_default_model, inputs, outputs, &context);
  printf("status=%d opens=%d closes=%d depth=%d max_depth=%d bound=%d\n", (int)status,
         platform.opens, platform.closes, platform.depth, platform.max_depth,
         platform.last == (void*)&hardware);
  platform.fail_open = 1;
  status = TVMExecute(&tvmgen_default_model, inputs, outputs, &context);
  printf("failing_open_status=%d\n", (int)status);
  status = TVMExecute(&tvmgen_default_model, inputs, outputs, NULL);
  printf("no_context_status=%d\n", (int)status);
  return 0;
}
)";

// Looks every operator function up by name through runtime.SystemLib, chains
// them by TVMFuncCall over its own buffers and compares with the AOT run;
// then the errors a caller can make.
std::string registryMain(const codegen::CompiledModel& model) {
  std::string names;
  for (const auto& f : model.functions) names += "\"" + f.name + "\", ";
  return R"(
#include <stdio.h>
#include <string.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include "tvmgen_default.h"

static const char* names[] = {)" +
         names + R"(};

int main(void) {
  int8_t x[8], a[8], b[8], y_lib[8], y_aot[8];
  int8_t* chain[4];
  struct tvmgen_default_inputs in;
  struct tvmgen_default_outputs out;
  TVMFunctionHandle syslib, f;
  TVMModuleHandle mod;
  TVMValue ret, args[2];
  int codes[2] = {kTVMOpaqueHandle, kTVMOpaqueHandle};
  int ret_code, i;
  chain[0] = x; chain[1] = a; chain[2] = b; chain[3] = y_lib;
  for (i = 0; i < 8; ++i) x[i] = (int8_t)(i * 29 - 100);
  in.x = x;
  out.y2 = y_aot;
  printf("aot=%d\n", (int)tvmgen_default_run(&in, &out));
  printf("init=%d\n", TVMInitializeRuntime());
  printf("global=%d\n", TVMFuncGetGlobal("runtime.SystemLib", &syslib));
  printf("syslib=%d\n", TVMFuncCall(syslib, NULL, NULL, 0, &ret, &ret_code));
  printf("is_module=%d\n", ret_code == kTVMModuleHandle);
  mod = ret.v_handle;
  for (i = 0; i < 3; ++i) {
    printf("lookup%d=%d\n", i, TVMModGetFunction(mod, names[i], 0, &f));
    args[0].v_handle = chain[i];
    args[1].v_handle = chain[i + 1];
    printf("call%d=%d\n", i, TVMFuncCall(f, args, codes, 2, &ret, &ret_code));
  }
  printf("same=%d\n", memcmp(y_aot, y_lib, sizeof y_aot) == 0);
  printf("missing=%d\n", TVMModGetFunction(mod, "tvmgen_default_fused_softmax_9", 0, &f));
  printf("expect_missing=%d\n", (int)kTvmErrorFunctionNameNotFound);
  TVMModGetFunction(mod, names[0], 0, &f);
  printf("wrong_count=%d\n", TVMFuncCall(f, args, codes, 1, &ret, &ret_code));
  printf("expect_failed=%d\n", (int)kTvmErrorFunctionCallFailed);
  args[0].v_handle = NULL;
  printf("null_arg=%d\n", TVMFuncCall(f, args, codes, 2, &ret, &ret_code));
  return 0;
}
)";
}

}  // namespace

class AotExecutor : public QObject {
  Q_OBJECT

 private slots:
  void operatorFunctionsAreFoundByNameInTheSystemLib() {
    const codegen::CompiledModel model = codegen::compileToC(threeLayers(), {});
    QCOMPARE(model.functions.size(), std::size_t{3});
    for (const auto& f : model.functions) QCOMPARE(f.params.size(), std::size_t{2});
    deploy::HostBuildOptions build;
    build.mainSource = registryMain(model);
    // The runtime's handle API, as an application linking the MLF gets it.
    for (const EmbeddedFile& f : codegen::runtimeFiles()) {
      const std::string path(f.path);
      if (path.starts_with("src/") && path.ends_with(".c")) {
        build.extraSources.push_back({path.substr(4), std::string(f.bytes)});
      }
    }
    const auto result = buildAndRun(model, build);
    QVERIFY2(result.exitCode == 0, result.output.c_str());
    for (const char* key : {"aot", "init", "global", "syslib", "lookup0", "call0", "lookup1",
                            "call1", "lookup2", "call2"}) {
      QVERIFY2(field(result.output, key) == 0, (std::string(key) + "\n" + result.output).c_str());
    }
    QCOMPARE(field(result.output, "is_module"), 1);
    QCOMPARE(field(result.output, "same"), 1);
    QCOMPARE(field(result.output, "missing"), field(result.output, "expect_missing"));
    QCOMPARE(field(result.output, "wrong_count"), field(result.output, "expect_failed"));
    QCOMPARE(field(result.output, "null_arg"), field(result.output, "expect_failed"));
  }

  void devicesOpenAndCloseAroundTheirOperators() {
    codegen::CompileOptions options;
    options.operatorDevices = {{0, "accelerator"}, {2, "accelerator"}};
    const auto model = codegen::compileToC(threeLayers(), options);
    QCOMPARE(model.devices, std::vector<std::string>{"accelerator"});
    const std::string& header = model.headers.at(0).text;
    QVERIFY2(header.find("struct tvmgen_default_devices {\n  tvm_device_t* accelerator;\n};") !=
                 std::string::npos,
             header.c_str());
    deploy::HostBuildOptions build;
    build.mainSource = kCountingPlatform;
    const auto result = buildAndRun(model, build);
    QVERIFY2(result.exitCode == 0, result.output.c_str());
    QCOMPARE(field(result.output, "status"), 0);
    QCOMPARE(field(result.output, "opens"), 2);  // operators 0 and 2, not 1
    QCOMPARE(field(result.output, "closes"), 2);
    QCOMPARE(field(result.output, "depth"), 0);
    QCOMPARE(field(result.output, "max_depth"), 1);
    QCOMPARE(field(result.output, "bound"), 1);
    QCOMPARE(field(result.output, "failing_open_status"), 0x0601);
    QCOMPARE(field(result.output, "no_context_status"), 1);  // kTvmErrorInvalidArgument
  }

  void profilingFillsTheTableWhenEnabled() {
    const auto model = codegen::compileToC(threeLayers(), {});
    deploy::HostBuildOptions build;
    build.flags = {"-O2", "-DTVM_CRT_PROFILING=1"};
    for (const EmbeddedFile& f : codegen::runtimeFiles()) {
      if (f.path == "src/profiler.c")
        build.extraSources.push_back({"profiler.c", std::string(f.bytes)});
    }
    QCOMPARE(build.extraSources.size(), std::size_t{1});
    build.mainSource = R"(
#include <stdio.h>
#include <tvm/runtime/crt/profiler.h>
#include "tvmgen_default.h"
static uint32_t now;
uint32_t TVMPlatformProfilerTicks(void) { return now += 5; }
uint32_t TVMPlatformProfilerTicksPerSecond(void) { return 1000; }
int main(void) {
  static int8_t x[8], y[8];
  struct tvmgen_default_inputs in = {x};
  struct tvmgen_default_outputs out = {y};
  size_t i;
  TVMProfilerReset();
  /* Without a run started, the operators' marks have nothing to measure from. */
  if (tvmgen_default_run(&in, &out) != 0) return 1;
  printf("unstarted_entries=%d\n", (int)TVMProfilerEntryCount());
  for (i = 0; i < 2; ++i) {
    TVMProfilerRunStart();
    if (tvmgen_default_run(&in, &out) != 0) return 1;
  }
  printf("entries=%d\n", (int)TVMProfilerEntryCount());
  for (i = 0; i < TVMProfilerEntryCount(); ++i) {
    printf("op%d_calls=%d op%d_ticks=%d\n", (int)i, (int)TVMProfilerEntries()[i].calls, (int)i,
           (int)TVMProfilerEntries()[i].total_ticks);
  }
  return 0;
}
)";
    const auto result = buildAndRun(model, build);
    QVERIFY2(result.exitCode == 0, result.output.c_str());
    QCOMPARE(field(result.output, "unstarted_entries"), 0);
    QCOMPARE(field(result.output, "entries"), 3);
    for (int op = 0; op < 3; ++op) {
      QCOMPARE(field(result.output, "op" + std::to_string(op) + "_calls"), 2);
      QCOMPARE(field(result.output, "op" + std::to_string(op) + "_ticks"), 10);  // 5 per call
    }
  }

  void externalWorkspaceIsCheckedAndUsed() {
    codegen::CompileOptions options;
    options.externalWorkspace = true;
    const ir::Graph graph = threeLayers();
    const auto model = codegen::compileToC(graph, options);
    QVERIFY(model.workspaceBytes() > 0);
    const auto inputs = test::randomInputs(graph, 4);
    std::string values;
    for (std::uint8_t b : inputs[0])
      values += std::to_string(static_cast<int>(static_cast<std::int8_t>(b))) + ",";
    deploy::HostBuildOptions build;
    build.mainSource = R"(
#include <stdio.h>
#include <tvm/runtime/crt/tvm_micro_runtime.h>
#include "tvmgen_default.h"
int main(void) {
  static int8_t x[8] = {)" +
                       values + R"(};
  static int8_t y[8];
  static uint64_t workspace[TVMGEN_DEFAULT_WORKSPACE_SIZE / 8 + 1];
  void* inputs[1] = {x};
  void* outputs[1] = {y};
  void* workspaces[1] = {workspace};
  size_t small = TVMGEN_DEFAULT_WORKSPACE_SIZE - 1, enough = TVMGEN_DEFAULT_WORKSPACE_SIZE;
  TVMContext context;
  int i;
  printf("size=%d model_size=%d\n", (int)TVMGEN_DEFAULT_WORKSPACE_SIZE,
         (int)TVMGetWorkspaceSize(&tvmgen_default_model, 0));
  TVMSetWorkspaces(&context, workspaces, &small, 1);
  context.devices = NULL;
  printf("small_status=%d touched=%d\n", (int)TVMExecute(&tvmgen_default_model, inputs, outputs, &context), y[0] != 0);
  TVMSetWorkspaces(&context, workspaces, &enough, 1);
  printf("status=%d\n", (int)TVMExecute(&tvmgen_default_model, inputs, outputs, &context));
  for (i = 0; i < 8; ++i) printf("y%d=%d\n", i, y[i]);
  return 0;
}
)";
    const auto result = buildAndRun(model, build);
    QVERIFY2(result.exitCode == 0, result.output.c_str());
    QCOMPARE(field(result.output, "size"), static_cast<int>(model.workspaceBytes()));
    QCOMPARE(field(result.output, "model_size"), static_cast<int>(model.workspaceBytes()));
    QCOMPARE(field(result.output, "small_status"), 0x0500);  // kTvmErrorExecutorWorkspaceTooSmall
    QCOMPARE(field(result.output, "touched"), 0);
    QCOMPARE(field(result.output, "status"), 0);
    const auto expected = test::runReference(graph, inputs)[0];
    for (int i = 0; i < 8; ++i) {
      QCOMPARE(field(result.output, "y" + std::to_string(i)),
               static_cast<int>(static_cast<std::int8_t>(expected[i])));
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(AotExecutor)

}  // namespace aot_executor_test

#include "aot_executor_test.moc"
