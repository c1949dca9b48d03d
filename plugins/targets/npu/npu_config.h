// The configurations of Loupe's NPU (Ethos-U55-like): how many MACs it does
// per cycle, the shape of the OFM micro-block those MACs cover, how many
// int32 accumulators hold an OFM block, and the block configuration the
// compiler chooses for an operation. The command stream, the weight layout
// (sub-streams per block of OFM channels) and the performance model all start
// from these numbers (docs/npu.md).
#pragma once

#include <string>

namespace loupe::npu {

// MACs per cycle, as Ethos-U55's ethos-u55-32 ... ethos-u55-256.
enum class MacConfig { Macs32 = 32, Macs64 = 64, Macs128 = 128, Macs256 = 256 };

inline constexpr MacConfig kAllMacConfigs[] = {MacConfig::Macs32, MacConfig::Macs64,
                                               MacConfig::Macs128, MacConfig::Macs256};

// IFM channels each MAC lane column reduces per cycle (Ethos-U's IFM micro-block depth).
inline constexpr int kIfmDepthPerCycle = 8;

// The OFM elements one cycle produces partial sums for.
struct MicroBlock {
  int height = 1, width = 1, depth = 1;
};

struct NpuConfig {
  int macsPerCycle = 256;
  MicroBlock microBlock;    // macsPerCycle = h * w * d * kIfmDepthPerCycle
  int accumulators = 2048;  // int32 accumulators of one OFM block (8 per MAC)
};

NpuConfig npuConfig(MacConfig config);

// "ethos-u55-like-256".
std::string macConfigName(MacConfig config);

struct BlockConfig {
  int height = 1, width = 1, depth = 1;
  bool operator==(const BlockConfig&) const = default;
};

// The OFM block of an operation with an OFM of height x width x depth: every
// side a multiple of the micro-block (so blocks waste no MACs beyond what the
// micro-block itself wastes at the OFM's edges), at most 64 channels deep,
// and no more elements than the configuration's accumulators; as wide, then
// as tall, as that allows.
BlockConfig chooseBlockConfig(const NpuConfig& config, int height, int width, int depth);

}  // namespace loupe::npu
