// The speed benchmark (issue [speed]): instructions per inference of each
// shared model on each QEMU board, counted by SysTick under `-icount` (one
// instruction per tick, deterministic), with the portable C kernels
// (`c -mcpu=generic`) and with the kernels of the board's CPU (`c`: scalar
// on the M3, DSP on the M4/M7/M33, MVE on the M55), beside TFLite Micro +
// CMSIS-NN on the same boards where that was measured (the figures of issue
// 18, TFLM 90b983c with CMSIS-NN, kernels -O2). Every run is checked
// against the model's golden seed1 output; flash is text + data of the
// firmware ELF (arm-none-eabi-size), the model's code and weights with the
// runtime and RPC server. The tuned column tunes the model on the board
// first (deploy/auto_tuner.h, every candidate schedule) unless the log in the
// tuning folder already has it. Run by hand:
//   cmake --build build/release --target loupe_board_speed_bench
//   build/release/bench/loupe_board_speed_bench [MODEL|BOARD ...]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench_files.h"
#include "builtin_registries.h"
#include "deploy/auto_tuner.h"
#include "deploy/deployment.h"
#include "deploy/mac_peak.h"
#include "deploy/process_runner.h"
#include "deploy/run_profile.h"
#include "driver/compile_driver.h"
#include "elf_flash_bytes.h"
#include "frontend/tflite_importer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

using bench::readGoldenFile;

// TFLite Micro + CMSIS-NN, millions of instructions (issue 18's table).
const std::map<std::pair<std::string, std::string>, double> kCmsisNn = {
    {{"kws_ref_model", "qemu-mps2-an385"}, 10.5},   {{"kws_ref_model", "qemu-mps2-an386"}, 7.70},
    {{"kws_ref_model", "qemu-mps3-an547"}, 1.81},   {{"vww_96_int8", "qemu-mps2-an385"}, 32.0},
    {{"vww_96_int8", "qemu-mps2-an386"}, 24.1},     {{"vww_96_int8", "qemu-mps3-an547"}, 6.56},
    {{"ic_resnet8_int8", "qemu-mps2-an385"}, 41.8}, {{"ic_resnet8_int8", "qemu-mps2-an386"}, 29.9},
    {{"ic_resnet8_int8", "qemu-mps3-an547"}, 4.91}, {{"ad01_int8", "qemu-mps2-an385"}, 0.96},
    {{"ad01_int8", "qemu-mps2-an386"}, 0.58},       {{"ad01_int8", "qemu-mps3-an547"}, 0.15},
};

struct Measurement {
  double instructions = 0;
  std::size_t flash = 0;
  bool exact = false;
  std::string isa;
  deploy::RunProfile profile;

  // The whole run's MACs of its MAC kernels (deploy/mac_peak.h) per
  // instruction against the core's peak, in percent ("-" where no peak is
  // known).
  std::string percentOfPeak() const {
    if (profile.peakMacsPerUnit <= 0 || instructions <= 0) return "-";
    double macs = 0;
    for (const deploy::OperatorTime& call : profile.operators) {
      if (!call.npu && deploy::isMacKernelOperator(call.type)) {
        macs += static_cast<double>(call.macs);
      }
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%",
                  100.0 * macs / (instructions * profile.peakMacsPerUnit));
    return text;
  }
};

// Per operator of one run: its instructions, MACs, MACs per instruction and
// share of the core's peak.
void printOperatorTable(const std::string& model, const std::string& board, const Measurement& m) {
  std::printf(
      "\n%s on %s (%s kernels, default schedules), per operator; peak %.0f MACs per "
      "instruction\n\n| op | type | MACs | instructions | MACs/instr | %% of peak |\n"
      "| --- | --- | ---: | ---: | ---: | ---: |\n",
      model.c_str(), board.c_str(), m.isa.c_str(), m.profile.peakMacsPerUnit);
  for (const deploy::OperatorTime& call : m.profile.operators) {
    const auto percent = m.profile.percentOfPeak(call);
    char rate[32] = "-", share[32] = "-";
    if (call.macs > 0 && call.time > 0) {
      std::snprintf(rate, sizeof rate, "%.2f", static_cast<double>(call.macs) / call.time);
    }
    if (percent) std::snprintf(share, sizeof share, "%.1f", *percent);
    std::printf("| %d | %s | %lld | %.0f | %s | %s |\n", call.operatorIndex, call.type.c_str(),
                static_cast<long long>(call.macs), call.time, rate, share);
  }
}

Measurement measure(const deploy::Registries& registries, const deploy::Platform& platform,
                    const fs::path& modelDir, const std::string& targetString,
                    const lowering::ScheduleTable& schedules = {}) {
  codegen::CompileOptions options;
  options.schedules = schedules;
  driver::Compilation compilation =
      driver::compileModel({frontend::importTfliteFile(modelDir / "model.tflite"),
                            target::parseTargetString(targetString, registries.targets),
                            std::move(options), platform.cpu()});
  deploy::Deployment deployment(platform, compilation.model);
  const fs::path golden = modelDir / "golden" / "seed1";
  const auto outputs = deployment.run({readGoldenFile(golden / "input0.bin")});
  Measurement m;
  m.instructions = deployment.profile().total;
  m.profile = deployment.profile();
  m.flash = bench::elfFlashBytes(deployment.firmware().firmware);
  m.exact = outputs.size() == 1 && outputs[0] == readGoldenFile(golden / "output0.bin");
  m.isa = std::string(target::cpuIsaName(compilation.model.isa));
  return m;
}

