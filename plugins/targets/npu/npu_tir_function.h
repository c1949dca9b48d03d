// One region of operators the partitioner gave to the NPU (an
// ir::ExternalFunction), as the TIR function code generation prints
// (rfcs/004, C3 and C4): the region's feature maps are parameters, the
// command stream holding every operation of the region and the constants
// (encoded weights, scales) are constants beside it. The body binds each
// base-address region the stream names, T.call_extern("LoupeNpuSetRegion",
// ...), then runs the whole stream with one driver call,
// T.call_extern("LoupeNpuRunStream", ...), on the NPU behind the function's
// resource handle (the device the AOT code opens around the call), every
// call's status checked. Attributes name the target, the operators, which
// parameter is an input, output or intermediate tensor, and carry the
// performance model's estimate and the weight sizes.
#pragma once

#include <string>

#include "ir/graph.h"
#include "ir/partition.h"
#include "targets/npu/npu_config.h"
#include "tir/prim_func.h"

namespace loupe::npu {

// The C functions the body calls (runtime_core/crt/include/loupe/npu_device.h).
inline constexpr const char* kNpuSetRegion = "LoupeNpuSetRegion";
inline constexpr const char* kNpuRunStream = "LoupeNpuRunStream";
// The device NPU functions run on: devices->npu in the generated code.
inline constexpr const char* kNpuDeviceName = "npu";

// Parameters: the region's inputs (read), outputs, then intermediate tensors
// (both written), named input_<i>, output_<i>, intermediate_<i>; the memory
// planner places the intermediates in the workspace like any tensor.
// Throws NpuLegalizeError for an operator the NPU cannot run.
tir::PrimFunc lowerToNpuRegionFunction(const ir::Graph& graph, const ir::ExternalFunction& region,
                                       MacConfig config, const std::string& name);

}  // namespace loupe::npu
