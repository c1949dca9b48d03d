#include "targets/ethos_u/ethosu_performance.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>

namespace loupe::ethosu {

namespace {

// What the cycle model distinguishes among the NPU's operations (Vela's
// NpuBlockType): the MAC array works differently for each.
enum class BlockKind { Convolution, Depthwise, Pooling, ReduceSum, Elementwise, Other };

struct Volume {
  std::int64_t height = 1, width = 1, depth = 1;
  std::int64_t elements() const { return height * width * depth; }
  std::int64_t area() const { return height * width; }
};

std::int64_t divideRoundingUp(std::int64_t a, std::int64_t b) {
  return b <= 0 ? a : (a + b - 1) / b;
}

std::int64_t roundUpTo(std::int64_t a, std::int64_t quantum) {
  return divideRoundingUp(a, quantum) * quantum;
}

Volume smallerOf(const Volume& a, const Volume& b) {
  return {std::min(a.height, b.height), std::min(a.width, b.width), std::min(a.depth, b.depth)};
}

// Dimensions read from registers: never 0, so that a corrupt stream cannot
// divide by zero.
std::int64_t atLeastOne(std::uint64_t v) {
  return v == 0 ? 1 : static_cast<std::int64_t>(std::min<std::uint64_t>(v, 1u << 20));
}

Volume volumeOf(const loupe_ethosu_feature_map& f) {
  return {atLeastOne(f.height), atLeastOne(f.width), atLeastOne(f.depth)};
}

// NHCWB16 is stored in bricks of 16 channels: whole bricks are read and written.
Volume storageRounded(const Volume& v, std::uint8_t layout) {
  Volume r = v;
  if (layout == LOUPE_ETHOSU_activation_format_NHCWB16) r.depth = roundUpTo(r.depth, 16);
  return r;
}

std::int64_t elementBytes(const loupe_ethosu_feature_map& f) {
  return std::max<std::int64_t>(1, f.precision_bits / 8);
}

// The MAC array's geometry per accelerator configuration
// (architecture_features.py: ofm_ublock and ifm_ublock, Block(width, height, depth)).
struct ArrayGeometry {
  Volume ofmMicroBlock;
  Volume ifmMicroBlock;
  // Output unit and activation throughput, cycles per OFM element
  // (architecture_features.py, _generate_output_perf_tables).
  std::array<double, 8> outputCyclesPerElement;
  std::array<double, 3> activationCyclesPerElement;
};

ArrayGeometry geometryOf(const loupe_ethosu_npu_config& npu) {
  switch (npu.accelerator) {
    case LOUPE_ETHOSU_U55_32:
      return {{1, 1, 4}, {1, 1, 8}, {2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0}, {1.0, 1.0, 0.0}};
    case LOUPE_ETHOSU_U55_64:
      return {{1, 1, 8}, {1, 1, 8}, {1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0}, {1.0, 1.0, 0.0}};
    case LOUPE_ETHOSU_U55_128:
      return {{1, 2, 8}, {1, 2, 8}, {0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5}, {1.0, 0.5, 0.0}};
    case LOUPE_ETHOSU_U65_512:
      return {{2, 2, 8},
              {2, 2, 8},
              {0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125},
              {0.5, 0.125, 0.0}};
    default:  // U55-256, U65-256
      return {{2, 2, 8},
              {2, 2, 8},
              {0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25},
              {1.0, 0.25, 0.0}};
  }
}

BlockKind blockKindOf(const loupe_ethosu_operation& op) {
  switch (op.kind) {
    case LOUPE_ETHOSU_OPERATION_CONV:
      return BlockKind::Convolution;
    case LOUPE_ETHOSU_OPERATION_DEPTHWISE:
      return BlockKind::Depthwise;
    case LOUPE_ETHOSU_OPERATION_POOL:
      return op.sub_kind == LOUPE_ETHOSU_pooling_mode_REDUCE_SUM ? BlockKind::ReduceSum
                                                                 : BlockKind::Pooling;
    case LOUPE_ETHOSU_OPERATION_ELEMENTWISE:
      return BlockKind::Elementwise;
    default:
      return BlockKind::Other;
  }
}

bool isUnaryElementwise(const loupe_ethosu_operation& op) {
  return op.sub_kind == LOUPE_ETHOSU_elementwise_mode_ABS ||
         op.sub_kind == LOUPE_ETHOSU_elementwise_mode_CLZ ||
         op.sub_kind == LOUPE_ETHOSU_elementwise_mode_LRELU;
}

// The kernel as the network has it: the registers hold the dilated extent.
struct KernelShape {
  std::int64_t height = 1, width = 1;
  std::int64_t dilatedHeight = 1, dilatedWidth = 1;
  std::int64_t strideY = 1, strideX = 1;
};

KernelShape kernelOf(const loupe_ethosu_operation& op) {
  KernelShape k;
  k.dilatedHeight = atLeastOne(op.kernel_height);
  k.dilatedWidth = atLeastOne(op.kernel_width);
  const std::int64_t dy = std::max<std::int64_t>(1, op.dilation_y);
  const std::int64_t dx = std::max<std::int64_t>(1, op.dilation_x);
  k.height = (k.dilatedHeight - 1) / dy + 1;
  k.width = (k.dilatedWidth - 1) / dx + 1;
  k.strideY = std::max<std::int64_t>(1, op.stride_y);
  k.strideX = std::max<std::int64_t>(1, op.stride_x);
  return k;
}

// The NPU splits kernels into sub-kernels of at most 8x8.
constexpr std::int64_t kSubKernelMax = 8;

// Everything the cycle and traffic model reads of one kernel operation.
struct KernelOperation {
  BlockKind block = BlockKind::Other;
  const loupe_ethosu_operation* op = nullptr;
  Volume ifm, ifm2, ofm;
  bool hasIfm2 = false;
  KernelShape kernel;
  Volume ofmBlockConfig;  // the block registers
  Volume ifmBlockConfig;  // the IFM block the NPU fetches for one OFM block
  bool partKernelFirst = false;
  bool accumulator40 = false;
  const MemoryPort* ifmMemory = nullptr;
  const MemoryPort* ifm2Memory = nullptr;
  const MemoryPort* ofmMemory = nullptr;
  const MemoryPort* constMemory = nullptr;  // weights and scales
};

const MemoryPort& memoryOfRegion(const SystemConfig& system, unsigned region) {
  const int index = region < system.regionMemory.size() ? system.regionMemory[region] : -1;
  if (index < 0 || static_cast<std::size_t>(index) >= system.memories.size()) {
    return system.memories.front();
  }
  return system.memories[static_cast<std::size_t>(index)];
}

int memoryIndexOfRegion(const SystemConfig& system, unsigned region) {
  const int index = region < system.regionMemory.size() ? system.regionMemory[region] : -1;
  return index < 0 || static_cast<std::size_t>(index) >= system.memories.size() ? 0 : index;
}

// The IFM block one OFM block needs (architecture_allocator.py: the rows and
// columns under the first sub-kernel; the depth the NPU reads at a time).
Volume ifmBlockFor(const KernelOperation& k, const ArrayGeometry& g) {
  const auto& op = *k.op;
  const std::int64_t upscale = op.ifm_upscale == LOUPE_ETHOSU_upscale_mode_NONE ? 1 : 2;
  const std::int64_t nearest = op.ifm_upscale == LOUPE_ETHOSU_upscale_mode_NEAREST ? 1 : 0;
  auto needed = [&](std::int64_t ofmSize, std::int64_t stride, std::int64_t dilatedKernel) {
    const std::int64_t border = std::min(dilatedKernel, kSubKernelMax);
    return divideRoundingUp((ofmSize - 1) * stride + border + nearest, upscale);
  };
  Volume b;
  b.height = roundUpTo(needed(k.ofmBlockConfig.height, k.kernel.strideY, k.kernel.dilatedHeight),
                       g.ofmMicroBlock.height);
  b.width = roundUpTo(needed(k.ofmBlockConfig.width, k.kernel.strideX, k.kernel.dilatedWidth),
                      g.ofmMicroBlock.width);
  const bool sameDepth = k.block == BlockKind::Elementwise || k.block == BlockKind::Pooling ||
                         k.block == BlockKind::Depthwise;
  if (sameDepth) {
    b.depth = k.ofmBlockConfig.depth;
  } else {
    const std::int64_t ifmDepth = std::max(k.ifm.depth, k.hasIfm2 ? k.ifm2.depth : 0);
    if (op.ifm.precision_bits == 16) {
      b.depth = roundUpTo(std::min<std::int64_t>(ifmDepth, 16), 4);
    } else {
      b.depth = roundUpTo(std::min<std::int64_t>(ifmDepth, k.partKernelFirst ? 16 : 32),
                          g.ifmMicroBlock.depth);
    }
  }
  return b;
}

KernelOperation describeKernel(const loupe_ethosu_operation& op, const ArrayGeometry& g,
                               const SystemConfig& system) {
  KernelOperation k;
  k.op = &op;
  k.block = blockKindOf(op);
  k.ifm = volumeOf(op.ifm);
  if (op.ifm_upscale != LOUPE_ETHOSU_upscale_mode_NONE) {
    // The decoder's extent is the upscaled map the kernel moves over; the
    // IFM in memory, which the blocks read, is half of it.
    k.ifm.height = divideRoundingUp(k.ifm.height, 2);
    k.ifm.width = divideRoundingUp(k.ifm.width, 2);
  }
  k.ofm = volumeOf(op.ofm);
  k.hasIfm2 = k.block == BlockKind::Elementwise && !isUnaryElementwise(op);
  if (k.hasIfm2) k.ifm2 = op.ifm2_is_scalar ? Volume{1, 1, 1} : volumeOf(op.ifm2);
  k.kernel = kernelOf(op);
  k.ofmBlockConfig = {atLeastOne(op.block_height), atLeastOne(op.block_width),
                      atLeastOne(op.block_depth)};
  k.partKernelFirst = op.part_kernel_first == LOUPE_ETHOSU_weight_order_PART_KERNEL_FIRST;
  k.accumulator40 = op.acc_format == LOUPE_ETHOSU_acc_format_I40;
  k.ifmMemory = &memoryOfRegion(system, op.ifm.region);
  k.ifm2Memory = &memoryOfRegion(system, op.ifm2.region);
  k.ofmMemory = &memoryOfRegion(system, op.ofm.region);
  k.constMemory = &memoryOfRegion(system, op.scales[0].region);
  k.ifmBlockConfig = ifmBlockFor(k, g);
  return k;
}

// Bytes moved in bursts shorter than the memory's burst length cost a whole
// burst each: the bytes scaled by burst length over the run of contiguous
// bytes a block access makes (npu_performance.py,
// _estimate_memory_transfer_efficiency, whose stride comparisons are kept).
double burstScaled(const MemoryPort& memory, bool isRead, std::uint8_t layout, int elementBits,
                   const Volume& block, const Volume& shape, int cores, double bytes) {
  double run = 8.0;  // bits
  const double bits = elementBits;
  if (layout == LOUPE_ETHOSU_activation_format_NHCWB16) {
    const double brickRowStride = bits * 16.0 * static_cast<double>(shape.width) / 8.0;
    if (brickRowStride == static_cast<double>(block.depth)) {
      run = bits * static_cast<double>(block.depth * block.width);
    } else if (isRead) {
      run = 16.0 * bits * static_cast<double>(block.width);
    } else {
      run = 16.0 * bits * static_cast<double>(block.width) * cores;
    }
  } else {
    const bool contiguous = bits / 8.0 == static_cast<double>(block.depth);
    if (isRead) {
      run = contiguous ? bits * static_cast<double>(block.depth * block.width)
                       : bits * static_cast<double>(block.depth);
    } else if (block.depth <= 16 && contiguous) {
      run = bits * static_cast<double>(block.depth * block.width);
    } else {
      run = std::min({64.0 * 8.0, 16.0 * bits * cores, static_cast<double>(block.depth) * bits});
    }
  }
  double runBytes = std::floor(run / 8.0);
  runBytes = std::min(static_cast<double>(memory.burstBytes), std::max(runBytes, 1.0));
  return bytes * (memory.burstBytes / runBytes);
}

// One IFM block in and one OFM block out, with the memories' latencies: the
// least a block can take however fast the MACs are.
std::pair<double, double> blockRoundTrip(const KernelOperation& k, int cores) {
  const auto& op = *k.op;
  const double ifmElements = static_cast<double>(smallerOf(k.ifm, k.ifmBlockConfig).elements());
  const double ofmElements = static_cast<double>(smallerOf(k.ofm, k.ofmBlockConfig).elements());
  const double ifmCycles = k.ifmMemory->readLatency +
                           burstScaled(*k.ifmMemory, true, op.ifm.layout, op.ifm.precision_bits,
                                       k.ifmBlockConfig, k.ifm, cores, ifmElements) /
                               k.ifmMemory->bytesPerCycle;
  const double ofmCycles = k.ofmMemory->writeLatency +
                           burstScaled(*k.ofmMemory, false, op.ofm.layout, op.ofm.precision_bits,
                                       k.ofmBlockConfig, k.ofm, cores, ofmElements) /
                               k.ofmMemory->bytesPerCycle;
  return {ifmCycles, ofmCycles};
}

bool hasFusedClamp(const loupe_ethosu_operation& op) {
  const int bits = op.ofm.precision_bits;
  if (bits != 8 && bits != 16) return false;
  const std::int64_t lo = op.ofm.is_signed ? -(std::int64_t{1} << (bits - 1)) : 0;
  const std::int64_t hi =
      op.ofm.is_signed ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
  return op.activation_min > lo || op.activation_max < hi;
}

// Cycles the output unit spends per OFM element: scaling by operation and
// accumulator, activation by function, whichever is slower.
double outputCyclesPerElement(const KernelOperation& k, const ArrayGeometry& g, int cores) {
  const auto& op = *k.op;
  const bool isElementwise = k.block == BlockKind::Elementwise;
  const bool isMul = isElementwise && op.sub_kind == LOUPE_ETHOSU_elementwise_mode_MUL;
  const bool isAddSub = isElementwise && (op.sub_kind == LOUPE_ETHOSU_elementwise_mode_ADD ||
                                          op.sub_kind == LOUPE_ETHOSU_elementwise_mode_SUB);
  std::size_t output = 7;
  if (isElementwise && op.ifm.precision_bits == 32) {
    output = k.hasIfm2 ? 0 : 1;
  } else if (isMul && op.ofm.precision_bits == 32) {
    output = 2;
  } else if (isMul || (!isElementwise && k.accumulator40)) {
    output = 3;
  } else if (isAddSub) {
    output = 5;
  } else if (k.block == BlockKind::Pooling && op.sub_kind == LOUPE_ETHOSU_pooling_mode_MAX) {
    output = 6;
  }
  std::size_t activation = 2;
  if (op.activation_function != LOUPE_ETHOSU_activation_function_RELU) {
    activation = 0;  // TANH, SIGMOID, lookup tables
  } else if (hasFusedClamp(op)) {
    activation = 1;
  }
  double perElement =
      std::max(g.outputCyclesPerElement[output], g.activationCyclesPerElement[activation]);
  if (isElementwise) {
    // Elementwise blocks are small: the memory round trip, shared by the
    // four output units, can bound them.
    const double blockElements = static_cast<double>(k.ofmBlockConfig.elements());
    const auto [ifmCycles, ofmCycles] = blockRoundTrip(k, cores);
    const double perBlock = (ifmCycles + ofmCycles + perElement * blockElements) / 4.0;
    perElement = std::max(perElement, perBlock / blockElements);
  }
  return perElement;
}

// A convolution-like operation (Vela's _estimate_conv_cycles): per OFM block,
// the MAC array's cycles over every sub-kernel and IFM depth slice, against
// the output unit's; the slower of the two per block, the other once.
double convolutionCycles(const KernelOperation& k, const ArrayGeometry& g,
                         const loupe_ethosu_npu_config& npu) {
  const auto& op = *k.op;
  const int cores = std::max<int>(1, npu.cores);
  const Volume ifmBlock = smallerOf(k.ifm, k.ifmBlockConfig);
  Volume ofmBlock = smallerOf(k.ofm, k.ofmBlockConfig);
  Volume microBlock = g.ofmMicroBlock;
  // A 1-row OFM on an array two micro-block rows high runs as one row of 4.
  if (g.ofmMicroBlock.height == 2 &&
      (k.block == BlockKind::Convolution || k.block == BlockKind::Depthwise) && k.ofm.height == 1 &&
      k.ofm.width % 2 == 0 && k.kernel.height == 1) {
    microBlock = {1, 4, g.ofmMicroBlock.depth};
    ofmBlock.height = 1;
  }
  const std::int64_t microX = divideRoundingUp(ofmBlock.width, microBlock.width);
  const std::int64_t microY = divideRoundingUp(ofmBlock.height, microBlock.height);
  const std::int64_t microXY = microX * microY;
  const std::int64_t microZ = divideRoundingUp(ofmBlock.depth, microBlock.depth);
  const bool ifm16 = op.ifm.precision_bits == 16;
  // The weight decoder delivers one micro-block depth of weights per 4 cycles.
  const std::int64_t weightFloor = 32 * microBlock.depth / 8;
  const std::int64_t ifmDepthSlices8 = divideRoundingUp(ifmBlock.depth, 8);

  double macCycles = 0.0;
  for (std::int64_t y = 0; y < k.kernel.height; y += kSubKernelMax) {
    for (std::int64_t x = 0; x < k.kernel.width; x += kSubKernelMax) {
      const std::int64_t points = std::min(kSubKernelMax, k.kernel.height - y) *
                                  std::min(kSubKernelMax, k.kernel.width - x);
      std::int64_t steps = 1;
      std::int64_t cycles = 0;
      switch (k.block) {
        case BlockKind::Pooling:
          cycles = std::max<std::int64_t>(4, points) * microXY * microZ;
          if (ifm16 && npu.accelerator != LOUPE_ETHOSU_U55_32) cycles *= 2;
          break;
        case BlockKind::Depthwise:
          steps = divideRoundingUp(points, 4);
          cycles = std::max(weightFloor, 4 * microXY * (ifm16 ? 2 : 1)) * steps * microZ;
          break;
        case BlockKind::Convolution:
          if (k.partKernelFirst) {
            steps = divideRoundingUp(points, ifm16 ? 2 : 4);
            cycles = std::max(weightFloor, 4 * microXY) * steps * ifmDepthSlices8 * microZ;
            break;
          }
          [[fallthrough]];
        default:  // depth first, reduce sum
          steps = points;
          cycles = std::max(weightFloor, 4 * microXY) * steps * microZ;
          break;
      }
      // Pipeline delays when a block is a single micro-block in x and y.
      std::int64_t delay = 0;
      if (npu.accelerator == LOUPE_ETHOSU_U55_32) {
        const std::int64_t d = k.accumulator40 ? 7 : 3;
        if (microX == 1 && microY == 1) {
          if (microZ == 1) {
            delay = d * steps;
          } else if (steps > 1) {
            delay = d * (steps - 1) * microZ;
          }
        }
        if ((microX == 1 || microY == 1) && microZ > 1 && k.accumulator40) delay += d * microZ;
      } else {
        const std::int64_t d = k.accumulator40 && (npu.accelerator == LOUPE_ETHOSU_U55_64 ||
                                                   npu.accelerator == LOUPE_ETHOSU_U55_128)
                                   ? 3
                                   : 2;
        if (microX == 1 && microY == 1) {
          if (microZ == 1) {
            delay = d * steps;
          } else if (steps > 1) {
            delay = d * (steps - 1) * microZ;
          }
        }
      }
      if (k.block == BlockKind::Convolution && k.partKernelFirst) delay *= ifmDepthSlices8;
      macCycles += static_cast<double>(cycles + delay);
    }
  }
  if (k.block == BlockKind::Convolution || k.block == BlockKind::ReduceSum) {
    macCycles *= static_cast<double>(divideRoundingUp(k.ifm.depth, ifmBlock.depth));
  }
  macCycles /= cores;

  const std::int64_t ofmBlocks = divideRoundingUp(k.ofm.height, ofmBlock.height) *
                                 divideRoundingUp(k.ofm.width, ofmBlock.width) *
                                 divideRoundingUp(k.ofm.depth, ofmBlock.depth);
  double outputCycles =
      std::ceil(outputCyclesPerElement(k, g, cores) * static_cast<double>(ofmBlock.elements()));
  if (k.block == BlockKind::Convolution || k.block == BlockKind::Depthwise) {
    // 10 bytes of bias and scale per channel, fetched with the memory's latency.
    const double biasCycles =
        10.0 * static_cast<double>(ofmBlock.depth) * k.constMemory->readLatency / 256.0;
    outputCycles = std::max(outputCycles, biasCycles);
  }
  const auto [ifmCycles, ofmCycles] = blockRoundTrip(k, cores);
  const double commandCycles = (ifmCycles + ofmCycles + outputCycles + macCycles) / 4.0;
  macCycles = std::max(macCycles, commandCycles);
  outputCycles = std::max(outputCycles, commandCycles);
  // Blocks pipeline: the slower stage runs once per block, the other once.
  return macCycles > outputCycles ? macCycles * static_cast<double>(ofmBlocks) + outputCycles
                                  : outputCycles * static_cast<double>(ofmBlocks) + macCycles;
}

void addRead(std::vector<MemoryTraffic>& traffic, std::size_t memory, std::uint64_t bytes,
             double scaledBytes, const MemoryPort& port) {
  traffic[memory].bytesRead += bytes;
  traffic[memory].accessCycles += scaledBytes / port.bytesPerCycle;
}

void addWrite(std::vector<MemoryTraffic>& traffic, std::size_t memory, std::uint64_t bytes,
              double scaledBytes, const MemoryPort& port) {
  traffic[memory].bytesWritten += bytes;
  traffic[memory].accessCycles += scaledBytes / port.bytesPerCycle;
}

// Bytes each memory sees for a kernel operation: the IFM once per OFM block
// (and per sub-kernel), the weights once per OFM block position, the OFM once.
void kernelTraffic(const KernelOperation& k, const SystemConfig& system, int cores,
                   std::vector<MemoryTraffic>& traffic) {
  const auto& op = *k.op;
  const auto ifmMemory = static_cast<std::size_t>(memoryIndexOfRegion(system, op.ifm.region));
  const auto ofmMemory = static_cast<std::size_t>(memoryIndexOfRegion(system, op.ofm.region));
  const Volume ofmBlock = smallerOf(k.ofm, k.ofmBlockConfig);
  const Volume ifmBlock = smallerOf(k.ifm, k.ifmBlockConfig);
  std::uint64_t ifmElements = 0;
  std::uint64_t ifm2Elements = 0;
  if (k.block == BlockKind::Elementwise) {
    const auto ofmStored =
        static_cast<std::uint64_t>(storageRounded(k.ofm, op.ifm.layout).elements());
    const bool ifmScalar = k.ifm.elements() == 1;
    if (!ifmScalar || op.ifm.precision_bits > 8) {
      ifmElements =
          ifmScalar ? static_cast<std::uint64_t>(storageRounded(k.ifm, op.ifm.layout).elements())
                    : ofmStored;
    }
    if (k.hasIfm2) {
      if (ifmScalar || k.ifm2.elements() > 1) {
        ifm2Elements = ofmStored;
      } else if (op.ifm2.precision_bits > 8) {
        ifm2Elements = static_cast<std::uint64_t>(storageRounded(k.ifm2, op.ifm.layout).elements());
      }
    }
  } else {
    const std::int64_t positions = divideRoundingUp(k.ofm.height, ofmBlock.height) *
                                   divideRoundingUp(k.ofm.width, ofmBlock.width);
    const bool sameDepth = k.block == BlockKind::Depthwise || k.block == BlockKind::Pooling;
    const std::int64_t depthBlocks = sameDepth ? 1 : divideRoundingUp(k.ofm.depth, ofmBlock.depth);
    const std::int64_t subKernels = divideRoundingUp(k.kernel.width, kSubKernelMax) *
                                    divideRoundingUp(k.kernel.height, kSubKernelMax);
    const std::int64_t perBlock = ifmBlock.area() * storageRounded(k.ifm, op.ifm.layout).depth;
    ifmElements = static_cast<std::uint64_t>(perBlock * subKernels * positions * depthBlocks);
    if (k.block == BlockKind::Convolution || k.block == BlockKind::Depthwise) {
      const int streams = std::clamp<int>(op.weight_streams, 0, 2);
      for (int s = 0; s < streams; ++s) {
        const auto& w = op.weights[s];
        const auto m = static_cast<std::size_t>(memoryIndexOfRegion(system, w.region));
        const std::uint64_t bytes = std::uint64_t{w.length} * static_cast<std::uint64_t>(positions);
        addRead(traffic, m, bytes, static_cast<double>(bytes), system.memories[m]);
        const auto& sc = op.scales[s];
        const auto sm = static_cast<std::size_t>(memoryIndexOfRegion(system, sc.region));
        addRead(traffic, sm, sc.length, sc.length, system.memories[sm]);
      }
    }
  }
  const auto ifmBytes = ifmElements * static_cast<std::uint64_t>(elementBytes(op.ifm));
  addRead(traffic, ifmMemory, ifmBytes,
          burstScaled(*k.ifmMemory, true, op.ifm.layout, op.ifm.precision_bits, k.ifmBlockConfig,
                      k.ifm, cores, static_cast<double>(ifmBytes)),
          system.memories[ifmMemory]);
  if (ifm2Elements > 0) {
    const auto m = static_cast<std::size_t>(memoryIndexOfRegion(system, op.ifm2.region));
    const auto bytes = ifm2Elements * static_cast<std::uint64_t>(elementBytes(op.ifm2));
    addRead(traffic, m, bytes,
            burstScaled(*k.ifm2Memory, true, op.ifm2.layout, op.ifm2.precision_bits,
                        k.ifmBlockConfig, k.ifm2, cores, static_cast<double>(bytes)),
            system.memories[m]);
  }
  const auto ofmBytes =
      static_cast<std::uint64_t>(storageRounded(k.ofm, op.ofm.layout).elements()) *
      static_cast<std::uint64_t>(elementBytes(op.ofm));
  addWrite(traffic, ofmMemory, ofmBytes,
           burstScaled(*k.ofmMemory, false, op.ofm.layout, op.ofm.precision_bits, k.ofmBlockConfig,
                       k.ofm, cores, static_cast<double>(ofmBytes)),
           system.memories[ofmMemory]);
}

// A DMA: the source's bandwidth plus its read latency, or the destination's
// bandwidth, whichever is slower (npu_performance.py, measure_mem2mem_cycles).
std::uint64_t dmaTransferCycles(const loupe_ethosu_operation& op, const SystemConfig& system,
                                std::vector<MemoryTraffic>& traffic) {
  const std::uint64_t bytes = op.dma_length;
  const MemoryPort& from =
      op.dma_src_internal ? system.shram : memoryOfRegion(system, op.dma_src_region);
  const MemoryPort& to =
      op.dma_dst_internal ? system.shram : memoryOfRegion(system, op.dma_dst_region);
  if (!op.dma_src_internal) {
    const auto m = static_cast<std::size_t>(memoryIndexOfRegion(system, op.dma_src_region));
    addRead(traffic, m, bytes, static_cast<double>(bytes), from);
  }
  if (!op.dma_dst_internal) {
    const auto m = static_cast<std::size_t>(memoryIndexOfRegion(system, op.dma_dst_region));
    addWrite(traffic, m, bytes, static_cast<double>(bytes), to);
  }
  const double fromCycles =
      std::floor(static_cast<double>(bytes) / from.bytesPerCycle) + from.readLatency;
  const double toCycles = std::floor(static_cast<double>(bytes) / to.bytesPerCycle);
  return static_cast<std::uint64_t>(std::max(fromCycles, toCycles));
}

std::uint64_t macsOf(const KernelOperation& k) {
  const auto points = static_cast<std::uint64_t>(k.kernel.height * k.kernel.width);
  const auto outputs = static_cast<std::uint64_t>(k.ofm.elements());
  switch (k.block) {
    case BlockKind::Convolution:
    case BlockKind::ReduceSum:
      return points * static_cast<std::uint64_t>(k.ifm.depth) * outputs;
    case BlockKind::Depthwise:
    case BlockKind::Pooling:
      return points * outputs;
    default:
      return 0;
  }
}

std::uint64_t toCycles(double cycles) {
  if (!(cycles > 0.0)) return 0;
  return cycles >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(std::llround(cycles));
}

// The kernel and DMA engines side by side: each runs its operations in
// stream order; the command front end moves on at once except where a
// KERNEL_WAIT or DMA_WAIT holds it until few enough are outstanding.
class EngineTimeline {
 public:
  void place(OperationEstimate& e, const loupe_ethosu_operation& op) {
    switch (op.kind) {
      case LOUPE_ETHOSU_OPERATION_DMA_WAIT:
        front_ = std::max(front_, finishedWhenAtMost(dmaEnds_, op.sub_kind));
        e.start = e.end = front_;
        break;
      case LOUPE_ETHOSU_OPERATION_KERNEL_WAIT:
        front_ = std::max(front_, finishedWhenAtMost(kernelEnds_, op.sub_kind));
        e.start = e.end = front_;
        break;
      case LOUPE_ETHOSU_OPERATION_DMA:
        e.start = std::max(front_, dmaFree_);
        e.end = e.start + e.dmaCycles;
        dmaFree_ = e.end;
        remember(dmaEnds_, e.end);
        break;
      case LOUPE_ETHOSU_OPERATION_CONV:
      case LOUPE_ETHOSU_OPERATION_DEPTHWISE:
      case LOUPE_ETHOSU_OPERATION_POOL:
      case LOUPE_ETHOSU_OPERATION_ELEMENTWISE:
        e.start = std::max(front_, kernelFree_);
        e.stallCycles = e.start - kernelFree_;
        e.end = e.start + e.computeCycles;
        kernelFree_ = e.end;
        remember(kernelEnds_, e.end);
        break;
      default:
        e.start = e.end = front_;
        break;
    }
  }
  std::uint64_t finish() const { return std::max(kernelFree_, dmaFree_); }