// The best schedules for the model on the board: tuned on it (every
// candidate, two boards at once, the seed1 input) into `log`, resuming what
// the log already holds, so a second run of the benchmark tunes nothing.
lowering::ScheduleTable tunedSchedules(const deploy::Registries& registries,
                                       std::shared_ptr<const deploy::Platform> platform,
                                       const fs::path& modelDir, const fs::path& log) {
  std::vector<tuning::TuningRecord> records;
  if (fs::exists(log)) records = tuning::readTuningLogFile(log.string());
  deploy::TuneRequest request;
  request.platform = std::move(platform);
  request.compile = {frontend::importTfliteFile(modelDir / "model.tflite"),
                     target::parseTargetString("c", registries.targets),
                     {}};
  request.inputs = {readGoldenFile(modelDir / "golden" / "seed1" / "input0.bin")};
  request.jobs = 2;
  request.previous = records;
  request.version = "bench";
  std::ofstream out(log, std::ios::app);
  request.progress = [&out](const deploy::TuningProgress& progress) {
    if (progress.record) out << tuning::tuningRecordLine(*progress.record) << "\n" << std::flush;
  };
  const deploy::TuneResult result = deploy::tuneOnBoard(std::move(request));
  records.insert(records.end(), result.records.begin(), result.records.end());
  return tuning::bestSchedules(records);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8",
                                     "ad01_int8"};
  std::vector<std::string> boards = {"qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps2-an500",
                                     "qemu-mps2-an505", "qemu-mps3-an547"};
  // Arguments narrow the table: model names and board names;
  // --tuning-dir DIR keeps the tuning logs (default bench-tuning, here);
  // --no-tune leaves the tuned column out (tuning builds a firmware per trial).
  std::vector<std::string> onlyModels, onlyBoards;
  fs::path tuningDir = "bench-tuning";
  bool tune = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--no-tune") {
      tune = false;
      continue;
    }
    if (arg == "--tuning-dir" && i + 1 < argc) {
      tuningDir = argv[++i];
      continue;
    }
    (arg.starts_with("qemu-") ? onlyBoards : onlyModels).push_back(arg);
  }
  fs::create_directories(tuningDir);
  if (!onlyModels.empty()) models = onlyModels;
  if (!onlyBoards.empty()) boards = onlyBoards;

  const deploy::Registries registries = plugins::builtinRegistries();
  std::printf(
      "instructions per inference (M), seed1 input; portable: c -mcpu=generic; default: c for "
      "the board's CPU, default schedules; tuned: with the best schedules loupec tune found on "
      "the board (logs in %s)\n\n",
      tuningDir.string().c_str());
  std::printf(
      "| model | board | portable | ISA | default | tuned | CMSIS-NN | default vs CMSIS-NN | "
      "tuned vs CMSIS-NN | %% of peak default | %% of peak tuned | flash default | flash tuned | "
      "exact |\n");
  std::printf(
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  // kws on the M55 (the thinnest lead over CMSIS-NN) again per operator.
  std::optional<Measurement> kwsOnM55;
  int failures = 0;
  for (const std::string& model : models) {
    const fs::path modelDir = fs::path(LOUPE_BENCH_MODELS_DIR) / model;
    for (const std::string& board : boards) {
      const auto platform = registries.platforms.find(board);
      if (!platform) {
        std::fprintf(stderr, "no platform %s\n", board.c_str());
        return 2;
      }
      try {
        const Measurement portable = measure(registries, *platform, modelDir, "c -mcpu=generic");
        const Measurement native = measure(registries, *platform, modelDir, "c");
        Measurement tuned;
        if (tune) {
          tuned = measure(registries, *platform, modelDir, "c",
                          tunedSchedules(registries, platform, modelDir,
                                         tuningDir / (model + "." + board + ".jsonl")));
        }
        const auto cmsis = kCmsisNn.find({model, board});
        char cmsisText[32] = "-", defaultRatio[32] = "-", tunedRatio[32] = "-";
        if (cmsis != kCmsisNn.end()) {
          std::snprintf(cmsisText, sizeof cmsisText, "%.2f", cmsis->second);
          std::snprintf(defaultRatio, sizeof defaultRatio, "%.2fx",
                        native.instructions / 1e6 / cmsis->second);
          if (tune) {
            std::snprintf(tunedRatio, sizeof tunedRatio, "%.2fx",
                          tuned.instructions / 1e6 / cmsis->second);
          }
        }
        const bool exact = portable.exact && native.exact && (!tune || tuned.exact);
        char tunedText[32] = "-", tunedFlash[32] = "-";
        if (tune) {
          std::snprintf(tunedText, sizeof tunedText, "%.2f", tuned.instructions / 1e6);
          std::snprintf(tunedFlash, sizeof tunedFlash, "%zu", tuned.flash);
        }
        failures += exact ? 0 : 1;
        std::printf(
            "| %s | %s | %.2f | %s | %.2f | %s | %s | %s | %s | %s | %s | %zu | %s | %s |\n",
            model.c_str(), board.c_str(), portable.instructions / 1e6, native.isa.c_str(),
            native.instructions / 1e6, tunedText, cmsisText, defaultRatio, tunedRatio,
            native.percentOfPeak().c_str(), tune ? tuned.percentOfPeak().c_str() : "-",
            native.flash, tunedFlash, exact ? "yes" : "NO");
        if (model == "kws_ref_model" && board == "qemu-mps3-an547") kwsOnM55 = native;
        std::fflush(stdout);
      } catch (const std::exception& e) {
        std::printf("| %s | %s | failed: %s |\n", model.c_str(), board.c_str(), e.what());
        ++failures;
      }
    }
  }
  if (kwsOnM55) printOperatorTable("kws_ref_model", "qemu-mps3-an547", *kwsOnM55);
  return failures == 0 ? 0 : 1;
}
