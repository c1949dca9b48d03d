// Operators whose output is a contiguous run of another tensor's bytes, so
// that code generation emits no copy and the memory planner stores both in
// one buffer at a byte offset. Besides the reshape-like views (isNoCopyView,
// at offset 0), two kinds exist, used only where a pass marked the operator
// isView (patch-based execution does): a SLICE whose selection is one run of
// its input's bytes, and a CONCATENATION whose inputs are each one run of
// its output's bytes, written there in place by their producers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"

namespace loupe::ir {

// The byte offset in its input of a SLICE marked isView whose output is a
// contiguous run of the input (every dimension before the first one it cuts
// of size 1 in the output, every one after it whole), with the input's type
// and quantisation; none otherwise, or for a constant or variable input.
std::optional<std::int64_t> sliceViewOffset(const Graph& graph, const Operator& op);

// The byte offset in the output of each input of a CONCATENATION marked
// isView whose inputs are contiguous runs of it (every output dimension
// before the axis of size 1), all with the output's type and quantisation,
// no activation, each a distinct tensor an operator writes into storage of
// its own (not a view; not a constant, variable, model input or model
// output), and its output no other such concatenation's input; none
// otherwise.
std::optional<std::vector<std::int64_t>> concatViewOffsets(const Graph& graph, const Operator& op);

}  // namespace loupe::ir