 private:
  // The engines finish in order, so "at most n outstanding" is the end of
  // the one n places before the last.
  static std::uint64_t finishedWhenAtMost(const std::deque<std::uint64_t>& ends, unsigned n) {
    if (ends.size() <= n) return 0;
    return ends[ends.size() - 1 - n];
  }
  static void remember(std::deque<std::uint64_t>& ends, std::uint64_t end) {
    ends.push_back(end);
    if (ends.size() > 16) ends.pop_front();  // waits name at most 7 (3 bits)
  }
  std::uint64_t front_ = 0;
  std::uint64_t kernelFree_ = 0;
  std::uint64_t dmaFree_ = 0;
  std::deque<std::uint64_t> kernelEnds_, dmaEnds_;
};

bool isKernelOperation(const loupe_ethosu_operation& op) {
  return blockKindOf(op) != BlockKind::Other;
}

// Where channel `channel` of a feature map starts, from its base: a depth
// slice's feature map is the whole tensor's, moved on by that much.
std::uint64_t channelOffsetOf(const loupe_ethosu_feature_map& f, std::uint64_t channel) {
  if (f.layout == LOUPE_ETHOSU_activation_format_NHCWB16) {
    return (channel / 16) * f.stride_c +
           (channel % 16) * static_cast<std::uint64_t>(elementBytes(f));
  }
  return channel * f.stride_c;
}

bool dmaWritesInto(const loupe_ethosu_operation& dma, const loupe_ethosu_stream_range& r) {
  if (dma.dma_dst_internal || r.length == 0 || dma.dma_dst_region != r.region) return false;
  return dma.dma_dst < r.base + r.length && r.base < dma.dma_dst + dma.dma_length;
}

// A DMA that fills the weights or scales the kernel operation reads.
bool dmaLoadsWeightsOf(const loupe_ethosu_operation& dma, const loupe_ethosu_operation& k) {
  const int streams = std::clamp<int>(k.weight_streams, 0, 2);
  for (int s = 0; s < streams; ++s) {
    if (dmaWritesInto(dma, k.weights[s]) || dmaWritesInto(dma, k.scales[s])) return true;
  }
  return false;
}

// One network operator as Vela's scheduler costed it: one kernel operation,
// or the depth slices Vela cut a convolution into when its weights could not
// be buffered at once (scheduler.py, propose_weight_buffering): each slice
// writes the next channels of the same OFM (a depthwise slice also reads the
// next channels of its IFM), with its own weight DMA.
struct VelaScheduledOperator {
  std::vector<std::size_t> slices;      // kernel operations, in stream order
  std::vector<std::size_t> weightDmas;  // the DMAs that buffer its weights
  std::vector<std::size_t> lutDmas;     // lookup tables into SHRAM
  std::uint64_t depth = 0;              // OFM channels of the slices so far
};

bool continuesDepthSlices(const VelaScheduledOperator& g,
                          const std::vector<loupe_ethosu_operation>& ops,
                          const loupe_ethosu_operation& k) {
  const auto& first = ops[g.slices.front()];
  if (k.kind != first.kind || k.sub_kind != first.sub_kind) return false;
  if (k.kind != LOUPE_ETHOSU_OPERATION_CONV && k.kind != LOUPE_ETHOSU_OPERATION_DEPTHWISE) {
    return false;
  }
  const bool sameGeometry = k.ofm.region == first.ofm.region && k.ofm.layout == first.ofm.layout &&
                            k.ofm.height == first.ofm.height && k.ofm.width == first.ofm.width &&
                            k.ifm.region == first.ifm.region && k.ifm.height == first.ifm.height &&
                            k.ifm.width == first.ifm.width &&
                            k.kernel_height == first.kernel_height &&
                            k.kernel_width == first.kernel_width && k.stride_x == first.stride_x &&
                            k.stride_y == first.stride_y && k.block_height == first.block_height &&
                            k.block_width == first.block_width;
  if (!sameGeometry) return false;
  if (k.ofm.base[0] != first.ofm.base[0] + channelOffsetOf(first.ofm, g.depth)) return false;
  if (k.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE) {
    return k.ifm.base[0] == first.ifm.base[0] + channelOffsetOf(first.ifm, g.depth);
  }
  return k.ifm.base[0] == first.ifm.base[0] && k.ifm.depth == first.ifm.depth;
}

// Vela's NPU cycles, operator by operator (npu_performance.py,
// estimate_full_op_performance, with the slack that scheduler.py's
// propose_operator_buffering hands on):
//  - compute: the operator's cycles, its depth slices costed as one;
//  - weights buffered in one buffer: the whole transfer, less what the
//    previous operator's cycles (its "slack") hide of the first slice's;
//  - weights double-buffered (slices into two buffers): the larger of the
//    whole transfer (less the previous slack, plus this operator's own
//    slack, the cycles of its last slice) and the compute plus what the
//    previous slack does not hide of the first slice's transfer;
//  - a lookup-table DMA: added whole to an operator with buffered weights,
//    else what the previous slack does not hide;
//  - any other DMA (a feature map copied between memories): its own
//    operator, with no compute and no slack to hand on.
// Weights the kernel reads straight from the constants' memory (fully
// connected layers, or what no SRAM was left to buffer) add nothing here:
// their reads count in the memory cycles, their latency in the bias fetch.
class VelaNpuCycleAccount {
 public:
  VelaNpuCycleAccount(const std::vector<loupe_ethosu_operation>& ops,
                      std::vector<OperationEstimate>& estimates, const loupe_ethosu_npu_config& npu,
                      const SystemConfig& system)
      : ops_(ops), estimates_(estimates), npu_(npu), system_(system) {}

