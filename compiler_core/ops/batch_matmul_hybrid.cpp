// Hybrid BATCH_MATMUL: a float32 lhs (activations) times an int8 rhs
// (weights), as TFLite's batch_matmul.cc EvalHybrid and the hybrid
// reference_ops::BatchMatMul compute it:
//  - each lhs row (its depth values) is quantised to int8, symmetrically, or
//    asymmetrically with asymmetric_quantize_inputs; with one rhs scale the
//    row's scale is multiplied by it, with one scale per output column
//    (per-channel) each column's is multiplied in below;
//  - each output: total = the int32 dot product of the quantised row and the
//    rhs column, then total = (int32)((float)total - (float)column sum *
//    (float)zero point) (TFLite subtracts in float: a total beyond 2^24 is
//    rounded), then output = 0 + scale * (float)total.
// Refused, where TFLite's kernel reads other values than the product of the
// operands: adj_x (TFLite merges rows before transposing them) and more than
// one batch dimension (TFLite's per-row scales and column sums are indexed
// by the sum of the batch indices there).
#include "ops/batch_matmul_hybrid.h"

#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/batch_matmul_plan.h"
#include "ops/hybrid_quantization.h"
#include "ops/operator_options.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

namespace {

bool asymmetricInputs(const ir::Operator& op) {
  return optionOf(op, "asymmetric_quantize_inputs") != 0;
}

// How many of the output's batch dimensions TFLite's kernel loops over with
// more than one step, after it folds an lhs [..., Q, R, S] into [..., Q * R,
// S] against an rhs [..., 1, X, Y]; and whether the rhs then has 5
// dimensions and more than one matrix in the first (whose column sums
// TFLite leaves uncomputed).
struct TfliteBatching {
  int steppedDimensions = 0;
  bool rhsFirstOfFive = false;
};

TfliteBatching tfliteBatching(ir::Shape lhs, ir::Shape rhs) {
  if (lhs.size() > 2 && rhs.size() > 2 && rhs[rhs.size() - 3] == 1) {
    lhs[lhs.size() - 3] *= lhs[lhs.size() - 2];
    lhs.erase(lhs.end() - 2);
    rhs.erase(rhs.end() - 3);
  }
  TfliteBatching b;
  const std::size_t rank = std::max(lhs.size(), rhs.size());
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    const std::int32_t l = d + lhs.size() >= rank ? lhs[d + lhs.size() - rank] : 1;
    const std::int32_t r = d + rhs.size() >= rank ? rhs[d + rhs.size() - rank] : 1;
    if (std::max(l, r) > 1) ++b.steppedDimensions;
  }
  b.rhsFirstOfFive = rhs.size() == 5 && rhs[0] > 1;
  return b;
}

// The rhs column sums, one row per rhs matrix: [matrices, cols].
std::vector<std::int32_t> columnSums(const ir::Tensor& rhs, const MatmulPlan& plan) {
  const std::vector<std::int8_t> values = lowering::tensorValues<std::int8_t>(rhs);
  const std::int8_t* w = values.data();
  const std::int64_t matrix = plan.depth * plan.cols;
  const std::int64_t matrices = matrix > 0 ? rhs.elementCount() / matrix : 0;
  std::vector<std::int32_t> sums(static_cast<std::size_t>(matrices * plan.cols), 0);
  for (std::int64_t m = 0; m < matrices; ++m) {
    for (std::int64_t c = 0; c < plan.cols; ++c) {
      for (std::int64_t k = 0; k < plan.depth; ++k) {
        sums[m * plan.cols + c] += w[m * matrix + c * plan.rhsColStep + k * plan.rhsDepthStep];
      }
    }
  }
  return sums;
}

}  // namespace

bool isHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* lhs = graph.input(op, 0);
  const ir::Tensor* rhs = op.inputs.size() > 1 ? graph.input(op, 1) : nullptr;
  return lhs != nullptr && rhs != nullptr && lhs->dtype == ir::DType::Float32 &&
         rhs->dtype == ir::DType::Int8;
}

std::optional<std::string> checkHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op) {
  const MatmulPlan plan = planBatchMatmul(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& lhs = *graph.input(op, 0);
  const ir::Tensor& rhs = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = hybrid::checkWeights(rhs)) return problem;
  if (output.dtype != ir::DType::Float32 || output.shape != plan.outputShape) {
    return "output " + tensorText(output) + "; expected float32" +
           ir::shapeToString(plan.outputShape);
  }
  if (optionOf(op, "adj_x") != 0) {
    return "adj_x is not supported on a hybrid BATCH_MATMUL (TFLite folds the lhs rows before "
           "transposing them)";
  }
  const TfliteBatching batching = tfliteBatching(lhs.shape, rhs.shape);
  if (batching.steppedDimensions > 1 || batching.rhsFirstOfFive) {
    return "a hybrid BATCH_MATMUL with more than one batch dimension is not supported (TFLite's "
           "kernel indexes its row scales and column sums by the sum of the batch indices), "
           "found " +
           tensorText(lhs) + " x " + tensorText(rhs);
  }
  const std::size_t scales = rhs.quantization.scales.size();
  const auto columnAxis =
      static_cast<std::int32_t>(rhs.shape.size()) - (optionOf(op, "adj_y") != 0 ? 2 : 1);
  if (scales > 1 && (static_cast<std::int64_t>(scales) != plan.cols ||
                     rhs.quantization.quantizedDimension != columnAxis)) {
    return "per-channel hybrid weights need one scale per output column along dimension " +
           std::to_string(columnAxis) + ", found " + tensorText(rhs);
  }
  return std::nullopt;
}

void evalHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                           reference::TensorStore& store) {
  const MatmulPlan plan = planBatchMatmul(graph, op);
  const ir::Tensor& rhsTensor = *graph.input(op, 1);
  const std::vector<float>& scales = rhsTensor.quantization.scales;
  const bool perChannel = scales.size() > 1;
  const bool asymmetric = asymmetricInputs(op);
  const float* lhs = store.data<float>(op.inputs[0]);
  const auto* rhs = store.data<std::int8_t>(op.inputs[1]);
  float* out = store.mutableData<float>(op.outputs[0]);
  std::vector<std::int8_t> q(static_cast<std::size_t>(plan.depth));
  forEachMatrix(plan, [&](std::int64_t lhsBase, std::int64_t rhsBase, std::int64_t outBase) {
    for (std::int64_t a = 0; a < plan.rows; ++a) {
      const hybrid::RowQuantization row = hybrid::quantizeRow(lhs + lhsBase + a * plan.lhsRowStep,
                                                              plan.depth, asymmetric, q.data());
      const float rowScale = perChannel ? row.scale : row.scale * scales[0];
      for (std::int64_t c = 0; c < plan.cols; ++c) {
        std::int32_t total = 0, sum = 0;
        for (std::int64_t k = 0; k < plan.depth; ++k) {
          const std::int8_t w = rhs[rhsBase + c * plan.rhsColStep + k * plan.rhsDepthStep];
          total += w * q[k];
          sum += w;
        }
        total = static_cast<std::int32_t>(static_cast<float>(total) -
                                          static_cast<float>(sum) * static_cast<float>(row.offset));
        const float scale = perChannel ? rowScale * scales[c] : rowScale;
        out[outBase + a * plan.cols + c] = 0.0f + scale * static_cast<float>(total);
      }
    }
  });
}

tir::PrimFunc lowerHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                                     const std::string& functionName) {
  using namespace tir;
  const MatmulPlan plan = planBatchMatmul(graph, op);
  const ir::Tensor& rhsTensor = *graph.input(op, 1);
  if (!rhsTensor.isConstant) lowering::fail(op, "the int8 rhs must be constant to compile to C");
  const std::vector<float>& scales = rhsTensor.quantization.scales;
  const bool perChannel = scales.size() > 1;
  const bool asymmetric = asymmetricInputs(op);

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer lhs = fb.input(op.inputs[0], "lhs");
  const OperandAccess rhs = operandAccess(fb, rhsTensor, op.inputs[1], "rhs", plan.cols, plan.depth,
                                          plan.rhsColStep, plan.rhsDepthStep);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer sums = fb.constant("column_sums", ScalarType::Int32, columnSums(rhsTensor, plan));
  const Buffer columnScales =
      perChannel ? fb.constant("column_scales", ScalarType::Float32, scales) : nullptr;
  const Buffer q = fb.local("quantized", ScalarType::Int8, plan.depth);
  const Buffer lo = fb.local("row_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("row_max", ScalarType::Float32, 1);
  const Buffer acc = fb.local("acc", ScalarType::Int32, 1);
  const BatchLoops loops(plan);
  const Expr sumsBase = loops.base(
      [&](const BatchAxis& axis) { return plan.depth > 0 ? axis.rhsStride / plan.depth : 0; });
  const Var a = lowering::loopVar("a"), c = lowering::loopVar("c"), k = lowering::loopVar("k");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);

  const Expr w = load(rhs.buffer, loops.rhsBase + refVar(c) * intImm(rhs.lineStep) +
                                      refVar(k) * intImm(rhs.depthStep));
  Stmt dot = forLoop(k, 0, intImm(plan.depth),
                     store(acc, 0,
                           load(acc, 0) + cast(ScalarType::Int32, w) *
                                              cast(ScalarType::Int32, load(q, refVar(k)))));
  const Expr zeroPoint =
      asymmetric ? cast(ScalarType::Float32, refVar(offset)) : Expr(floatImm(0.0));
  const Expr total =
      cast(ScalarType::Int32,
           cast(ScalarType::Float32, load(acc, 0)) -
               cast(ScalarType::Float32, load(sums, sumsBase + refVar(c))) * zeroPoint);
  const Expr columnScale = perChannel ? refVar(scale) * load(columnScales, refVar(c))
                                      : refVar(scale) * floatImm(scales[0]);
  const Expr outAt = loops.outBase + refVar(a) * intImm(plan.cols) + refVar(c);
  Stmt columns = forLoop(
      c, 0, intImm(plan.cols),
      seq({store(acc, 0, 0), dot,
           store(out, outAt, floatImm(0.0) + columnScale * cast(ScalarType::Float32, total))}));
  Stmt body = loops.around(
      forLoop(a, 0, intImm(plan.rows),
              hybrid::quantizeRow(lhs, loops.lhsBase + refVar(a) * intImm(plan.lhsRowStep),
                                  plan.depth, q, asymmetric, lo, hi, scale, offset, columns)));
  for (const Buffer& local : {q, lo, hi, acc}) body = allocate(local, body);
  return fb.finish(body);
}

}  // namespace loupe::ops
