// An NPU region compiled to what Vela leaves in a .tflite: one Ethos-U
// operator whose driver payload holds the region's command stream, whose
// flash holds every operation's weights and scale records, and whose
// feature maps (the region's inputs, outputs and intermediates) lie at
// planned offsets of one scratch area. Everything that runs, compiles and
// shows an imported Vela operator (the reference interpreter through the
// functional model, the C code calling the driver, the views) then takes
// the region as it is.
//
// The scratch is planned like the workspace: each feature map lives from
// the operation that writes it (the region's inputs: from the start) to the
// last that reads it (its outputs: to the end), views (RESHAPE, SQUEEZE,
// EXPAND_DIMS) share their input's bytes, and maps whose lives overlap get
// disjoint bytes, largest first at the lowest offset that fits.
#pragma once

#include <string>
#include <vector>

#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

// `graph` with its operators first..last (execution order, inclusive)
// replaced by one Ethos-U operator for `arch`. Throws NpuLoweringError
// naming the first operator the NPU cannot run.
ir::Graph withNpuRegion(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch);

// The operators an Ethos-U operator of withNpuRegion stands for, as a graph
// of their own (its operators the region's, its inputs and outputs the
// region's), to compile the region again for another configuration; null
// for an operator Vela compiled.
const ir::Graph* npuRegionSource(const ir::Operator& op);

// `tensor` as the NPU reads it at `base` of region 1 (the scratch): NHWC
// of batch 1, a fully connected layer's input and output (`flat`) as
// 1x1xN. Throws NpuLoweringError for a rank above 4 or a batch other than 1.
NpuFeatureMap featureMapOf(const ir::Graph& graph, int tensor, bool flat, std::uint64_t base);

// Whether the region compiler takes `op` (an operator it lowers, or a view).
bool npuRegionTakes(const ir::Graph& graph, const ir::Operator& op);

// Why `arch` cannot run `op` (the lowering tried on it), or nothing.
std::vector<std::string> npuRefusals(const ir::Graph& graph, const ir::Operator& op,
                                     const NpuArchitecture& arch);

}  // namespace loupe::ethosu