  // Returns the network operators counted.
  std::uint32_t run() {
    std::vector<std::size_t> pending;  // DMAs since the last kernel operation
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      const auto& op = ops_[i];
      if (op.kind == LOUPE_ETHOSU_OPERATION_DMA) {
        pending.push_back(i);
        continue;
      }
      if (!isKernelOperation(op)) continue;
      std::vector<std::size_t> weights, luts, copies;
      for (const std::size_t d : pending) {
        if (ops_[d].dma_dst_internal) {
          luts.push_back(d);
        } else if (dmaLoadsWeightsOf(ops_[d], op)) {
          weights.push_back(d);
        } else {
          copies.push_back(d);
        }
      }
      pending.clear();
      const bool slice = current_.has_value() && !weights.empty() && luts.empty() &&
                         copies.empty() && continuesDepthSlices(*current_, ops_, op);
      if (!slice) {
        close();
        for (const std::size_t d : copies) chargeCopy(d);
        current_ = VelaScheduledOperator{};
      }
      current_->slices.push_back(i);
      current_->depth += op.ofm.depth;
      current_->weightDmas.insert(current_->weightDmas.end(), weights.begin(), weights.end());
      current_->lutDmas.insert(current_->lutDmas.end(), luts.begin(), luts.end());
    }
    close();
    for (const std::size_t d : pending) chargeCopy(d);
    return operators_;
  }

