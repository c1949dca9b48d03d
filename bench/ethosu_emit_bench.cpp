// Loupe's Ethos-U command streams against Vela's for the same models, under
// one performance model: for kws, vww, ic, ad01 and person_detect on the
// U55-128 and U55-256, the estimated NPU cycles (plugins/targets/ethos_u,
// NXP Vela's default i.MX93 system, the one the Vela files were compiled
// for), the flash (weights, scale records) and the scratch (feature maps)
// of Vela's file in tests/data/models/vela and of the region Loupe's emitter
// compiles from the original model (compiler_core/ethosu/region_compiler:
// every operator, the final SOFTMAX too, as in Vela's stream),
// through the ethos-u target with -system_config=nxp-imx93, so that its
// choice of weight buffering weighs the same memories as Vela's did.
// Goal (issue 42): Loupe <= 1.0x Vela on cycles and scratch, <= 1.1x on flash.
// Then the CPU against the NPU for the same operators: kws on the
// U55-128 (estimated NPU cycles of Loupe's stream) beside the Cortex-M55 of
// qemu-mps3-an547 running them compiled for the CPU alone (instructions
// measured with QEMU -icount by the board's profiler, one run of a golden
// set).
//   cmake --build build/release --target loupe_ethosu_emit_bench
//   build/release/bench/loupe_ethosu_emit_bench
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <variant>

#include "analysis/ethosu_command_listing.h"
#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "frontend/tflite_importer.h"
#include "target/target_string.h"
#include "targets/ethos_u/ethosu_performance.h"

using namespace loupe;

namespace {

struct StreamFigures {
  unsigned long long npuCycles = 0;
  unsigned long long flashBytes = 0, scratchBytes = 0;
  unsigned operations = 0;
};

StreamFigures figuresOf(const ir::Graph& graph) {
  StreamFigures f;
  for (const ir::Operator& op : graph.operators) {
    if (op.type != ir::OpType::EthosU) continue;
    const auto payload = analysis::ethosuPayloadOf(graph, op);
    const auto estimate = ethosu::estimatePayload(
        payload, ethosu::nxpVelaDefaultSystem(ethosu::npuConfigOf(payload)));
    const auto& attrs = std::get<ir::EthosUAttrs>(op.attributes);
    f.npuCycles += estimate.npuCycles;
    if (const ir::Tensor* flash = graph.input(op, 1)) f.flashBytes += flash->data.size();
    f.scratchBytes += static_cast<unsigned long long>(
        attrs.scratchBytes + (attrs.fastScratchOffset >= 0 ? 0 : attrs.fastScratchBytes));
    f.operations += attrs.npuOperations;
  }
  return f;
}

// Operators 0..last of `model` as one Ethos-U region, compiled as `loupec
// compile --target "ethos-u -accelerator_config=NPU -system_config=nxp-imx93"`
// compiles it: for the system the Vela files were compiled for, which the
// choice of weight buffering weighs.
ir::Graph compileWithTarget(const ir::Graph& model, int last, const std::string& npu) {
  const deploy::Registries registries = plugins::builtinRegistries();
  const target::TargetList targets = target::parseTargetString(
      "ethos-u -accelerator_config=" + npu + " -system_config=nxp-imx93", registries.targets);
  return (*targets.front()->regionOperatorCompiler())(model, 0, last);
}

double ratio(unsigned long long a, unsigned long long b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

// kws wholly on the NPU (the U55-128) against the same operators on the
// M55's CPU. Returns 1 when the CPU run fails.
int compareWithTheCpu(const std::filesystem::path& models) {
  const char* const model = "kws_ref_model";
  const char* const board = "qemu-mps3-an547";
  try {
    const ir::Graph original = frontend::importTfliteFile(models / model / "model.tflite");
    const int last = static_cast<int>(original.operators.size()) - 1;
    const StreamFigures npu = figuresOf(compileWithTarget(original, last, "ethos-u55-128"));
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(board);
    request.compile.model = original;
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.compile.fitToMemories = true;
    std::ifstream input(models / model / "golden" / "real1" / "input0.bin", std::ios::binary);
    request.inputs = {{std::istreambuf_iterator<char>(input), {}}};
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    if (!run.outputsBitExact()) throw std::runtime_error("the CPU's outputs are not bit-exact");
    double cpu = 0;
    for (const deploy::OperatorTime& call : run.profile.operators) {
      if (call.operatorIndex <= last) cpu += call.time;
    }
    std::printf(
        "\nCPU against NPU, %s operators 0-%d (all of them)\n\n"
        "| | Ethos-U55-128 (estimated NPU cycles, Loupe's stream) | Cortex-M55 on %s "
        "(measured %s) | CPU / NPU |\n| --- | ---: | ---: | ---: |\n"
        "| %s | %llu | %.0f | %.1fx |\n",
        model, last, board, run.profile.unit.c_str(), model, npu.npuCycles, cpu,
        npu.npuCycles == 0 ? 0.0 : cpu / static_cast<double>(npu.npuCycles));
    return 0;
  } catch (const std::exception& error) {
    std::printf("\nCPU against NPU: failed: %s\n", error.what());
    return 1;
  }
}

}  // namespace

int main() {
  const std::filesystem::path models(LOUPE_BENCH_MODELS_DIR);
  std::printf(
      "Ethos-U streams: Loupe's emitter vs Vela 3.10 for the same model, one "
      "performance model (NXP Vela's default i.MX93 system)\n\n");
  std::printf(
      "| model | NPU | ops Loupe/Vela | NPU cycles Loupe | Vela | ratio | flash Loupe | "
      "Vela | ratio | scratch Loupe | Vela | ratio |\n");
  std::printf(
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  int failures = 0;
  for (const char* model :
       {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8", "person_detect"}) {
    for (const char* npu : {"ethos-u55-128", "ethos-u55-256"}) {
      try {
        frontend::ImportOptions options;
        options.keepUnsupportedOperators = true;
        const StreamFigures vela = figuresOf(frontend::importTfliteFile(
            models / "vela" / npu / (std::string(model) + "_vela.tflite"), options));
        const ir::Graph original = frontend::importTfliteFile(models / model / "model.tflite");
        const int last = static_cast<int>(original.operators.size()) - 1;
        const StreamFigures loupe = figuresOf(compileWithTarget(original, last, npu));
        std::printf(
            "| %s | %s | %u/%u | %llu | %llu | %.3fx | %llu | %llu | %.2fx | %llu | %llu | "
            "%.2fx |\n",
            model, npu + 6, loupe.operations, vela.operations, loupe.npuCycles, vela.npuCycles,
            ratio(loupe.npuCycles, vela.npuCycles), loupe.flashBytes, vela.flashBytes,
            ratio(loupe.flashBytes, vela.flashBytes), loupe.scratchBytes, vela.scratchBytes,
            ratio(loupe.scratchBytes, vela.scratchBytes));
      } catch (const std::exception& error) {
        std::printf("| %s | %s | failed: %s |\n", model, npu, error.what());
        ++failures;
      }
    }
  }
  failures += compareWithTheCpu(models);
  return failures == 0 ? 0 : 1;
}
