// An int8 SOFTMAX as the NPU runs it, the way Vela lowers it: 31 operations
// that compute TFLite Micro's fixed-point softmax row by row (a row is the
// last dimension). A MAX pool finds each row's maximum; a SUB of it, whose
// output stage indexes a table of 32-bit exponentials, gives exp(x - max)
// in Q0.31; a right shift and a REDUCE_SUM give the row's sum in Q12.19;
// CLZ, shifts and Newton-Raphson steps on 32-bit maps give its reciprocal
// as gemmlowp's one_over_one_plus_x_for_x_in_0_1 does; a MUL and a rounding
// right shift give the output. The maps between the operations are the
// operator's temporaries in the scratch, its int32 constants lie in the
// flash.
#pragma once

#include "ethosu/convolution_lowering.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

// The NPU operations lowerSoftmax gives a SOFTMAX whose rows are
// `rowLength` long (31, and a MIN for rows of 512 or more).
int softmaxNpuOperations(int rowLength);

// `ifm` and `ofm` are the input and output as flat NHWC maps (their element
// counts are checked). Throws NpuLoweringError for anything but int8 to
// int8 with TFLite's output quantisation (scale 1/256, zero point -128).
LoweredOperation lowerSoftmax(const ir::Graph& graph, const ir::Operator& op,
                              const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                              const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
