// Pass eliminate_dead_code: removes operators whose outputs nothing reads
// and that are no model output (repeatedly, so whole dead chains go), and
// drops the data of constants no operator reads any more (a fused PAD's
// paddings, a PADV2 value legalisation made unused). Operators that update a
// variable tensor (SVDF, LSTM state) or that Loupe cannot see into (opaque)
// are kept. Tensor indices never change (they are the TFLite indices): an
// unread tensor stays in the table, mentioned by no operator, input or
// output, so lowering, memory planning and the printer pass over it; an
// unread constant also loses its data and its constant flag.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kEliminateDeadCode = "eliminate_dead_code";

ir::Graph eliminateDeadCode(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
