// A target's estimate of what one operator costs on it, in the spirit of
// Vela's per-layer report: the cycles its compute units need, the cycles its
// memory system needs to move the operator's bytes, and the larger of the two
// (the units overlap computing with their DMA). Targets without a cycle model
// (the CPU's C code) give none; the CLI and the GUI then show the MACs only.
#pragma once

#include <cstdint>

namespace loupe::target {

struct OperatorEstimate {
  std::int64_t macs = 0;                // useful multiply-accumulates (or element operations)
  std::int64_t computeCycles = 0;       // the MAC array, with its utilisation losses
  std::int64_t memoryCycles = 0;        // bytesMoved at the target's stated bandwidth
  std::int64_t estimatedCycles = 0;     // max(computeCycles, memoryCycles)
  std::int64_t bytesMoved = 0;          // feature maps in and out, weight and scale streams
  double utilization = 0.0;             // ideal MAC cycles / estimatedCycles
  std::int64_t rawWeightBytes = 0;      // int8 weights as the model stores them
  std::int64_t encodedWeightBytes = 0;  // as the target reads them (compressed)
};

}  // namespace loupe::target
