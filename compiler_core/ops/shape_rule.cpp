#include "ops/shape_rule.h"

#include "ir/graph_printer.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

InferredOutput shapeProblem(std::string expected) {
  InferredOutput out;
  out.problem = std::move(expected);
  return out;
}

InferredOutput shaped(ir::Shape shape, std::vector<ir::DType> dtypes) {
  InferredOutput out;
  out.shape = std::move(shape);
  out.dtypes = std::move(dtypes);
  return out;
}

std::string tensorText(const ir::Tensor& tensor) {
  return "tensor " + std::to_string(tensor.index) + " '" + tensor.name + "' " +
         ir::tensorTypeToString(tensor);
}

std::optional<std::vector<std::int64_t>> constantOperand(const ir::Graph& graph,
                                                         const ir::Operator& op, std::size_t slot) {
  const ir::Tensor* tensor = graph.input(op, slot);
  if (tensor == nullptr) return std::nullopt;
  return reference::constantIntegers(*tensor);
}

InferredOutput sameShapeAsInput(const ir::Graph& graph, const ir::Operator& op,
                                std::vector<ir::DType> dtypes) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  return shaped(input->shape, std::move(dtypes));
}

std::optional<InferredOutput> sameAsInput(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  return shaped(input->shape, {input->dtype});
}

InferredOutput broadcastOfInputs(const ir::Graph& graph, const ir::Operator& op,
                                 std::optional<ir::DType> dtype) {
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr) return shapeProblem("two inputs");
  const auto shape = reference::broadcastShape(a->shape, b->shape);
  if (!shape) return shapeProblem(tensorText(*a) + " and " + tensorText(*b) + " to broadcast");
  return shaped(*shape, {dtype.value_or(a->dtype)});
}

InferredOutput windowedOutput(const ir::Tensor& input, std::int64_t outHeight,
                              std::int64_t outWidth, std::int32_t channels) {
  if (outHeight <= 0 || outWidth <= 0)
    return shapeProblem("a window that fits in " + tensorText(input));
  return shaped({input.shape[0], static_cast<std::int32_t>(outHeight),
                 static_cast<std::int32_t>(outWidth), channels},
                {input.dtype});
}

std::int64_t dimensionOf(const ir::Tensor* tensor, std::size_t axis) {
  if (tensor == nullptr || axis >= tensor->shape.size()) return 0;
  return tensor->shape[axis];
}

std::int64_t oneMacPerOutputElement(const ir::Graph& graph, const ir::Operator& op) {
  return op.outputs.empty() ? 0 : graph.output(op, 0).elementCount();
}

std::optional<int> normalizedAxis(std::int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

ConstantAxis constantAxis(const ir::Graph& graph, const ir::Operator& op, std::size_t slot,
                          const ir::Tensor& input) {
  const auto values = constantOperand(graph, op, slot);
  if (!values || values->size() != 1) return {0, "a constant axis operand holding one integer"};
  const auto axis = normalizedAxis(values->front(), static_cast<int>(input.shape.size()));
  if (!axis) return {0, "axis " + std::to_string(values->front()) + " within " + tensorText(input)};
  return {static_cast<std::size_t>(*axis), ""};
}

}  // namespace loupe::ops
