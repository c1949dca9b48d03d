// ADD, SUB, MUL, MINIMUM and MAXIMUM of int8 tensors as one NPU
// element-wise operation. ADD and SUB rescale as TFLite does: both operands
// shifted left by 20, the one of the larger scale halved, the other
// multiplied by its 32-bit scale, then the sum rescaled to the output; MUL
// scales the product; MINIMUM and MAXIMUM take operands quantised as their
// output and leave the chosen value as it is. The second
// operand may broadcast along height, width or depth; when the first is the
// one that broadcasts, the NPU reads them the other way round.
#pragma once

#include "ethosu/convolution_lowering.h"

namespace loupe::ethosu {

// `input0` and `input1` say where the operator's two inputs lie, `ofm` its
// output. Throws NpuLoweringError naming the operator and what the NPU
// cannot do.
NpuOperation lowerElementwise(const ir::Graph& graph, const ir::Operator& op,
                              const NpuArchitecture& arch, const NpuFeatureMap& input0,
                              const NpuFeatureMap& input1, const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
