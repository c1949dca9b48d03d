#include "targets/npu/npu_config.h"

#include <algorithm>
#include <stdexcept>

namespace loupe::npu {

namespace {

int roundUp(int value, int multiple) {
  return (value + multiple - 1) / multiple * multiple;
}
int roundDown(int value, int multiple) {
  return value / multiple * multiple;
}

constexpr int kMaxBlockDepth = 64;
constexpr int kAccumulatorsPerMac = 8;

}  // namespace

NpuConfig npuConfig(MacConfig config) {
  NpuConfig c;
  c.macsPerCycle = static_cast<int>(config);
  // Ethos-U55's OFM micro-blocks (Vela's architecture description).
  switch (config) {
    case MacConfig::Macs32:
      c.microBlock = {1, 1, 4};
      break;
    case MacConfig::Macs64:
      c.microBlock = {1, 1, 8};
      break;
    case MacConfig::Macs128:
      c.microBlock = {2, 1, 8};
      break;
    case MacConfig::Macs256:
      c.microBlock = {2, 2, 8};
      break;
  }
  c.accumulators = c.macsPerCycle * kAccumulatorsPerMac;
  return c;
}

std::string macConfigName(MacConfig config) {
  return "ethos-u55-like-" + std::to_string(static_cast<int>(config));
}

BlockConfig chooseBlockConfig(const NpuConfig& config, int height, int width, int depth) {
  if (height < 1 || width < 1 || depth < 1) {
    throw std::invalid_argument("chooseBlockConfig: empty OFM " + std::to_string(height) + "x" +
                                std::to_string(width) + "x" + std::to_string(depth));
  }
  const MicroBlock& u = config.microBlock;
  const int capacity = config.accumulators;
  BlockConfig b;
  // Deep enough for the OFM (or 64), leaving room for one micro-block of rows and columns.
  b.depth = std::min({roundUp(depth, u.depth), kMaxBlockDepth,
                      roundDown(capacity / (u.height * u.width), u.depth)});
  b.width = std::min(roundUp(width, u.width),
                     std::max(u.width, roundDown(capacity / (b.depth * u.height), u.width)));
  b.height = std::min(roundUp(height, u.height),
                      std::max(u.height, roundDown(capacity / (b.depth * b.width), u.height)));
  return b;
}

}  // namespace loupe::npu
