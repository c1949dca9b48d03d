// Pass legalize: rewrites operators into the canonical forms later stages
// expect, without changing any output byte.
//   - CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D get their
//     SAME/VALID padding spelled out as explicitPadding, computed with the
//     same window geometry (loupe_window_*) the reference kernels use, so
//     lowering and fusion see one padding form only.
//   - PADV2 whose constant value is what PAD pads with anyway (the output
//     zero point for int8, zero otherwise) becomes PAD without the value
//     operand. Any other PADV2 is left as it is: PAD cannot express it.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kLegalize = "legalize";

ir::Graph legalize(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
