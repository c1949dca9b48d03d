// Loupe's Ethos-U command streams against Vela's for the same models, under
// one performance model: for kws, vww, ic, ad01 and person_detect on the
// U55-128 and U55-256, the estimated NPU cycles (plugins/targets/ethos_u,
// NXP Vela's default i.MX93 system, the one the Vela files were compiled
// for), the flash (weights, scale records) and the scratch (feature maps)
// of Vela's file in tests/data/models/vela and of the region Loupe's emitter
// compiles from the original model (compiler_core/ethosu/region_compiler:
// every operator but the final SOFTMAX, which Vela's stream holds as well).
// Goal (issue 42): Loupe <= 1.0x Vela on cycles and scratch, <= 1.1x on flash.
//   cmake --build build/release --target loupe_ethosu_emit_bench
//   build/release/bench/loupe_ethosu_emit_bench
#include <cstdio>
#include <filesystem>
#include <string>
#include <variant>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/region_compiler.h"
#include "frontend/tflite_importer.h"
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

double ratio(unsigned long long a, unsigned long long b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
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
        int last = static_cast<int>(original.operators.size()) - 1;
        if (original.operators.back().type == ir::OpType::Softmax) --last;
        const StreamFigures loupe =
            figuresOf(ethosu::withNpuRegion(original, 0, last, *ethosu::findNpuArchitecture(npu)));
        std::printf(
            "| %s | %s | %u/%u | %llu | %llu | %.2fx | %llu | %llu | %.2fx | %llu | %llu | "
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
  return failures == 0 ? 0 : 1;
}
