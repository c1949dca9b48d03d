// The speed benchmark (issue [speed]): instructions per inference of each
// shared model on each QEMU board, counted by SysTick under `-icount` (one
// instruction per tick, deterministic), with the portable C kernels
// (`c -mcpu=generic`) and with the kernels of the board's CPU (`c`: scalar
// on the M3, DSP on the M4/M7/M33, MVE on the M55), beside TFLite Micro +
// CMSIS-NN on the same boards where that was measured (the figures of issue
// 18, TFLM 90b983c with CMSIS-NN, kernels -O2). Every run is checked
// against the model's golden seed1 output; flash is text + data of the
// firmware ELF (arm-none-eabi-size), the model's code and weights with the
// runtime and RPC server. Run by hand:
//   cmake --build build/release --target loupe_board_speed_bench
//   build/release/bench/loupe_board_speed_bench [MODEL|BOARD ...]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "builtin_registries.h"
#include "deploy/deployment.h"
#include "deploy/process_runner.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

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
};

// text + data of the ELF, as arm-none-eabi-size prints them.
std::size_t flashBytes(const fs::path& elf) {
  const deploy::ProcessResult size =
      deploy::runProcess({"arm-none-eabi-size", elf.string()}, elf.parent_path());
  std::istringstream lines(size.output);
  std::string header;
  std::getline(lines, header);
  std::size_t text = 0, data = 0;
  lines >> text >> data;
  return text + data;
}

Measurement measure(const deploy::Registries& registries, const deploy::Platform& platform,
                    const fs::path& modelDir, const std::string& targetString) {
  driver::Compilation compilation =
      driver::compileModel({frontend::importTfliteFile(modelDir / "model.tflite"),
                            target::parseTargetString(targetString, registries.targets),
                            {},
                            platform.cpu()});
  deploy::Deployment deployment(platform, compilation.model);
  const fs::path golden = modelDir / "golden" / "seed1";
  const auto outputs = deployment.run({readFile(golden / "input0.bin")});
  Measurement m;
  m.instructions = deployment.profile().total;
  m.flash = flashBytes(deployment.firmware().firmware);
  m.exact = outputs.size() == 1 && outputs[0] == readFile(golden / "output0.bin");
  m.isa = std::string(target::cpuIsaName(compilation.model.isa));
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8",
                                     "ad01_int8"};
  std::vector<std::string> boards = {"qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps2-an500",
                                     "qemu-mps2-an505", "qemu-mps3-an547"};
  // Arguments narrow the table: model names and board names.
  std::vector<std::string> onlyModels, onlyBoards;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    (arg.starts_with("qemu-") ? onlyBoards : onlyModels).push_back(arg);
  }
  if (!onlyModels.empty()) models = onlyModels;
  if (!onlyBoards.empty()) boards = onlyBoards;

  const deploy::Registries registries = plugins::builtinRegistries();
  std::printf(
      "instructions per inference (M), seed1 input; portable: c -mcpu=generic, "
      "board: c for the board's CPU\n\n");
  std::printf(
      "| model | board | portable | board ISA | board | speed-up | CMSIS-NN | vs CMSIS-NN | "
      "flash portable | flash board | exact |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
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
        const auto cmsis = kCmsisNn.find({model, board});
        char cmsisText[32] = "-", ratioText[32] = "-";
        if (cmsis != kCmsisNn.end()) {
          std::snprintf(cmsisText, sizeof cmsisText, "%.2f", cmsis->second);
          std::snprintf(ratioText, sizeof ratioText, "%.2fx",
                        native.instructions / 1e6 / cmsis->second);
        }
        const bool exact = portable.exact && native.exact;
        failures += exact ? 0 : 1;
        std::printf("| %s | %s | %.2f | %s | %.2f | %.2fx | %s | %s | %zu | %zu | %s |\n",
                    model.c_str(), board.c_str(), portable.instructions / 1e6, native.isa.c_str(),
                    native.instructions / 1e6, portable.instructions / native.instructions,
                    cmsisText, ratioText, portable.flash, native.flash, exact ? "yes" : "NO");
        std::fflush(stdout);
      } catch (const std::exception& e) {
        std::printf("| %s | %s | failed: %s |\n", model.c_str(), board.c_str(), e.what());
        ++failures;
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
