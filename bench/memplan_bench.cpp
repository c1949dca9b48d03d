// Benchmark of memory planning (not a test): for each shared model, the
// workspace bytes every algorithm plans, the lower bound, the planning time,
// and beside them TensorFlow Lite Micro's arena_used_bytes and microTVM's
// published workspace sizes. TFLM's arena also holds the model's input and
// output tensors and its own bookkeeping, while Loupe's workspace holds the
// intermediate tensors only (the application owns inputs and outputs), so the
// table also prints workspace + I/O bytes for a like-for-like reading, and
// the lower bound if outputs may start inside their dying inputs (each
// operator's loops traced, codegen::operatorOverlaps), with its ratio to the
// tensor-level bound, and the bound if the first operators also ran strip by
// strip (memory/patch_bound.h).
//
// A second table compiles the models that have golden sets for the host with
// the default planner, without, with --overlap-outputs and with --patches too,
// builds each natively, counts one inference's instructions under callgrind
// and checks the outputs byte for byte against the golden set: the RAM
// overlaps and patches save and what they cost.
//
//   loupe_memplan_bench [MODELS_DIR]   (default: the project's tests/data/models)
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "callgrind_instructions.h"
#include "codegen/model_compiler.h"
#include "deploy/host_build.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "memory/memory_plan.h"
#include "memory/overlap_bound.h"
#include "memory/patch_bound.h"
#include "memory/planner_registry.h"
#include "targets/builtin_targets.h"

namespace fs = std::filesystem;
using namespace loupe;

