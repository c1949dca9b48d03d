#include "ops/reduction.h"

#include <algorithm>

#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

ir::Attributes readReducerOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ReducerOptions>(op)) {
    a.set("keep_dims", o->keep_dims() ? 1 : 0);
  }
  return a;
}

ReductionPlan planReduction(const ir::Graph& graph, const ir::Operator& op) {
  ReductionPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  const auto axisValues = constantOperand(graph, op, 1);
  if (input == nullptr) return plan.problem = "an input", plan;
  if (!axisValues) return plan.problem = "a constant axis operand", plan;
  const int rank = static_cast<int>(input->shape.size());
  // TFLM resolves no axis of a scalar, whatever the operand holds.
  for (std::int64_t value : rank > 0 ? *axisValues : std::vector<std::int64_t>{}) {
    const auto axis = normalizedAxis(value, rank);
    if (!axis) {
      return plan.problem = "axis " + std::to_string(value) + " within " + tensorText(*input), plan;
    }
    if (std::find(plan.axes.begin(), plan.axes.end(), *axis) == plan.axes.end()) {
      plan.axes.push_back(*axis);
    }
  }
  const bool keepDims = optionOf(op, "keep_dims") != 0;
  for (int d = 0; d < rank; ++d) {
    const std::int32_t extent = input->shape[static_cast<std::size_t>(d)];
    if (std::find(plan.axes.begin(), plan.axes.end(), d) == plan.axes.end()) {
      plan.outputShape.push_back(extent);
    } else {
      plan.reducedCount *= extent;
      if (keepDims) plan.outputShape.push_back(1);
    }
  }
  return plan;
}

std::optional<InferredOutput> reductionShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  // The reduced axes are known only at run time.
  if (!constantOperand(graph, op, 1)) return std::nullopt;
  const ReductionPlan plan = planReduction(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {input->dtype});
}

std::vector<ReductionLoop> reductionLoops(const ir::Shape& shape, const std::vector<int>& axes) {
  std::vector<ReductionLoop> loops;
  std::int64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
    if (shape[d] != 1) {
      if (!loops.empty() && loops.back().reduced == reduced) {
        loops.back().extent *= shape[d];
      } else {
        loops.push_back({shape[d], stride, reduced});
      }
    }
    stride *= shape[d];
  }
  return {loops.rbegin(), loops.rend()};
}

}  // namespace loupe::ops
