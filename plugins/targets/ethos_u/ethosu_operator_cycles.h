// The estimated NPU cycles of an Ethos-U operator that Loupe compiled from a
// region (ethosu::withNpuRegion), split among the model operators it stands
// for, so the graph and the Compare tab can put a figure on each of them.
//
// The figures are the performance model's per-operation "NPU cycles"
// (OperationEstimate::npuCycles, on Arm Vela's default system as
// EthosUTarget::estimate counts them), so they add up to the stream's NPU
// cycles, the estimate's computeCycles (its estimatedCycles is the larger of
// that and the busiest memory's access cycles). An operation belongs to the
// region operator whose output it writes: the region's operators that are
// no views each give one network operator of the stream (its depth slices
// together), in execution order, and each is checked against it (the
// elements it writes); a DMA or lookup-table copy counts for the operator
// it precedes. A view (RESHAPE sharing its input's bytes) has no operation:
// 0 cycles.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace loupe::targets::ethos_u {

struct ModelOperatorCycles {
  int modelOperator = -1;       // of the imported model
  std::uint64_t npuCycles = 0;  // its share of the stream's NPU cycles
  int npuOperations = 0;        // the stream's operations charged to it; 0 for a view
};

// Per model operator of Ethos-U operator `op` of `graph`, in the order of
// op.sourceOperators. Throws ethosu::EstimateError when `op` is not a region
// Loupe compiled (a Vela operator has no region operators to split among),
// its payload does not decode, or its stream does not follow its region's
// operators. `system` is the memories the estimate assumes (the target's
// -system_config); none: Arm Vela's default for the payload's NPU.
std::vector<ModelOperatorCycles> npuCyclesPerModelOperator(
    const ir::Graph& graph, const ir::Operator& op, const ethosu::SystemConfig* system = nullptr);

}  // namespace loupe::targets::ethos_u
