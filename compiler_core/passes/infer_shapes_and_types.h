// Pass infer_shapes_and_types: recomputes every operator's output shape and
// element type from its inputs and attributes, wherever a rule exists
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
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kInferShapesAndTypes = "infer_shapes_and_types";

// What a rule derives for output 0 of an operator.
struct InferredOutput {
  ir::Shape shape;
  // The element types the output may have; empty when any is acceptable
  // (QUANTIZE's output type is the model's choice).
  std::vector<ir::DType> dtypes;
  // Set instead when the inputs contradict each other or the attributes
  // (shapes that do not broadcast, a filter deeper than the input, ...).
  std::string problem;
};

// The rule's result for output 0, or nullopt when there is no rule for the
// operator (opaque operators, SVDF, LSTM, STRIDED_SLICE, non-constant shape
// operands).
std::optional<InferredOutput> inferOutput(const ir::Graph& graph, const ir::Operator& op);

ir::Graph inferShapesAndTypes(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
