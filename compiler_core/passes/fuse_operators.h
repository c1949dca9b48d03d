// Pass fuse_operators: merges operators whose combination the fused operator
// computes exactly, so lowering emits one kernel instead of two and the
// intermediate tensor needs no memory. Every rule keeps every output byte:
//   (a) RELU / RELU6 after CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED
//       becomes the producer's fused activation, when the producer's output
//       feeds only the activation, is no model output, and has the
//       activation's dtype, shape and quantisation;
//   (b) PAD / PADV2 before CONV_2D or DEPTHWISE_CONV_2D becomes part of the
//       convolution's explicit padding, when it pads only height and width
//       with the value a skipped tap stands for (the input zero point for
//       int8, zero for 16x8 and float32), keeps its quantisation, and feeds
//       only that convolution's input;
//   (c) RESHAPE, SQUEEZE and EXPAND_DIMS that keep dtype, quantisation and
//       element count are marked isView: no copy, aliased storage.
// A fused operator records the model operators it stands for in
// sourceOperators; the tensor the absorbed operator left behind stays in the
// table, unread (eliminate_dead_code drops what is left of it).
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kFuseOperators = "fuse_operators";

ir::Graph fuseOperators(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
