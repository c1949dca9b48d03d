#include "ops/batch_matmul_plan.h"

#include <algorithm>

#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

namespace {

// TFLite Micro's operands have rank 2 to 5.
constexpr std::size_t kMinRank = 2, kMaxRank = 5;

bool stepsEvenlyInto(const BatchAxis& outer, const BatchAxis& inner) {
  return outer.lhsStride == inner.lhsStride * inner.extent &&
         outer.rhsStride == inner.rhsStride * inner.extent &&
         outer.outStride == inner.outStride * inner.extent;
}

}  // namespace

MatmulPlan planBatchMatmul(const ir::Graph& graph, const ir::Operator& op) {
  MatmulPlan plan;
  const ir::Tensor* lhs = graph.input(op, 0);
  const ir::Tensor* rhs = graph.input(op, 1);
  if (lhs == nullptr || rhs == nullptr) return plan.problem = "lhs and rhs inputs", plan;
  for (const ir::Tensor* operand : {lhs, rhs}) {
    if (operand->shape.size() < kMinRank || operand->shape.size() > kMaxRank) {
      return plan.problem =
                 "operands of rank 2 to 5, as TFLite Micro, found " + tensorText(*operand),
             plan;
    }
  }
  const bool adjX = optionOf(op, "adj_x") != 0;
  const bool adjY = optionOf(op, "adj_y") != 0;
  const std::size_t rank = std::max(lhs->shape.size(), rhs->shape.size());
  // Both shapes padded with leading 1s to the output's rank.
  ir::Shape l(rank - lhs->shape.size(), 1), r(rank - rhs->shape.size(), 1);
  l.insert(l.end(), lhs->shape.begin(), lhs->shape.end());
  r.insert(r.end(), rhs->shape.begin(), rhs->shape.end());

  const std::int64_t lhsDepth = adjX ? l[rank - 2] : l[rank - 1];
  const std::int64_t rhsDepth = adjY ? r[rank - 1] : r[rank - 2];
  if (lhsDepth != rhsDepth) {
    return plan.problem = "the depth of " + tensorText(*lhs) + " (" + std::to_string(lhsDepth) +
                          ") to equal that of " + tensorText(*rhs) + " (" +
                          std::to_string(rhsDepth) + ")",
           plan;
  }
  plan.rows = adjX ? l[rank - 1] : l[rank - 2];
  plan.cols = adjY ? r[rank - 2] : r[rank - 1];
  plan.depth = lhsDepth;
  plan.lhsRowStep = adjX ? 1 : plan.depth;
  plan.lhsDepthStep = adjX ? plan.rows : 1;
  plan.rhsDepthStep = adjY ? 1 : plan.cols;
  plan.rhsColStep = adjY ? plan.depth : 1;

  std::vector<BatchAxis> axes(rank - 2);
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    if (l[d] != r[d] && l[d] != 1 && r[d] != 1) {
      return plan.problem = "batch dimensions of " + tensorText(*lhs) + " and " + tensorText(*rhs) +
                            " that broadcast",
             plan;
    }
    axes[d].extent = l[d] == 1 ? r[d] : l[d];
    plan.outputShape.push_back(static_cast<std::int32_t>(axes[d].extent));
  }
  plan.outputShape.push_back(static_cast<std::int32_t>(plan.rows));
  plan.outputShape.push_back(static_cast<std::int32_t>(plan.cols));

  std::int64_t lhsRun = plan.rows * plan.depth, rhsRun = plan.depth * plan.cols;
  std::int64_t outRun = plan.rows * plan.cols;
  for (std::size_t d = axes.size(); d-- > 0;) {
    axes[d].lhsStride = l[d] == 1 ? 0 : lhsRun;
    axes[d].rhsStride = r[d] == 1 ? 0 : rhsRun;
    axes[d].outStride = outRun;
    lhsRun *= l[d];
    rhsRun *= r[d];
    outRun *= axes[d].extent;
  }
  for (const BatchAxis& axis : axes) {
    if (axis.extent == 1) continue;
    if (!plan.batch.empty() && stepsEvenlyInto(plan.batch.back(), axis)) {
      const std::int64_t extent = plan.batch.back().extent * axis.extent;
      plan.batch.back() = axis;
      plan.batch.back().extent = extent;
    } else {
      plan.batch.push_back(axis);
    }
  }
  return plan;
}
namespace {

// A constant operand's matrices with each line's depth contiguous:
// [matrices, lines, depth].
template <typename T>
std::vector<T> depthContiguous(const ir::Tensor& tensor, std::int64_t lines, std::int64_t depth,
                               std::int64_t lineStep, std::int64_t depthStep) {
  const std::vector<T> values = lowering::tensorValues<T>(tensor);
  std::vector<T> result(values.size());
  const std::int64_t matrix = lines * depth;
  const std::int64_t matrices = matrix > 0 ? static_cast<std::int64_t>(values.size()) / matrix : 0;
  for (std::int64_t m = 0; m < matrices; ++m) {
    for (std::int64_t x = 0; x < lines; ++x) {
      for (std::int64_t k = 0; k < depth; ++k) {
        result[static_cast<std::size_t>(m * matrix + x * depth + k)] =
            values[static_cast<std::size_t>(m * matrix + x * lineStep + k * depthStep)];
      }
    }
  }
  return result;
}

}  // namespace

OperandAccess operandAccess(lowering::FunctionBuilder& fb, const ir::Tensor& tensor,
                            int tensorIndex, const std::string& role, std::int64_t lines,
                            std::int64_t depth, std::int64_t lineStep, std::int64_t depthStep) {
  if (!tensor.isConstant || depthStep == 1 || depth <= 1) {
    return {fb.input(tensorIndex, role), lineStep, depthStep};
  }
  const tir::ScalarType type = tir::fromDType(tensor.dtype);
  tir::Buffer buffer;
  switch (tensor.dtype) {
    case ir::DType::Float32:
      buffer = fb.constant(role, type,
                           depthContiguous<float>(tensor, lines, depth, lineStep, depthStep));
      break;
    case ir::DType::Int8:
      buffer = fb.constant(role, type,
                           depthContiguous<std::int8_t>(tensor, lines, depth, lineStep, depthStep));
      break;
    default:
      buffer = fb.constant(
          role, type, depthContiguous<std::int16_t>(tensor, lines, depth, lineStep, depthStep));
      break;
  }
  return {buffer, depth, 1};
}

BatchLoops::BatchLoops(const MatmulPlan& plan) : plan_(plan) {
  for (std::size_t d = 0; d < plan.batch.size(); ++d) {
    // Appended, as GCC 12 misreads "b" + std::string (-Wrestrict).
    std::string name = "b";
    name += std::to_string(d);
    vars_.push_back(lowering::loopVar(name));
  }
  lhsBase = base([](const BatchAxis& axis) { return axis.lhsStride; });
  rhsBase = base([](const BatchAxis& axis) { return axis.rhsStride; });
  outBase = base([](const BatchAxis& axis) { return axis.outStride; });
}

tir::Expr BatchLoops::base(const std::function<std::int64_t(const BatchAxis&)>& stride) const {
  tir::Expr sum = 0;
  for (std::size_t d = 0; d < vars_.size(); ++d) {
    sum = sum + tir::refVar(vars_[d]) * tir::intImm(stride(plan_.batch[d]));
  }
  return sum;
}

tir::Stmt BatchLoops::around(tir::Stmt body) const {
  for (std::size_t d = vars_.size(); d-- > 0;) {
    body = tir::forLoop(vars_[d], 0, tir::intImm(plan_.batch[d].extent), body);
  }
  return body;
}

}  // namespace loupe::ops
