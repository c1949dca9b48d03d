// CONCATENATION of int8 maps quantised like its output, as the NPU runs it:
// one copy per input, a 1x1 MAX pool that passes the bytes through
// unscaled (zero points 0, the fused activation's clamp) into its slice of
// the output, whose rows and columns keep the whole output's strides. The
// output stays NHWC, so that the slices are plain offsets into it.
#pragma once

#include <vector>

#include "ethosu/convolution_lowering.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

// The copies (LoweredOperation::operation the first, `followers` the rest),
// `inputs` and `output` where the caller keeps the maps. Throws
// NpuLoweringError for inputs quantised otherwise than the output, a
// concatenation along the batch, or maps that are not NHWC.
LoweredOperation lowerConcatenation(const ir::Graph& graph, const ir::Operator& op,
                                    const NpuArchitecture& arch,
                                    const std::vector<NpuFeatureMap>& inputs,
                                    const NpuFeatureMap& output);

}  // namespace loupe::ethosu
