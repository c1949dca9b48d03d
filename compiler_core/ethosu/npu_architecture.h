// The Ethos-U configurations Loupe compiles for, by the names tvmc and Vela
// give them ("ethos-u55-128"), with the facts the emitter needs: MACs per
// cycle, cores, the micro-block (the smallest OFM/IFM piece a core works
// on), the shared buffer (SHRAM: banks of 1 KiB, the granules each kind of
// data is allocated in) and the largest OFM block. Figures from Vela's
// architecture_features.py; the CONFIG word and the functional model's view
// of the same NPU come from loupe_ethosu_npu_config_init, so the two cannot
// disagree.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::ethosu {

struct NpuBlock {
  int width = 0, height = 0, depth = 0;
  bool operator==(const NpuBlock&) const = default;
};

// What part of the SHRAM a kind of data takes, in banks (granules), in the
// order of Vela's SHRAMElements.
enum class ShramUse { Ifm8, Ifm16, Ifm8Elementwise, Ifm16Elementwise, Ifm32, Acc16, Acc32, Acc40 };

struct NpuArchitecture {
  int accelerator = LOUPE_ETHOSU_U55_128;  // enum loupe_ethosu_accelerator
  std::string_view name;                   // "ethos-u55-128"
  int macs = 0;                            // per cycle, per core
  int cores = 1;
  NpuBlock ofmMicroBlock, ifmMicroBlock;
  int shramBanks = 0;             // per core
  std::array<int, 8> granules{};  // banks, by ShramUse
  int elementwiseUnits = 0;
  loupe_ethosu_npu_config config{};

  static constexpr NpuBlock kOfmBlockMax{64, 32, 128};
  static constexpr int kShramBankBytes = 1024;
  static constexpr int kReservedOutputBanks = 2;  // at the start of the SHRAM
  static constexpr int kLookupTableBanks = 2;     // the 2 KiB table at the end
  static constexpr int kOfmSplitDepth = 16;       // OFM blocks deeper than one split
  static constexpr NpuBlock kSubKernelMax{8, 8, 65536};

  int granule(ShramUse use) const { return granules[static_cast<std::size_t>(use)]; }
  // Banks kept free at the end of the SHRAM: the lookup table's when an
  // operation uses one, and two on the configurations of more than 16 banks.
  int reservedEndBanks(bool usesLookupTable) const {
    return std::max(usesLookupTable ? kLookupTableBanks : 0, shramBanks > 16 ? 2 : 0);
  }
};

// Every configuration, smallest first.
const std::vector<NpuArchitecture>& npuArchitectures();
// By accelerator (enum loupe_ethosu_accelerator) or by name; nothing when unknown.
const NpuArchitecture* findNpuArchitecture(int accelerator);
const NpuArchitecture* findNpuArchitecture(std::string_view name);
// "ethos-u55-32, ethos-u55-64, ..."
std::string npuArchitectureNames();

}  // namespace loupe::ethosu