 private:
  double computeOf(const loupe_ethosu_operation& op) const {
    return static_cast<double>(estimateOperation(op, npu_, system_).computeCycles);
  }

  // measure_mem2mem_cycles for `bytes` between the memories of DMA `d`.
  double transferCycles(std::size_t d, std::uint64_t bytes) const {
    loupe_ethosu_operation dma = ops_[d];
    dma.dma_length = bytes;
    std::vector<MemoryTraffic> ignored(system_.memories.size());
    return static_cast<double>(dmaTransferCycles(dma, system_, ignored));
  }

  void chargeCopy(std::size_t d) {
    const auto& dma = ops_[d];
    // Vela moves nothing, and charges nothing, between places in one memory.
    const bool sameMemory = !dma.dma_src_internal && !dma.dma_dst_internal &&
                            memoryIndexOfRegion(system_, dma.dma_src_region) ==
                                memoryIndexOfRegion(system_, dma.dma_dst_region);
    const double cycles = sameMemory ? 0.0 : static_cast<double>(estimates_[d].dmaCycles);
    estimates_[d].npuCycles = toCycles(std::max(cycles - slack_, 0.0));
    slack_ = 0.0;
    ++operators_;
  }

  void close() {
    if (!current_.has_value()) return;
    const VelaScheduledOperator g = std::move(*current_);
    current_.reset();
    ++operators_;
    const auto& first = ops_[g.slices.front()];
    double compute = 0.0;
    double lastSlice = 0.0;
    if (g.slices.size() == 1) {
      compute = static_cast<double>(estimates_[g.slices.front()].computeCycles);
    } else {
      loupe_ethosu_operation whole = first;
      whole.ofm.depth = static_cast<std::uint32_t>(g.depth);
      if (first.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE) whole.ifm.depth = whole.ofm.depth;
      compute = computeOf(whole);
      lastSlice = static_cast<double>(estimates_[g.slices.back()].computeCycles);
    }
    double luts = 0.0;
    for (const std::size_t d : g.lutDmas) luts += static_cast<double>(estimates_[d].dmaCycles);
    double npuCycles = compute;
    if (!g.weightDmas.empty()) {
      std::uint64_t bytes = 0;
      bool oneBuffer = true;
      for (const std::size_t d : g.weightDmas) {
        bytes += ops_[d].dma_length;
        oneBuffer = oneBuffer && ops_[d].dma_dst == ops_[g.weightDmas.front()].dma_dst;
      }
      const double whole = transferCycles(g.weightDmas.front(), bytes);
      const double firstSlice = static_cast<double>(estimates_[g.weightDmas.front()].dmaCycles);
      if (g.weightDmas.size() > 1 && !oneBuffer) {
        npuCycles =
            std::max(whole - slack_ + lastSlice, compute + std::max(firstSlice - slack_, 0.0));
      } else {
        npuCycles = compute + whole - std::min(firstSlice, slack_);
      }
      npuCycles += luts;
    } else {
      npuCycles += std::max(luts - slack_, 0.0);
    }
    // The next operator's DMAs hide under this one: under its last slice
    // when it was cut into slices.
    slack_ = g.slices.size() > 1 ? lastSlice : compute;
    share(g, std::max(npuCycles, 0.0));
  }

