#include "passes/infer_shapes_and_types.h"

#include <algorithm>

#include "ir/graph_printer.h"
#include "ops/operator_registry.h"

namespace loupe::passes {

std::optional<InferredOutput> inferOutput(const ir::Graph& graph, const ir::Operator& op) {
  if (op.outputs.empty()) return std::nullopt;
  const ops::ShapeRule rule = ops::definitionOf(op.type).shape;
  if (rule == nullptr) return std::nullopt;
  return rule(graph, op);
}

namespace {

// "int8 or int16[1,4]", or "any type[1,4]".
std::string expectedText(const InferredOutput& inferred, const ir::Shape& shape) {
  std::string expected;
  for (std::size_t i = 0; i < inferred.dtypes.size(); ++i) {
    expected += (i ? " or " : "") + std::string(ir::dtypeName(inferred.dtypes[i]));
  }
  if (expected.empty()) expected = "any type";
  return expected + ir::shapeToString(shape);
}

}  // namespace

ir::Graph inferShapesAndTypes(ir::Graph graph, PassContext& context) {
  std::vector<PassDiagnostic> diagnostics;
  int checked = 0;
  for (const auto& op : graph.operators) {
    const auto inferred = inferOutput(graph, op);
    if (!inferred) continue;
    ++checked;
    if (!inferred->problem.empty()) {
      diagnostics.push_back(diagnosticAt(graph, op, op.outputs[0], inferred->problem, ""));
      continue;
    }
    for (std::size_t slot = 0; slot < op.outputs.size(); ++slot) {
      const ir::Tensor& output = graph.tensor(op.outputs[slot]);
      const ir::Shape* shape = slot == 0 ? &inferred->shape
                               : slot <= inferred->moreShapes.size()
                                   ? &inferred->moreShapes[slot - 1]
                                   : nullptr;
      if (shape == nullptr) break;  // the rule covers the first outputs only
      const bool dtypeMatches =
          inferred->dtypes.empty() || std::find(inferred->dtypes.begin(), inferred->dtypes.end(),
                                                output.dtype) != inferred->dtypes.end();
      if (*shape != output.shape || !dtypeMatches) {
        diagnostics.push_back(diagnosticAt(
            graph, op, output.index, expectedText(*inferred, *shape),
            std::string(ir::dtypeName(output.dtype)) + ir::shapeToString(output.shape)));
      }
    }
  }
  if (!diagnostics.empty()) throw PassError(std::string(kInferShapesAndTypes), diagnostics);
  context.remark(std::to_string(checked) + " of " + std::to_string(graph.operators.size()) +
                 " operators checked against their shape and type rules");
  return graph;
}

}  // namespace loupe::passes
