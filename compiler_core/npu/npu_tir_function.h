// One operator the partitioner gave to the NPU, as the TIR function code
// generation prints (rfcs/004, C3 and C4): its feature maps are parameters,
// the command stream and the encoded weights and scales are constants beside
// it, and the body is one driver call, T.call_extern("LoupeNpuRunOperator",
// ...), on the NPU behind the function's resource handle (the device the AOT
// code opens around the call). Attributes name the target and carry the
// performance model's estimate and the weight sizes.
#pragma once

#include <string>

#include "ir/graph.h"
#include "npu/npu_config.h"
#include "npu/npu_operator_compiler.h"
#include "tir/prim_func.h"

namespace loupe::npu {

// The C function the body calls (runtime_core/crt/include/loupe/npu_device.h).
inline constexpr const char* kNpuRunOperator = "LoupeNpuRunOperator";
// The device NPU functions run on: devices->npu in the generated code.
inline constexpr const char* kNpuDeviceName = "npu";

// Throws NpuLegalizeError for an operator the NPU cannot run.
tir::PrimFunc lowerToNpuFunction(const ir::Graph& graph, const ir::Operator& op, MacConfig config,
                                 const std::string& name);

}  // namespace loupe::npu
