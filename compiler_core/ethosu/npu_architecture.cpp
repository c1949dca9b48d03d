#include "ethosu/npu_architecture.h"

namespace loupe::ethosu {

namespace {

NpuArchitecture make(int accelerator, std::string_view name, int macs, int cores,
                     NpuBlock ofmMicroBlock, NpuBlock ifmMicroBlock, int banks,
                     std::array<int, 8> granules, int elementwiseUnits) {
  NpuArchitecture a;
  a.accelerator = accelerator;
  a.name = name;
  a.macs = macs;
  a.cores = cores;
  a.ofmMicroBlock = ofmMicroBlock;
  a.ifmMicroBlock = ifmMicroBlock;
  a.shramBanks = banks;
  a.granules = granules;
  a.elementwiseUnits = elementwiseUnits;
  loupe_ethosu_npu_config_init(&a.config, accelerator);
  return a;
}

}  // namespace

const std::vector<NpuArchitecture>& npuArchitectures() {
  // Granules: IFM8, IFM16, IFM8 and IFM16 element-wise, IFM32, Acc16,
  // Acc32, Acc40.
  static const std::vector<NpuArchitecture> all = {
      make(LOUPE_ETHOSU_U55_32, "ethos-u55-32", 32, 1, {1, 1, 4}, {1, 1, 8}, 16,
           {2, 2, 2, 2, 4, 4, 4, 4}, 1),
      make(LOUPE_ETHOSU_U55_64, "ethos-u55-64", 64, 1, {1, 1, 8}, {1, 1, 8}, 16,
           {2, 2, 2, 2, 4, 4, 4, 8}, 2),
      make(LOUPE_ETHOSU_U55_128, "ethos-u55-128", 128, 1, {2, 1, 8}, {2, 1, 8}, 24,
           {4, 4, 4, 4, 8, 4, 8, 12}, 4),
      make(LOUPE_ETHOSU_U55_256, "ethos-u55-256", 256, 1, {2, 2, 8}, {2, 2, 8}, 48,
           {8, 8, 8, 8, 16, 8, 16, 20}, 8),
      make(LOUPE_ETHOSU_U65_256, "ethos-u65-256", 256, 1, {2, 2, 8}, {2, 2, 8}, 48,
           {8, 8, 8, 8, 16, 8, 16, 20}, 8),
      make(LOUPE_ETHOSU_U65_512, "ethos-u65-512", 256, 2, {2, 2, 8}, {2, 2, 8}, 48,
           {8, 8, 8, 8, 16, 8, 16, 20}, 8),
  };
  return all;
}

const NpuArchitecture* findNpuArchitecture(int accelerator) {
  for (const NpuArchitecture& a : npuArchitectures()) {
    if (a.accelerator == accelerator) return &a;
  }
  return nullptr;
}

const NpuArchitecture* findNpuArchitecture(std::string_view name) {
  for (const NpuArchitecture& a : npuArchitectures()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string npuArchitectureNames() {
  std::string names;
  for (const NpuArchitecture& a : npuArchitectures()) {
    names += (names.empty() ? "" : ", ") + std::string(a.name);
  }
  return names;
}

}  // namespace loupe::ethosu