  // The operator's cycles over its slices, in proportion to their compute.
  void share(const VelaScheduledOperator& g, double cycles) {
    const std::uint64_t total = toCycles(cycles);
    double weight = 0.0;
    for (const std::size_t i : g.slices) weight += static_cast<double>(estimates_[i].computeCycles);
    std::uint64_t given = 0;
    for (std::size_t n = 0; n < g.slices.size(); ++n) {
      auto& e = estimates_[g.slices[n]];
      e.operatorStart = ops_[g.slices.front()].index;
      if (n + 1 == g.slices.size()) {
        e.npuCycles = total - std::min(given, total);
      } else {
        const double part = weight > 0.0 ? static_cast<double>(e.computeCycles) / weight
                                         : 1.0 / static_cast<double>(g.slices.size());
        e.npuCycles = std::min(total - given, toCycles(cycles * part));
        given += e.npuCycles;
      }
    }
  }

  const std::vector<loupe_ethosu_operation>& ops_;
  std::vector<OperationEstimate>& estimates_;
  const loupe_ethosu_npu_config& npu_;
  const SystemConfig& system_;
  std::optional<VelaScheduledOperator> current_;
  double slack_ = 0.0;  // the previous operator's cycles, that hide the next DMAs
  std::uint32_t operators_ = 0;
};

int collectEthosuOperation(void* user, const loupe_ethosu_operation* op) {
  static_cast<std::vector<loupe_ethosu_operation>*>(user)->push_back(*op);
  return 0;
}

void decodeEthosuStream(const void* words, std::uint32_t wordCount,
                        std::vector<loupe_ethosu_operation>& ops) {
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_operation scratch;
  loupe_ethosu_error err;
  loupe_ethosu_clear_error(&err);
  const int status = loupe_ethosu_command_stream_walk(words, wordCount, &decoder, &scratch,
                                                      collectEthosuOperation, &ops, &err);
  if (status < 0) throw EstimateError(std::string("command stream: ") + err.message);
}

}  // namespace

