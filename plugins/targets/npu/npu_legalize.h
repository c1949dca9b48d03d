// Legalisation of one graph operator the partitioner gave to the NPU into one
// NPU primitive (docs/npu.md): CONV_2D, DEPTHWISE_CONV_2D (depth multiplier 1)
// and FULLY_CONNECTED (as a 1x1 convolution of a 1x1xC IFM) with their weights
// encoded and their biases and per-channel multipliers packed into the scale
// stream; AVERAGE_POOL_2D and MAX_POOL_2D; ADD, SUB and MUL of equally shaped
// inputs. Every multiplier, shift, padding and clamp comes from the functions
// the reference interpreter and the CPU code generator use
// (reference/quantized_params.h), so the NPU computes TFLite's integers.
//
// The feature maps are placed at offset 0 of their regions (IFM 2, IFM2 3,
// OFM 4) and the constants at region 0: the caller binds each region to the
// tensor's buffer. An operator the NPU cannot run throws NpuLegalizeError
// naming the operator and the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ir/graph.h"
#include "targets/npu/npu_config.h"
#include "targets/npu/npu_operation.h"
#include "targets/npu/weight_encoder.h"

namespace loupe::npu {

class NpuLegalizeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each stream in an operator's constants, and each operator's constants in
// the region's, starts at a multiple of this.
inline constexpr std::size_t kConstantsAlignment = 16;

struct NpuLegalizedOperator {
  NpuOperation operation;
  // Region 0: the scale stream, then the weight stream (each 16-byte aligned).
  std::vector<std::uint8_t> constants;
  // Convolutions: the weights' shape and their raw (int8) and encoded sizes.
  WeightShape weightShape;
  std::int64_t rawWeightBytes = 0;
  std::int64_t encodedWeightBytes = 0;
};

NpuLegalizedOperator legalizeForNpu(const ir::Graph& graph, const ir::Operator& op,
                                    const NpuConfig& config);

}  // namespace loupe::npu
