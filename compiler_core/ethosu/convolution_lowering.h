// CONV_2D, DEPTHWISE_CONV_2D (depth multiplier 1, or of one input channel,
// then a convolution), FULLY_CONNECTED (a 1x1 convolution of the input seen
// as 1x1xD) and TRANSPOSE_CONV (stride 1 or 2: a convolution of the
// reversed filter over the input upscaled with zeros) as one NPU operation:
// the
// kernel and its padding, the output clamp, the block, and the constants the
// operation reads, the weights in mlw and a 10-byte record per output
// channel (bias, and TFLite's multiplier as scale and shift), every number
// from the helpers the reference interpreter uses so that the NPU computes
// TFLite's integers. int8 activations, symmetric int8 weights.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::ethosu {

class NpuLoweringError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Why `tensor` (in `role`: "input", "output") is not an int8 feature map
// quantised per tensor, as the NPU's int8 operations take, or nothing.
std::optional<std::string> notInt8PerTensor(std::string_view role, const ir::Tensor& tensor);

// One NPU operation and the constants it reads (a convolution's weights and
// scales; a lookup-table operation's table; none for a pool or an
// element-wise operation).
struct LoweredOperation {
  NpuOperation operation;  // weights and scales at base 0 of region 0: the caller places them
  std::array<std::vector<std::uint8_t>, 2> weights, scales;  // per core (core 1: two-core NPUs)
  std::vector<std::uint8_t>
      lookupTable;  // the SHRAM table's bytes (256, or 1024 of 32-bit entries), or none
  std::vector<NpuOperation> followers;  // further operations of the operator, after it
  // Scratch for the maps between its operations (home Temporary), each map's
  // base counted from the start of these bytes; live only while it runs.
  std::int64_t temporaryBytes = 0;
  // Constant maps its operations read (home Constant), each map's base
  // counted from the start of these bytes, which go into the flash.
  std::vector<std::uint8_t> constantMaps;

  bool hasConstants() const { return !weights[0].empty(); }
};

// Where appendConstants put an operation's constants in the flash: every
// core's scale stream from `begin` to `scalesEnd`, then every core's weight
// stream up to `end`, each stream on 16 bytes.
struct ConstantsPlacement {
  std::uint64_t begin = 0, scalesEnd = 0, end = 0;
};

// Appends `lowered`'s constants to `flash` and points its operation at them
// (region 0); a core without channels gets core 0's base and length 0.
ConstantsPlacement appendConstants(LoweredOperation& lowered, std::vector<std::uint8_t>& flash);

// The bytes appendConstants takes for the scales (`withWeights`: and the
// weights) from the first scale stream on, when `flash` ends on 16 bytes.
std::uint64_t constantsBytes(const LoweredOperation& lowered, bool withWeights);

// `ifm` and `ofm` say where the caller keeps the operator's input and
// output (their extents are checked against the tensors'). With
// `ifmUpscale` (upscale_mode) a convolution's windows move over `ifm`
// upscaled x2, whose extents the operator's input tensor then has (a
// resize's last step). Throws NpuLoweringError naming the operator and
// what the NPU cannot do.
LoweredOperation lowerConvolution(const ir::Graph& graph, const ir::Operator& op,
                                  const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                                  const NpuFeatureMap& ofm,
                                  int ifmUpscale = LOUPE_ETHOSU_upscale_mode_NONE);

}  // namespace loupe::ethosu
