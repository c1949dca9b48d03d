// What the memory savings fit-first applies (driver/memory_fit.h) cost: for
// each shared model on three QEMU boards, the workspace bytes and the
// instructions per inference (SysTick under -icount, the seed1 golden set)
// of the plain plan, overlapped outputs, patches and both, each checked
// bit-exact against the golden output. Where a saving changes nothing
// (patches find no stage that lowers the bound) its row says so. Run by hand:
//   cmake --build build/release --target loupe_memory_savings_bench
//   build/release/bench/loupe_memory_savings_bench [MODEL|BOARD ...]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench_files.h"
#include "builtin_registries.h"
#include "deploy/deployment.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

using bench::readGoldenFile;

struct Measurement {
  std::int64_t workspace = 0;
  double instructions = 0;
  bool exact = false;
  bool patched = false;  // a patch stage was applied
};

Measurement measure(const deploy::Registries& registries, const deploy::Platform& platform,
                    const fs::path& modelDir, driver::PlanSavings savings) {
  driver::CompileRequest request{frontend::importTfliteFile(modelDir / "model.tflite"),
                                 target::parseTargetString("c", registries.targets),
                                 {},
                                 platform.cpu()};
  request.options.boardMemories = platform.memoryRegions(request.model);
  driver::applyPlanSavings(request.options, savings);
  const driver::Compilation compilation = driver::compileModel(std::move(request));
  deploy::Deployment deployment(platform, compilation.model);
  const fs::path golden = modelDir / "golden" / "seed1";
  std::vector<Bytes> inputs;
  for (std::size_t i = 0; fs::exists(golden / ("input" + std::to_string(i) + ".bin")); ++i) {
    inputs.push_back(readGoldenFile(golden / ("input" + std::to_string(i) + ".bin")));
  }
  const auto outputs = deployment.run(inputs);
  Measurement m;
  m.workspace = compilation.model.workspaceBytes();
  m.instructions = deployment.profile().total;
  m.exact = !outputs.empty();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    m.exact =
        m.exact && outputs[i] == readGoldenFile(golden / ("output" + std::to_string(i) + ".bin"));
  }
  m.patched = compilation.model.patches.has_value();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = {
      "kws_ref_model", "vww_96_int8",      "ic_resnet8_int8",       "ad01_int8",
      "person_detect", "hello_world_int8", "micro_speech_quantized"};
  std::vector<std::string> boards = {"qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps3-an547"};
  std::vector<std::string> onlyModels, onlyBoards;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    (arg.starts_with("qemu-") ? onlyBoards : onlyModels).push_back(arg);
  }
  if (!onlyModels.empty()) models = onlyModels;
  if (!onlyBoards.empty()) boards = onlyBoards;

  const deploy::Registries registries = plugins::builtinRegistries();
  std::printf(
      "workspace bytes and instructions per inference (seed1), plain plan vs the savings "
      "fit-first tries, c for the board's CPU, default schedules\n\n");
  std::printf("| model | board | plan | workspace | instructions | vs plain | exact |\n");
  std::printf("| --- | --- | --- | ---: | ---: | ---: | --- |\n");
  int failures = 0;
  for (const std::string& model : models) {
    const fs::path modelDir = fs::path(LOUPE_BENCH_MODELS_DIR) / model;
    for (const std::string& board : boards) {
      const auto platform = registries.platforms.find(board);
      double plain = 0;
      for (const driver::PlanSavings savings : driver::kPlanSavingsInOrder) {
        const std::string plan = driver::planSavingsName(savings);
        try {
          const Measurement m = measure(registries, *platform, modelDir, savings);
          if (savings == driver::PlanSavings::None) plain = m.instructions;
          const bool patchesAsked = savings == driver::PlanSavings::Patches ||
                                    savings == driver::PlanSavings::OverlapsAndPatches;
          char ratio[32] = "-";
          if (plain > 0) {
            std::snprintf(ratio, sizeof ratio, "%+.2f%%", 100.0 * (m.instructions / plain - 1.0));
          }
          std::printf("| %s | %s | %s%s | %lld | %.0f | %s | %s |\n", model.c_str(), board.c_str(),
                      plan.c_str(), patchesAsked && !m.patched ? " (no stage)" : "",
                      static_cast<long long>(m.workspace), m.instructions, ratio,
                      m.exact ? "yes" : "NO");
          failures += m.exact ? 0 : 1;
        } catch (const std::exception& e) {
          std::printf("| %s | %s | %s | failed: %s |\n", model.c_str(), board.c_str(), plan.c_str(),
                      e.what());
          ++failures;
        }
        std::fflush(stdout);
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
