// CONV_2D, DEPTHWISE_CONV_2D (depth multiplier 1, or of one input channel,
// then a convolution) and FULLY_CONNECTED (a
// 1x1 convolution of the input seen as 1x1xD) as one NPU operation: the
// kernel and its padding, the output clamp, the block, and the constants the
// operation reads, the weights in mlw and a 10-byte record per output
// channel (bias, and TFLite's multiplier as scale and shift), every number
// from the helpers the reference interpreter uses so that the NPU computes
// TFLite's integers. int8 activations, symmetric int8 weights.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

class NpuLoweringError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One NPU operation and the constants it reads (a convolution's weights and
// scales; a lookup-table operation's table; none for a pool or an
// element-wise operation).
struct LoweredOperation {
  NpuOperation operation;  // weights and scales at base 0 of region 0: the caller places them
  std::vector<std::uint8_t> weights, scales;
  std::vector<std::uint8_t> lookupTable;  // 256 bytes for the SHRAM's table 0, or none
};

// `ifm` and `ofm` say where the caller keeps the operator's input and
// output (their extents are checked against the tensors'). Throws
// NpuLoweringError naming the operator and what the NPU cannot do.
LoweredOperation lowerConvolution(const ir::Graph& graph, const ir::Operator& op,
                                  const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                                  const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