namespace {

struct Anchor {
  const char* model;
  long long tflmArena;  // arena_used_bytes, measured on this machine class (issue 4)
  long long microTvm;   // MLPerf Tiny v1.0 with CMSIS-NN, published; 0: none
};

constexpr Anchor kAnchors[] = {
    {"kws_ref_model", 24'000, 17'232},    {"vww_96_int8", 103'392, 64'800},
    {"ic_resnet8_int8", 55'712, 66'112},  {"ad01_int8", 3'424, 1'160},
    {"micro_speech_quantized", 7'312, 0}, {"hello_world_int8", 1'184, 0},
    {"hello_world_float", 1'216, 0},
};

std::string digits(long long n) {
  return ir::groupDigits(n);
}

std::vector<char> fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One host build of `modelDir`'s model: workspace bytes, instructions of one
// inference, and whether its outputs are golden seed1's, byte for byte.
struct HostMeasure {
  long long workspace = 0;
  long long instructions = 0;
  bool bitExact = false;
};

HostMeasure measureOnHost(const fs::path& modelDir, bool overlapOutputs, bool patches,
                          const fs::path& work) {
  // TFLite Micro's kernels run on the CPU: compare with the CPU's code.
  const target::TargetList cpu = target::parseTargetString("c", targets::builtinTargetRegistry());
  driver::CompileRequest request{
      frontend::importTfliteFile(modelDir / "model.tflite"), cpu, {}, {}};
  request.options.memory.overlapOutputs = overlapOutputs;
  request.options.memory.patches = patches;
  const codegen::CompiledModel model = driver::compileModel(std::move(request)).model;
  const deploy::HostBuild build = deploy::buildHostExecutable(model, {});
  HostMeasure m;
  m.workspace = model.memoryPlan.result.totalBytes;
  m.instructions = bench::countInstructions(build, model, modelDir, work);
  m.bitExact = true;
  for (std::size_t i = 0; i < model.graph.outputs.size(); ++i) {
    const std::string name = "output" + std::to_string(i) + ".bin";
    m.bitExact =
        m.bitExact && fileBytes(work / name) == fileBytes(modelDir / "golden/seed1" / name);
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path modelsDir = argc > 1 ? fs::path(argv[1]) : fs::path(LOUPE_BENCH_MODELS_DIR);
  std::printf("%-24s %-20s %10s %10s %8s %9s\n", "model", "planner", "bytes", "bound", "gap", "ms");
  struct Row {
    std::string model;
    long long best, bound, overlapBound, patchBound, io, graphOrderBound, tflm, microTvm;
  };
  std::vector<Row> summary;
  std::vector<const Anchor*> withGoldens;
  for (const Anchor& anchor : kAnchors) {
    fs::path file;
    for (const auto& entry : fs::directory_iterator(modelsDir / anchor.model)) {
      if (entry.path().extension() == ".tflite") file = entry.path();
    }
    if (file.empty()) {
      std::fprintf(stderr, "no .tflite in %s\n", (modelsDir / anchor.model).c_str());
      return 1;
    }
    const ir::Graph graph = driver::partitionModel(frontend::importTfliteFile(file), {}).graph;
    long long best = -1;
    long long bound = 0, graphOrderBound = 0, overlapBound = 0, patchBound = 0;
    memory::MemoryPlanOptions options;
    options.scratchBytes = codegen::operatorScratch(graph);
    for (const memory::MemoryPlan& plan : memory::planMemoryWithEveryPlanner(graph, options)) {
      if (overlapBound == 0) {
        const auto allowances = codegen::operatorOverlaps(graph, plan.analysis);
        overlapBound = memory::overlapLowerBound(plan.analysis.buffers, allowances);
        const memory::PatchBound patches =
            memory::patchLowerBound(graph, plan.analysis, allowances);
        patchBound = patches.found ? patches.best.bound : overlapBound;
      }
      std::printf("%-24s %-20s %10s %10s %8s %9.3f\n", anchor.model, plan.planner.c_str(),
                  digits(plan.result.totalBytes).c_str(), digits(plan.lowerBound).c_str(),
                  digits(plan.gap()).c_str(), plan.milliseconds);
      if (best < 0 || plan.result.totalBytes < best) best = plan.result.totalBytes;
      bound = plan.lowerBound;
      graphOrderBound = plan.order.graphOrderBound;
    }
    long long io = 0;
    for (int t : graph.inputs) io += graph.tensor(t).byteSize();
    for (int t : graph.outputs) io += graph.tensor(t).byteSize();
    summary.push_back({anchor.model, best, bound, overlapBound, patchBound, io, graphOrderBound,
                       anchor.tflmArena, anchor.microTvm});
    if (fs::exists(modelsDir / anchor.model / "golden/seed1")) withGoldens.push_back(&anchor);
  }
  std::printf("\n%-24s %10s %10s %14s %14s %12s %12s %12s %10s %10s\n", "model", "best", "bound",
              "overlap bound", "+ patches", "model order", "best + I/O", "TFLM arena", "microTVM",
              "vs TFLM");
  auto withRatio = [](long long bytes, long long bound) {
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, " %.2fx",
                  static_cast<double>(bytes) / static_cast<double>(bound));
    return digits(bytes) + ratio;
  };
  for (const Row& r : summary) {
    std::printf("%-24s %10s %10s %14s %14s %12s %12s %12s %10s %9.2fx\n", r.model.c_str(),
                digits(r.best).c_str(), digits(r.bound).c_str(),
                withRatio(r.overlapBound, r.bound).c_str(),
                withRatio(r.patchBound, r.bound).c_str(), digits(r.graphOrderBound).c_str(),
                digits(r.best + r.io).c_str(), digits(r.tflm).c_str(),
                r.microTvm > 0 ? digits(r.microTvm).c_str() : "-",
                static_cast<double>(r.best + r.io) / static_cast<double>(r.tflm));
  }

  // Overlapping outputs, then patches too, on the host: the default
  // planner's plan each way, and what one inference costs.
  const fs::path work = fs::temp_directory_path() / "loupe-memplan-bench";
  fs::create_directories(work);
  std::printf("\nwith --overlap-outputs, then --patches too (host build, %s, golden seed1):\n",
              std::string(memory::kDefaultPlanner).c_str());
  std::printf("%-24s %10s %10s %10s %6s %10s %6s %14s %14s %8s %14s %8s %9s\n", "model", "bound",
              "before", "overlaps", "/bound", "+patches", "/bound", "instr before",
              "instr overlaps", "change", "instr patches", "change", "bit-exact");
  std::printf("%-24s %10s\n", "", "(tensors)");
  int status = 0;
  auto change = [](long long before, long long after) {
    return 100.0 * static_cast<double>(after - before) / static_cast<double>(before);
  };
  for (const Anchor* anchor : withGoldens) {
    const auto model = std::find_if(summary.begin(), summary.end(),
                                    [&](const Row& r) { return r.model == anchor->model; });
    try {
      const fs::path dir = modelsDir / anchor->model;
      const HostMeasure before = measureOnHost(dir, false, false, work);
      const HostMeasure overlaps = measureOnHost(dir, true, false, work);
      const HostMeasure patches = measureOnHost(dir, true, true, work);
      const bool exact = before.bitExact && overlaps.bitExact && patches.bitExact;
      if (!exact) status = 1;
      const auto bound = static_cast<double>(model->bound);
      std::printf(
          "%-24s %10s %10s %10s %5.2fx %10s %5.2fx %14s %14s %+7.2f%% %14s %+7.2f%% %9s\n",
          anchor->model, digits(model->bound).c_str(), digits(before.workspace).c_str(),
          digits(overlaps.workspace).c_str(), static_cast<double>(overlaps.workspace) / bound,
          digits(patches.workspace).c_str(), static_cast<double>(patches.workspace) / bound,
          digits(before.instructions).c_str(), digits(overlaps.instructions).c_str(),
          change(before.instructions, overlaps.instructions), digits(patches.instructions).c_str(),
          change(before.instructions, patches.instructions), exact ? "yes" : "NO");
    } catch (const std::exception& e) {
      status = 1;
      std::printf("%-24s failed: %s\n", anchor->model, e.what());
    }
    std::fflush(stdout);
  }
  return status;
}
