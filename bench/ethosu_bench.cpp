// Ethos-U: Loupe's cycle estimate for each Vela-compiled file of
// tests/data/models/vela against the estimate Vela printed when it compiled
// it, and the host time one inference takes on the functional model
// (ethosu_invoke_v3, median of kRuns after one warm-up run). The files are
// read as Loupe reads any model: the importer's EthosU operator, its decoded
// payload (analysis::ethosuPayloadOf), its flash input and scratch sizes.
//   cmake --build build/release --target loupe_ethosu_bench
//   build/release/bench/loupe_ethosu_bench [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "analysis/ethosu_command_listing.h"
#include "frontend/tflite_importer.h"
#include "ir/graph.h"
#include "loupe/ethosu/ethosu_driver.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace {

// Vela's "NPU cycles" for each file, as tests/data/models/README.md (section
// "vela/") records them: Vela 3.10.0 (github.com/nxp-imx/ethos-u-vela @
// a6f6566), default system configuration and memory mode, which NXP's fork
// takes as an i.MX93 system (ethosu::nxpVelaDefaultSystem).
struct VelaReference {
  const char* file;  // under tests/data/models/vela
  long velaNpuCycles;
  const char* note;
};

const VelaReference kFiles[] = {
    {"ethos-u55-128/kws_ref_model_vela.tflite", 82966, ""},
    {"ethos-u55-256/kws_ref_model_vela.tflite", 47980, ""},
    {"ethos-u55-128/vww_96_int8_vela.tflite", 204435, ""},
    {"ethos-u55-256/vww_96_int8_vela.tflite", 126456, ""},
    {"ethos-u55-128/ic_resnet8_int8_vela.tflite", 183639, ""},
    {"ethos-u55-256/ic_resnet8_int8_vela.tflite", 114849, ""},
    {"ethos-u55-128/ad01_int8_vela.tflite", 58847, ""},
    {"ethos-u55-256/ad01_int8_vela.tflite", 58847, ""},
    {"ethos-u55-128/person_detect_vela.tflite", 246050, ""},
    {"ethos-u55-256/person_detect_vela.tflite", 199241, ""},
    // Compiled by Vela 3.11 (tflite-micro's copy); its own estimate is not
    // recorded: compared with Vela 3.10's for the same model and NPU.
    {"person_detect_vela.tflite", 199241, "Vela 3.11 file; reference: 3.10's u55-256 estimate"},
};

const char* acceleratorName(int accelerator) {
  switch (accelerator) {
    case LOUPE_ETHOSU_U55_32:
      return "u55-32";
    case LOUPE_ETHOSU_U55_64:
      return "u55-64";
    case LOUPE_ETHOSU_U55_128:
      return "u55-128";
    case LOUPE_ETHOSU_U55_256:
      return "u55-256";
    case LOUPE_ETHOSU_U65_256:
      return "u65-256";
    case LOUPE_ETHOSU_U65_512:
      return "u65-512";
    default:
      return "?";
  }
}

