#include "target/cpu_isa.h"

#include <array>
#include <utility>

namespace loupe::target {

namespace {

// The Cortex-M0 and M0+ (Armv6-M) have no SMLAL, which the Thumb kernels
// are built on: GCC calls a library routine for it, and on the micro:bit
// the loop nests took 2.7x (hello_world's 16x16 fully connected layer) to
// 5.7x (micro_speech's) fewer instructions than those kernels.
constexpr std::array<std::pair<std::string_view, CpuIsa>, 7> kCpus = {{
    {"cortex-m0", CpuIsa::Scalar},
    {"cortex-m0plus", CpuIsa::Scalar},
    {"cortex-m3", CpuIsa::Thumb},
    {"cortex-m4", CpuIsa::Dsp},
    {"cortex-m7", CpuIsa::Dsp},
    {"cortex-m33", CpuIsa::Dsp},
    {"cortex-m55", CpuIsa::Mve},
}};

}  // namespace

std::string_view cpuIsaName(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::Scalar:
      return "scalar";
    case CpuIsa::Thumb:
      return "thumb";
    case CpuIsa::Dsp:
      return "dsp";
    case CpuIsa::Mve:
      return "mve";
  }
  return "scalar";
}

const std::vector<std::string>& knownCpus() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, isa] : kCpus) out.emplace_back(name);
    return out;
  }();
  return names;
}

std::optional<CpuIsa> cpuIsaOf(std::string_view mcpu) {
  for (const auto& [name, isa] : kCpus) {
    if (name == mcpu) return isa;
  }
  return std::nullopt;
}

}  // namespace loupe::target
