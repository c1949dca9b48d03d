// Pass infer_shapes_and_types: recomputes every operator's output shapes and
// element types from its inputs and attributes, wherever its definition has
// a rule
// (convolutions and pooling with SAME/VALID or explicit padding, FULLY_CONNECTED,
// broadcasting element-wise operators, the shape operators, PAD, CONCATENATION,
// MEAN, TRANSPOSE, the activations, ...), and throws PassError listing every
// output that does not match: operator, tensor, expected and found. The graph
// itself is returned unchanged; later passes can rely on consistent shapes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "ops/shape_rule.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kInferShapesAndTypes = "infer_shapes_and_types";

// The rules are the operators' own (ops::OperatorDefinition::shape).
using ops::InferredOutput;

// The rule's result for output 0, or nullopt when there is no rule for the
// operator (opaque operators, SVDF, LSTM, STRIDED_SLICE, non-constant shape
// operands).
std::optional<InferredOutput> inferOutput(const ir::Graph& graph, const ir::Operator& op);

ir::Graph inferShapesAndTypes(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