SystemConfig velaDefaultSystem(const loupe_ethosu_npu_config& npu) {
  SystemConfig s;
  s.shram = {"SHRAM", 8.0, 1, 0, 0};
  if (npu.product == 1) {
    // Ethos-U65 Client-Server: 128-bit AXI, SRAM 16 GB/s, DRAM 12 GB/s at 1 GHz.
    s.name = "internal-default (Ethos-U65 Client-Server, dedicated SRAM)";
    s.coreClockHz = 1e9;
    s.memories = {{"SRAM", 16.0, 32, 32, 32}, {"DRAM", 12.0, 128, 500, 250}};
    s.regionMemory.fill(1);
    s.regionMemory[2] = 0;  // fast scratch: the SRAM cache
  } else {
    // Ethos-U55 High-End Embedded: 64-bit AXI, SRAM 4 GB/s, flash 0.5 GB/s at 500 MHz.
    s.name = "internal-default (Ethos-U55 High-End Embedded, shared SRAM)";
    s.coreClockHz = 500e6;
    s.memories = {{"SRAM", 8.0, 32, 32, 32}, {"Off-chip flash", 1.0, 128, 64, 64}};
    s.regionMemory.fill(0);
    s.regionMemory[0] = 1;  // Vela's constants: weights, scales, lookup tables
  }
  return s;
}

