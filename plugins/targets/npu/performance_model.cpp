#include "targets/npu/performance_model.h"

#include <algorithm>

namespace loupe::npu {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::int64_t elements(const NpuFeatureMap& f) {
  return std::int64_t{f.height} * f.width * f.depth;
}

}  // namespace

NpuPerformance estimatePerformance(const NpuOperation& op, const NpuConfig& config) {
  const MicroBlock& u = config.microBlock;
  // OFM micro-blocks, partial ones included: the MAC array computes whole ones.
  const std::int64_t microBlocks = ceilDiv(op.ofm.height, u.height) *
                                   ceilDiv(op.ofm.width, u.width) * ceilDiv(op.ofm.depth, u.depth);
  const std::int64_t kernelPoints = std::int64_t{op.kernel.height} * op.kernel.width;
  NpuPerformance p;
  switch (op.kind) {
    case NpuOperationKind::Conv2D:
      // Each cycle reduces kIfmDepthPerCycle IFM channels of one kernel point.
      p.macs = elements(op.ofm) * kernelPoints * op.ifm.depth;
      p.macCycles = microBlocks * kernelPoints * ceilDiv(op.ifm.depth, kIfmDepthPerCycle);
      break;
    case NpuOperationKind::DepthwiseConv2D:
    case NpuOperationKind::MaxPool:
    case NpuOperationKind::AveragePool:
      // One IFM channel per OFM channel: one of the kIfmDepthPerCycle lanes works.
      p.macs = elements(op.ofm) * kernelPoints;
      p.macCycles = microBlocks * kernelPoints;
      break;
    case NpuOperationKind::Add:
    case NpuOperationKind::Sub:
    case NpuOperationKind::Mul:
      p.macs = elements(op.ofm);
      p.macCycles = microBlocks;
      break;
  }
  p.idealMacCycles = static_cast<double>(p.macs) / config.macsPerCycle;
  p.bytesMoved = elements(op.ifm) + elements(op.ofm) + (usesIfm2(op.kind) ? elements(op.ifm2) : 0) +
                 (usesWeights(op.kind) ? std::int64_t{op.weights.length} + op.scales.length : 0);
  p.memoryCycles = ceilDiv(p.bytesMoved, kBytesPerCycle);
  p.estimatedCycles = std::max(p.macCycles, p.memoryCycles);
  p.utilization = p.estimatedCycles > 0 ? p.idealMacCycles / p.estimatedCycles : 0.0;
  return p;
}

}  // namespace loupe::npu
