// The NPU's cycle estimate for one operation (docs/npu.md): the MAC array's
// cycles, counted in whole micro-blocks so that OFM edges and shallow IFMs
// cost what they cost on the hardware, against the cycles the memory system
// needs to move the IFM(s), the OFM and the encoded weight and scale streams,
// at kBytesPerCycle. The estimate is the larger of the two: the NPU overlaps
// computing with its DMA, so the slower one bounds the operation.
#pragma once

#include <cstdint>

#include "targets/npu/npu_config.h"
#include "targets/npu/npu_operation.h"

namespace loupe::npu {

// One 64-bit AXI read/write port at the NPU's clock (Ethos-U55's interface width).
inline constexpr int kBytesPerCycle = 8;

struct NpuPerformance {
  std::int64_t macs = 0;             // useful multiply-accumulates (or element operations)
  double idealMacCycles = 0.0;       // macs / MACs per cycle
  std::int64_t macCycles = 0;        // with micro-block utilisation losses
  std::int64_t bytesMoved = 0;       // IFM + IFM2 + OFM + weight and scale streams
  std::int64_t memoryCycles = 0;     // ceil(bytesMoved / kBytesPerCycle)
  std::int64_t estimatedCycles = 0;  // max(macCycles, memoryCycles)
  double utilization = 0.0;          // idealMacCycles / estimatedCycles
};

NpuPerformance estimatePerformance(const NpuOperation& operation, const NpuConfig& config);

}  // namespace loupe::npu