SystemConfig nxpVelaDefaultSystem(const loupe_ethosu_npu_config& npu) {
  SystemConfig s;
  s.shram = {"SHRAM", 8.0, 1, 0, 0};
  s.coreClockHz = 1e9;
  // SRAM at the full AXI width per cycle, DRAM at 0.234375 of it (3.75 GB/s
  // on a 128-bit U65 port, 1.875 bytes/cycle on a 64-bit U55 port).
  const double axiBytes = npu.product == 1 ? 16.0 : 8.0;
  s.memories = {{"SRAM", axiBytes, 32, 32, 32}, {"DRAM", axiBytes * 0.234375, 128, 500, 250}};
  if (npu.product == 1) {
    s.name = "NXP default (i.MX93: SRAM and DRAM at 1 GHz, dedicated SRAM)";
    s.regionMemory.fill(1);
    s.regionMemory[2] = 0;  // fast scratch: the SRAM cache
  } else {
    s.name = "NXP default (i.MX93: SRAM and DRAM at 1 GHz, shared SRAM)";
    s.regionMemory.fill(0);
    s.regionMemory[0] = 1;  // Vela's constants: weights, scales, lookup tables
  }
  return s;
}

OperationEstimate estimateOperation(const loupe_ethosu_operation& op,
                                    const loupe_ethosu_npu_config& npu,
                                    const SystemConfig& system) {
  if (system.memories.empty()) throw EstimateError("system configuration without memories");
  OperationEstimate e;
  e.index = op.index;
  e.kind = op.kind;
  e.name = loupe_ethosu_operation_name(&op);
  e.memory.assign(system.memories.size(), MemoryTraffic{});
  const ArrayGeometry g = geometryOf(npu);
  const int cores = std::max<int>(1, npu.cores);
  const BlockKind block = blockKindOf(op);
  if (block != BlockKind::Other) {
    const KernelOperation k = describeKernel(op, g, system);
    e.macs = macsOf(k);
    if (block == BlockKind::Elementwise) {
      const double perElement = outputCyclesPerElement(k, g, cores);
      e.computeCycles = toCycles(std::ceil(
          perElement * static_cast<double>(storageRounded(k.ofm, op.ofm.layout).elements())));
    } else {
      e.computeCycles = toCycles(std::floor(convolutionCycles(k, g, npu)));
    }
    kernelTraffic(k, system, cores, e.memory);
  } else if (op.kind == LOUPE_ETHOSU_OPERATION_DMA) {
    e.dmaCycles = dmaTransferCycles(op, system, e.memory);
  }
  double busiest = 0.0;
  for (const auto& m : e.memory) busiest = std::max(busiest, m.accessCycles);
  e.memoryCycles = toCycles(busiest);
  e.npuCycles = e.computeCycles + e.dmaCycles;
  e.cycles = std::max(e.npuCycles, e.memoryCycles);
  return e;
}

