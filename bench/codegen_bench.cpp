// Benchmark of the generated C (not a test): for each model, compiles it,
// builds it natively at -O2 with a plain main, counts the instructions of one
// tvmgen_default_run under valgrind's callgrind (repeatable, unlike time on a
// noisy machine) and prints them beside TensorFlow Lite Micro's count for the
// same model, with the ratio. Then times the compiler on kws_ref_model.
//
//   loupe_codegen_bench [MODELS_DIR]   (default: the project's tests/data/models)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "callgrind_instructions.h"
#include "deploy/host_build.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "targets/builtin_targets.h"

namespace fs = std::filesystem;
using namespace loupe;

namespace {

struct Baseline {
  const char* model;
  long long tflmInstructions;  // TFLite Micro reference kernels, g++ 12 -O2 -DNDEBUG, one inference
};

// Measured on this machine class (given in issue 3, [codegen]).
constexpr Baseline kBaselines[] = {
    {"kws_ref_model", 49'950'398},
    {"vww_96_int8", 121'115'063},
    {"ic_resnet8_int8", 132'844'787},
    {"ad01_int8", 2'507'995},
};

}  // namespace

int main(int argc, char** argv) {
  const fs::path modelsDir = argc > 1 ? fs::path(argv[1]) : fs::path(LOUPE_BENCH_MODELS_DIR);
  const fs::path work = fs::temp_directory_path() / "loupe-codegen-bench";
  fs::create_directories(work);
  std::printf("%-18s %15s %15s %8s %6s %12s\n", "model", "TFLM instr", "Loupe instr", "ratio",
              "goal", "workspace B");
  bool allMet = true;
  // TFLite Micro's kernels run on the CPU: compare with the CPU's code.
  const target::TargetList cpu = target::parseTargetString("c", targets::builtinTargetRegistry());
  for (const Baseline& baseline : kBaselines) {
    const fs::path dir = modelsDir / baseline.model;
    try {
      const codegen::CompiledModel model =
          driver::compileModel({frontend::importTfliteFile(dir / "model.tflite"), cpu, {}}).model;
      const deploy::HostBuild build = deploy::buildHostExecutable(model, {});
      const long long count = bench::countInstructions(build, model, dir, work);
      const double ratio =
          static_cast<double>(count) / static_cast<double>(baseline.tflmInstructions);
      allMet = allMet && ratio <= 0.5;
      std::printf("%-18s %15s %15s %8.3f %6s %12s\n", baseline.model,
                  ir::groupDigits(baseline.tflmInstructions).c_str(),
                  ir::groupDigits(count).c_str(), ratio, ratio <= 0.5 ? "met" : "MISSED",
                  ir::groupDigits(model.workspaceBytes()).c_str());
    } catch (const std::exception& e) {
      allMet = false;
      std::printf("%-18s failed: %s\n", baseline.model, e.what());
    }
    std::fflush(stdout);
  }

  // Compile time of kws_ref_model: import + passes + lowering + C printing,
  // best of five in this process (the release build is what counts).
  const fs::path kws = modelsDir / "kws_ref_model" / "model.tflite";
  double best = 1e9;
  try {
    for (int i = 0; i < 5; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const ir::Graph graph = frontend::importTfliteFile(kws);
      const codegen::CompiledModel model = codegen::compileToC(graph, {});
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = std::min(best, seconds);
    }
  } catch (const std::exception& e) {
    std::printf("\ncompile kws_ref_model failed: %s\n", e.what());
    return 1;
  }
  std::printf("\ncompile kws_ref_model: %.3f s (best of 5; goal < 0.3 s: %s)\n", best,
              best < 0.3 ? "met" : "MISSED");
  return allMet ? 0 : 1;
}
