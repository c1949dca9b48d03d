// An int8 operator that maps each input value to one output value on its
// own (LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ELU, RELU, RELU6, ABS,
// NEG, QUANTIZE int8 to int8) as one NPU operation
// through a 256-entry lookup table, as Vela runs its lookup-table
// activations: a 1x1 MAX pool that passes each value through unscaled (IFM
// and OFM zero points 0), its output stage indexing the table in the SHRAM
// by the value. The table is the reference interpreter's own output for
// each of the 256 inputs, so the NPU gives TFLite's bytes by construction,
// whatever the function; where the reference cannot run the operator on
// int8 (TFLite Micro's NEG takes floats only) the NPU refuses it with the
// reference's reason.
#pragma once

#include "ethosu/convolution_lowering.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

// Whether `op`'s type is one the table can stand for (its tensors are
// checked on lowering).
bool isLookupTableOperator(const ir::Operator& op);

// The operation and its table (LoweredOperation::lookupTable), the caller
// copying the table into the SHRAM before it. Throws NpuLoweringError for
// tensors other than int8 quantised per tensor, or input and output of
// different shapes.
LoweredOperation lowerLookupTable(const ir::Graph& graph, const ir::Operator& op,
                                  const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                                  const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
