// What the debug run costs (issue 43): for the shared models on the QEMU
// boards (and the two smallest on the 16 KB micro:bit), the model built
// plainly and as a debug build (every tensor sent back as it is written),
// each run once over the session on a golden set's inputs:
//  - run: wall-clock seconds of the run stage (inputs, RUN with its
//    tensors, outputs, profile) on this machine's QEMU, and the ratio;
//  - bytes sent back by the debug build;
//  - instructions of the model (QEMU -icount, the profiler's sum): the same
//    in both, since sending is left out of every operator's time;
//  - the RAM the debug build needs beyond the plain one (.bss, .data and
//    pools from the link map: goal <= 1 KB) and its extra flash.
// Run by hand:
//   cmake --build build/release --target loupe_debug_run_bench
//   build/release/bench/loupe_debug_run_bench [MODEL|BOARD ...]
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench_files.h"
#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"

using namespace loupe;

namespace {

struct Case {
  const char* model;
  const char* set;
  std::vector<const char*> boards;
};

std::uint64_t ramBytes(const deploy::FirmwareFootprint& footprint) {
  std::uint64_t bytes = 0;
  for (const auto& memory : footprint.memories) bytes += memory.ramBytes;
  return bytes;
}

bool wanted(const std::vector<std::string>& filters, const std::string& model,
            const std::string& board) {
  if (filters.empty()) return true;
  for (const std::string& f : filters) {
    if (f == model || f == board) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> filters(argv + 1, argv + argc);
  const deploy::Registries registries = plugins::builtinRegistries();
  const std::vector<Case> cases = {
      {"kws_ref_model", "real1", {"qemu-mps2-an385", "qemu-mps3-an547"}},
      {"vww_96_int8", "real1", {"qemu-mps2-an385", "qemu-mps3-an547"}},
      {"ic_resnet8_int8", "real1", {"qemu-mps2-an385", "qemu-mps3-an547"}},
      {"ad01_int8", "real1", {"qemu-mps2-an385", "qemu-mps3-an547"}},
      {"micro_speech_quantized", "real1", {"qemu-microbit", "qemu-mps2-an385"}},
      {"hello_world_int8", "real1", {"qemu-microbit", "qemu-mps2-an385"}},
  };
  std::printf("%-24s %-17s %9s %9s %7s %12s %14s %14s %10s %10s\n", "model", "board", "run (s)",
              "debug (s)", "ratio", "bytes back", "instr. plain", "instr. debug", "RAM +",
              "flash +");
  for (const Case& c : cases) {
    const auto dir = std::filesystem::path(LOUPE_BENCH_MODELS_DIR) / c.model;
    const ir::Graph model = frontend::importTfliteFile((dir / "model.tflite").string());
    const auto input = bench::readGoldenFile(dir / "golden" / c.set / "input0.bin");
    for (const char* board : c.boards) {
      if (!wanted(filters, c.model, board)) continue;
      deploy::BoardRunResult runs[2];
      for (int debug = 0; debug < 2; ++debug) {
        deploy::BoardRunRequest request;
        request.platform = registries.platforms.find(board);
        request.compile.model = model;
        request.compile.targets = target::parseTargetString("c", registries.targets);
        request.compile.fitToMemories = true;
        request.compile.options.debugTensors = debug == 1;
        request.inputs = {input};
        runs[debug] = deploy::runOnBoard(std::move(request));
        if (!runs[debug].outputsBitExact()) {
          std::fprintf(stderr, "%s on %s: outputs differ from the reference\n", c.model, board);
          return 1;
        }
      }
      std::uint64_t sent = 0;
      for (const auto& [tensor, streamed] : runs[1].deviceTensors) sent += streamed.bytes.size();
      const auto ram = [&](int i) {
        return runs[i].footprint ? static_cast<std::int64_t>(ramBytes(*runs[i].footprint)) : 0;
      };
      const auto flash = [&](int i) {
        return runs[i].footprint ? static_cast<std::int64_t>(runs[i].footprint->imageBytes()) : 0;
      };
      std::printf("%-24s %-17s %9.3f %9.3f %6.1fx %12s %14s %14s %10s %10s\n", c.model, board,
                  runs[0].times.run, runs[1].times.run, runs[1].times.run / runs[0].times.run,
                  ir::groupDigits(static_cast<std::int64_t>(sent)).c_str(),
                  ir::groupDigits(static_cast<std::int64_t>(runs[0].profile.operatorSum())).c_str(),
                  ir::groupDigits(static_cast<std::int64_t>(runs[1].profile.operatorSum())).c_str(),
                  ir::groupDigits(ram(1) - ram(0)).c_str(),
                  ir::groupDigits(flash(1) - flash(0)).c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