std::string thousands(unsigned long long v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The one Vela operator of a file, as the importer made it.
const loupe::ir::Operator& velaOperatorOf(const loupe::ir::Graph& graph) {
  const loupe::ir::Operator* found = nullptr;
  for (const auto& op : graph.operators) {
    if (op.type != loupe::ir::OpType::EthosU) continue;
    if (found != nullptr) throw std::runtime_error("expected one ethos-u operator");
    found = &op;
  }
  if (found == nullptr) throw std::runtime_error("no ethos-u operator");
  return *found;
}

// Median milliseconds of one ethosu_invoke_v3 over `runs` runs; negative on failure.
double hostMilliseconds(const loupe::ir::Graph& graph, const loupe::ir::Operator& op,
                        int accelerator, int runs, std::string& error) {
  static std::int16_t workspace[1 << 17];
  static ethosu_driver driver;
  if (loupe_ethosu_driver_init(&driver, accelerator, workspace, 1 << 17) != 0) {
    error = ethosu_last_error_message(&driver);
    return -1.0;
  }
  const auto& attrs = std::get<loupe::ir::EthosUAttrs>(op.attributes);
  const loupe::ir::Tensor& payload = *graph.input(op, 0);
  const loupe::ir::Tensor* flash = graph.input(op, 1);
  // The fast scratch is its own area, or lies inside the scratch (U55).
  std::vector<std::uint8_t> arena(static_cast<std::size_t>(attrs.scratchBytes)),
      separateFast(
          attrs.fastScratchOffset >= 0
              ? 0
              : std::max<std::size_t>(static_cast<std::size_t>(attrs.fastScratchBytes), 16));
  std::uint8_t* fast =
      attrs.fastScratchOffset >= 0 ? arena.data() + attrs.fastScratchOffset : separateFast.data();
  std::uint64_t base[3] = {flash ? reinterpret_cast<std::uintptr_t>(flash->data.data()) : 0,
                           reinterpret_cast<std::uintptr_t>(arena.data()),
                           reinterpret_cast<std::uintptr_t>(fast)};
  std::size_t sizes[3] = {flash ? flash->data.size() : 0, arena.size(),
                          static_cast<std::size_t>(attrs.fastScratchBytes)};
  std::vector<double> times;
  for (int i = 0; i <= runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const int status =
        ethosu_invoke_v3(&driver, payload.data.data(), static_cast<int>(payload.data.size()), base,
                         sizes, 3, nullptr);
    const auto t1 = std::chrono::steady_clock::now();
    if (status != 0) {
      error = ethosu_last_error_message(&driver);
      return -1.0;
    }
    if (i > 0) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const std::filesystem::path vela = std::filesystem::path(LOUPE_BENCH_MODELS_DIR) / "vela";
  std::printf("Ethos-U NPU cycles: Loupe's estimate (plugins/targets/ethos_u) against Vela's\n");
  std::printf(
      "Vela: tests/data/models/README.md, section vela/ (NXP's Vela 3.10.0 @ a6f6566, "
      "no --config: its i.MX93 system at 1 GHz, DRAM constants, memory mode internal-default)\n");
  std::printf(
      "compute = kernel operations alone; DMA = transfers alone; NPU = per operator, its "
      "compute and the DMA the previous one does not hide (Vela's \"NPU cycles\");\n");
  std::printf(
      "total = per operation max(NPU, busiest memory) (Vela's \"Total cycles\"); "
      "host = functional model, median of %d runs\n\n",
      runs);
  std::printf("%-44s %-8s %10s %9s %10s %10s %7s %10s %9s %9s %9s\n", "file", "NPU", "compute",
              "DMA", "NPU", "Vela NPU", "ratio", "total", "SRAM KiB", "DRAM KiB", "host ms");
  int failures = 0;
  for (const VelaReference& ref : kFiles) {
    const auto path = vela / ref.file;
    try {
      const loupe::ir::Graph graph = loupe::frontend::importTfliteFile(path);
      const loupe::ir::Operator& op = velaOperatorOf(graph);
      const auto payload = loupe::analysis::ethosuPayloadOf(graph, op);
      const auto npu = loupe::ethosu::npuConfigOf(payload);
      const auto e =
          loupe::ethosu::estimatePayload(payload, loupe::ethosu::nxpVelaDefaultSystem(npu));
      std::string error;
      const double ms = hostMilliseconds(graph, op, npu.accelerator, runs, error);
      const double ratio =
          static_cast<double>(e.npuCycles) / static_cast<double>(ref.velaNpuCycles);
      auto kib = [&](std::size_t m) {
        return m < e.memory.size()
                   ? static_cast<double>(e.memory[m].bytesRead + e.memory[m].bytesWritten) / 1024.0
                   : 0.0;
      };
      char host[32];
      if (ms >= 0) {
        std::snprintf(host, sizeof host, "%.2f", ms);
      } else {
        std::snprintf(host, sizeof host, "failed");
        ++failures;
      }
      std::printf("%-44s %-8s %10s %9s %10s %10s %7.3f %10s %9.1f %9.1f %9s\n", ref.file,
                  acceleratorName(npu.accelerator), thousands(e.computeCycles).c_str(),
                  thousands(e.dmaCycles).c_str(), thousands(e.npuCycles).c_str(),
                  thousands(static_cast<unsigned long long>(ref.velaNpuCycles)).c_str(), ratio,
                  thousands(e.totalCycles).c_str(), kib(0), kib(1), host);
      if (*ref.note != '\0') std::printf("  (%s)\n", ref.note);
      if (ms < 0) std::printf("  functional model: %s\n", error.c_str());
    } catch (const std::exception& ex) {
      std::printf("%-44s %s\n", ref.file, ex.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