StreamEstimate estimateOperations(std::span<const loupe_ethosu_operation> operations,
                                  const loupe_ethosu_npu_config& npu, const SystemConfig& system) {
  if (system.memories.empty()) throw EstimateError("system configuration without memories");
  const std::vector<loupe_ethosu_operation> ops(operations.begin(), operations.end());
  StreamEstimate s;
  EngineTimeline timeline;
  s.operations.reserve(ops.size());
  for (const auto& op : ops) {
    OperationEstimate e = estimateOperation(op, npu, system);
    e.npuCycles = 0;  // set per operator below
    e.operatorStart = op.index;
    timeline.place(e, op);
    s.operations.push_back(std::move(e));
  }
  s.networkOperators = VelaNpuCycleAccount(ops, s.operations, npu, system).run();
  s.memory.assign(system.memories.size(), MemoryTraffic{});
  for (auto& e : s.operations) {
    // Vela leaves DMAs' traffic out of the access cycles an operator is
    // bounded by; a kernel operation is bounded by its own.
    e.cycles =
        e.kind == LOUPE_ETHOSU_OPERATION_DMA ? e.npuCycles : std::max(e.npuCycles, e.memoryCycles);
    s.npuCycles += e.npuCycles;
    s.computeCycles += e.computeCycles;
    s.dmaCycles += e.dmaCycles;
    s.totalCycles += e.cycles;
    s.macs += e.macs;
    if (e.kind == LOUPE_ETHOSU_OPERATION_DMA) ++s.dmaOperations;
    if (e.computeCycles > 0 || e.macs > 0) ++s.kernelOperations;
    for (std::size_t m = 0; m < s.memory.size() && m < e.memory.size(); ++m) {
      s.memory[m].bytesRead += e.memory[m].bytesRead;
      s.memory[m].bytesWritten += e.memory[m].bytesWritten;
      s.memory[m].accessCycles += e.memory[m].accessCycles;
    }
  }
  s.timelineCycles = timeline.finish();
  return s;
}

StreamEstimate estimateCommandStream(const void* words, std::uint32_t wordCount,
                                     const loupe_ethosu_npu_config& npu,
                                     const SystemConfig& system) {
  std::vector<loupe_ethosu_operation> ops;
  decodeEthosuStream(words, wordCount, ops);
  return estimateOperations(ops, npu, system);
}

StreamEstimate estimatePayload(const void* payload, std::size_t size,
                               const loupe_ethosu_npu_config& npu, const SystemConfig& system) {
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_action action;
  loupe_ethosu_error err;
  loupe_ethosu_clear_error(&err);
  if (loupe_ethosu_payload_begin(&cursor, payload, size, &err) != LOUPE_ETHOSU_OK) {
    throw EstimateError(err.message);
  }
  std::vector<loupe_ethosu_operation> ops;
  int status;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, &err)) == 1) {
    if (action.kind == LOUPE_ETHOSU_DA_COMMAND_STREAM) {
      decodeEthosuStream(action.command_stream, action.command_stream_words, ops);
    }
  }
  if (status < 0) throw EstimateError(err.message);
  return estimateOperations(ops, npu, system);
}

loupe_ethosu_npu_config npuConfigOf(const frontend::EthosUPayload& payload) {
  loupe_ethosu_npu_config config;
  if (payload.accelerator < 0 ||
      loupe_ethosu_npu_config_init(&config, payload.accelerator) != LOUPE_ETHOSU_OK) {
    throw EstimateError("payload: compiled for an NPU Loupe does not model");
  }
  return config;
}

StreamEstimate estimatePayload(const frontend::EthosUPayload& payload, const SystemConfig& system) {
  const loupe_ethosu_npu_config npu = npuConfigOf(payload);
  std::vector<loupe_ethosu_operation> ops;
  for (const auto& stream : payload.streams) {
    ops.insert(ops.end(), stream.operations.begin(), stream.operations.end());
  }
  return estimateOperations(ops, npu, system);
}

loupe_ethosu_npu_config payloadNpuConfig(const void* payload, std::size_t size) {
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_action action;
  loupe_ethosu_error err;
  loupe_ethosu_clear_error(&err);
  if (loupe_ethosu_payload_begin(&cursor, payload, size, &err) != LOUPE_ETHOSU_OK) {
    throw EstimateError(err.message);
  }
  int status;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, &err)) == 1) {
    if (action.kind != LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG) continue;
    const int accelerator = loupe_ethosu_accelerator_from_config_word(action.config_word);
    loupe_ethosu_npu_config config;
    if (accelerator < 0 || loupe_ethosu_npu_config_init(&config, accelerator) != LOUPE_ETHOSU_OK) {
      throw EstimateError("payload: OPTIMIZER_CONFIG names no known accelerator");
    }
    return config;
  }
  if (status < 0) throw EstimateError(err.message);
  throw EstimateError("payload: no OPTIMIZER_CONFIG action");
}

}  // namespace loupe::ethosu
