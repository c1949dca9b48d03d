// AVERAGE_POOL_2D and MAX_POOL_2D as one NPU pooling operation: the window
// as a kernel, the fused activation as the clamp, the block. The NPU's
// average without a global scale divides by the elements inside the IFM
// and rounds as TFLite's average pool does, so int8 pools whose input and
// output share their quantisation (what TFLite requires of them) are exact.
#pragma once

#include "ethosu/convolution_lowering.h"

namespace loupe::ethosu {

// Throws NpuLoweringError naming the operator and what the NPU cannot do.
NpuOperation lowerPool(const ir::Graph& graph, const ir::Operator& op, const NpuArchitecture& arch,
                       const NpuFeatureMap& ifm, const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
