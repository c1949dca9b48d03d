#include "ops/reduction.h"

#include <algorithm>

#include "lowering/lowering_support.h"
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

ReductionNest::ReductionNest(const ir::Shape& inputShape, const std::vector<int>& axes) {
  // Innermost first: a run of dimensions of one kind is one loop whose
  // stride is its innermost dimension's.
  struct Run {
    std::int64_t extent, stride;
    bool reduced;
  };
  std::vector<Run> runs;
  std::int64_t stride = 1;
  for (std::size_t d = inputShape.size(); d-- > 0;) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
    if (inputShape[d] != 1) {
      if (!runs.empty() && runs.back().reduced == reduced) {
        runs.back().extent *= inputShape[d];
      } else {
        runs.push_back({inputShape[d], stride, reduced});
      }
    }
    stride *= inputShape[d];
  }
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
    auto& loops = run->reduced ? reduced_ : kept_;
    // "k0", "r1", ...; appended, as GCC 12 misreads "r" + std::string (-Wrestrict).
    std::string name = run->reduced ? "r" : "k";
    name += std::to_string(loops.size());
    const tir::Var v = lowering::loopVar(name);
    inputIndex_ = inputIndex_ + tir::refVar(v) * tir::intImm(run->stride);
    if (!run->reduced) outputIndex_ = outputIndex_ * tir::intImm(run->extent) + tir::refVar(v);
    loops.push_back({v, run->extent});
  }
}

tir::Stmt ReductionNest::build(const tir::Buffer& local, tir::Stmt start, tir::Stmt step,
                               tir::Stmt finish, std::int64_t reducedCount,
                               std::int64_t unrollUpTo) const {
  const tir::ForKind kind =
      reducedCount <= unrollUpTo ? tir::ForKind::Unrolled : tir::ForKind::Serial;
  for (auto loop = reduced_.rbegin(); loop != reduced_.rend(); ++loop) {
    step = tir::forLoop(loop->var, 0, tir::intImm(loop->extent), step, kind);
  }
  tir::Stmt element = tir::allocate(local, tir::seq({std::move(start), step, std::move(finish)}));
  for (auto loop = kept_.rbegin(); loop != kept_.rend(); ++loop) {
    element = tir::forLoop(loop->var, 0, tir::intImm(loop->extent), element);
  }
  return element;
}

tir::Stmt fillOutput(const tir::Buffer& output, std::int64_t count, const tir::Expr& value) {
  const tir::Var o = lowering::loopVar("o");
  return tir::forLoop(o, 0, tir::intImm(count), tir::store(output, tir::refVar(o), value));
}

}  // namespace loupe::ops
