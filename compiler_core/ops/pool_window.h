// What the window pools share (AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D):
// their Pool2DOptions, the output shape of the window over a 4-D input, and
// the cost of one operation per window element and output element.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "ops/shape_rule.h"

namespace tflite {
struct Operator;
}

namespace loupe::ops {

// Pool2DOptions as ir::Pool2DAttrs, each value checked.
ir::Attributes readPool2DOptions(const tflite::Operator& op, const std::string& where);

// Output 0: the window's output height and width, the input's channels.
std::optional<InferredOutput> pool2DShape(const ir::Graph& graph, const ir::Operator& op);

std::int64_t pool2DMacs(const ir::Graph& graph, const ir::Operator& op);

}  // namespace loupe::ops
