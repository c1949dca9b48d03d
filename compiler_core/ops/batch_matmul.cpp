// BATCH_MATMUL: out[..., a, c] = sum_k lhs[..., a, k] * rhs[..., k, c] over
// batch dimensions that broadcast (NumPy rules, the shorter operand padded
// with leading 1s); adj_x reads lhs as [..., k, a], adj_y reads rhs as
// [..., c, k]. Both operands have rank 2 to 5 and the output has the larger
// rank. As TFLite Micro computes it (batch_matmul.cc and
// reference_ops::BatchMatMul):
//  - lhs, rhs and output have one type: float32, int8 or int16 (a float32
//    lhs with an int8 rhs is TFLite's hybrid kernel, which TFLite Micro does
//    not have: ops/batch_matmul_hybrid.cpp);
//  - float32: each output starts from 0.0f and adds lhs * rhs for k
//    ascending, no activation;
//  - int8: (lhs - lhs zero point) * (rhs - rhs zero point) summed in int32
//    (wrapping), requantised with one multiplier of lhs scale * rhs scale
//    (a float product) / output scale, plus the output zero point, clamped
//    to [-128, 127];
//  - int16: zero points must be 0; the products are summed in int64, which
//    TFLite's 64-bit MultiplyByQuantizedMultiplier requantises, clamped to
//    the int16 range.
// TFLM transposes operands and flattens batch dimensions into matrix rows
// before multiplying; neither changes which products are summed or their
// order. The lowering reads run-time operands in place and stores a
// constant operand whose depth is strided transposed (TFLM transposes a
// constant rhs once, on its first run). Loupe refuses int8 zero points
// outside [-128, 127], which TFLite's quantisation never produces and which
// would overflow TFLM's int32 products.
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "ir/graph_printer.h"
#include "loupe/fixed_point_math.h"
#include "loupe/quantized_arith.h"
#include "lowering/lowering_support.h"
#include "ops/batch_matmul_hybrid.h"
#include "ops/batch_matmul_plan.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

// Dot products of at most this many terms are unrolled.
constexpr std::int64_t kUnrolledDepth = 8;

ir::Attributes readBatchMatmulOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::BatchMatMulOptions>(op)) {
    a.set("adj_x", o->adj_x() ? 1 : 0)
        .set("adj_y", o->adj_y() ? 1 : 0)
        .set("asymmetric_quantize_inputs", o->asymmetric_quantize_inputs() ? 1 : 0);
  }
  return a;
}

std::optional<InferredOutput> batchMatmulShape(const ir::Graph& graph, const ir::Operator& op) {
  const MatmulPlan plan = planBatchMatmul(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkBatchMatmul(const ir::Graph& graph, const ir::Operator& op) {
  if (isHybridBatchMatmul(graph, op)) return checkHybridBatchMatmul(graph, op);
  const MatmulPlan plan = planBatchMatmul(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& lhs = *graph.input(op, 0);
  const ir::Tensor& rhs = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (lhs.dtype != ir::DType::Float32 && lhs.dtype != ir::DType::Int8 &&
      lhs.dtype != ir::DType::Int16) {
    return "lhs dtype " + reference::describeDtype(lhs.dtype) +
           " is not supported (expected float32, int8 or int16, as TFLite Micro)";
  }
  if (rhs.dtype != lhs.dtype) {
    return "rhs " + tensorText(rhs) + " must have the type of lhs " + tensorText(lhs) +
           " (or be int8 under a float32 lhs: hybrid)";
  }
  if (output.dtype != lhs.dtype || output.shape != plan.outputShape) {
    return "output " + tensorText(output) + "; expected " + std::string(ir::dtypeName(lhs.dtype)) +
           ir::shapeToString(plan.outputShape);
  }
  if (lhs.dtype == ir::DType::Float32) return std::nullopt;
  for (const auto& [role, tensor] : {std::pair<const char*, const ir::Tensor*>{"lhs", &lhs},
                                     {"rhs", &rhs},
                                     {"output", &output}}) {
    if (auto problem = reference::checkPerTensorQuantization(role, *tensor)) return problem;
    const std::int32_t zeroPoint = tensor->quantization.zeroPoint();
    if (lhs.dtype == ir::DType::Int16) {
      if (auto problem =
              reference::checkZeroPoint(role, *tensor, 0, "TFLite Micro's int16 kernel")) {
        return problem;
      }
    } else if (zeroPoint < std::numeric_limits<std::int8_t>::min() ||
               zeroPoint > std::numeric_limits<std::int8_t>::max()) {
      // The int32 products of stored values less zero points rely on it.
      return reference::describeTensor(role, *tensor) + " has zero point " +
             std::to_string(zeroPoint) + "; an int8 zero point lies in [-128, 127]";
    }
  }
  return std::nullopt;
}

// Calls finish(outputIndex, dot) for every output element, dot(term) calling
// term(lhsIndex, rhsIndex) for k ascending.
template <typename Finish>
void forEachOutput(const MatmulPlan& plan, Finish&& finish) {
  forEachMatrix(plan, [&](std::int64_t lhsBase, std::int64_t rhsBase, std::int64_t outBase) {
    for (std::int64_t a = 0; a < plan.rows; ++a) {
      for (std::int64_t c = 0; c < plan.cols; ++c) {
        const std::int64_t lhsRow = lhsBase + a * plan.lhsRowStep;
        const std::int64_t rhsCol = rhsBase + c * plan.rhsColStep;
        finish(outBase + a * plan.cols + c, [&](auto&& term) {
          for (std::int64_t k = 0; k < plan.depth; ++k) {
            term(lhsRow + k * plan.lhsDepthStep, rhsCol + k * plan.rhsDepthStep);
          }
        });
      }
    }
  });
}

reference::QuantizedMultiplier multiplierOf(const ir::Tensor& lhs, const ir::Tensor& rhs,
                                            const ir::Tensor& output) {
  return reference::perTensorFullyConnectedMultiplier(
      lhs.quantization.scale(), rhs.quantization.scale(), output.quantization.scale());
}

void evalBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                     reference::TensorStore& store) {
  if (isHybridBatchMatmul(graph, op)) return evalHybridBatchMatmul(graph, op, store);
  const MatmulPlan plan = planBatchMatmul(graph, op);
  const ir::Tensor& lhsTensor = *graph.input(op, 0);
  const ir::Tensor& rhsTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  switch (lhsTensor.dtype) {
    case ir::DType::Float32: {
      const float* lhs = store.data<float>(op.inputs[0]);
      const float* rhs = store.data<float>(op.inputs[1]);
      float* out = store.mutableData<float>(op.outputs[0]);
      forEachOutput(plan, [&](std::int64_t o, auto&& dot) {
        float total = 0.0f;
        dot([&](std::int64_t i, std::int64_t j) { total += lhs[i] * rhs[j]; });
        out[o] = total;
      });
      break;
    }
    case ir::DType::Int8: {
      const auto* lhs = store.data<std::int8_t>(op.inputs[0]);
      const auto* rhs = store.data<std::int8_t>(op.inputs[1]);
      auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
      const std::int32_t lhsOffset = -lhsTensor.quantization.zeroPoint();
      const std::int32_t rhsOffset = -rhsTensor.quantization.zeroPoint();
      const reference::QuantizedMultiplier m = multiplierOf(lhsTensor, rhsTensor, output);
      forEachOutput(plan, [&](std::int64_t o, auto&& dot) {
        // int64, truncated below: TFLM's int32 sum modulo 2^32.
        std::int64_t total = 0;
        dot([&](std::int64_t i, std::int64_t j) {
          total += (lhs[i] + lhsOffset) * (rhs[j] + rhsOffset);
        });
        out[o] = static_cast<std::int8_t>(loupe_requantize_acc_i32(
            static_cast<std::int32_t>(static_cast<std::uint32_t>(total)), m.multiplier, m.shift,
            output.quantization.zeroPoint(), std::numeric_limits<std::int8_t>::min(),
            std::numeric_limits<std::int8_t>::max()));
      });
      break;
    }
    default: {
      const auto* lhs = store.data<std::int16_t>(op.inputs[0]);
      const auto* rhs = store.data<std::int16_t>(op.inputs[1]);
      auto* out = store.mutableData<std::int16_t>(op.outputs[0]);
      const reference::QuantizedMultiplier m = multiplierOf(lhsTensor, rhsTensor, output);
      forEachOutput(plan, [&](std::int64_t o, auto&& dot) {
        std::int64_t total = 0;
        dot([&](std::int64_t i, std::int64_t j) {
          total += static_cast<std::int64_t>(lhs[i]) * rhs[j];
        });
        out[o] = static_cast<std::int16_t>(loupe_requantize_acc_i64(
            total, m.multiplier, m.shift, std::numeric_limits<std::int16_t>::min(),
            std::numeric_limits<std::int16_t>::max()));
      });
      break;
    }
  }
}

// for the batch loops, a, c: acc = 0; for k ascending: acc = acc + lhs * rhs
// (int8: with the zero points taken off, int16: in int64); out = acc, or the
// requantised acc.
tir::PrimFunc lowerBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                               const std::string& functionName) {
  if (isHybridBatchMatmul(graph, op)) return lowerHybridBatchMatmul(graph, op, functionName);
  const MatmulPlan plan = planBatchMatmul(graph, op);
  const ir::Tensor& lhsTensor = *graph.input(op, 0);
  const ir::Tensor& rhsTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const OperandAccess lhs = operandAccess(fb, lhsTensor, op.inputs[0], "lhs", plan.rows, plan.depth,
                                          plan.lhsRowStep, plan.lhsDepthStep);
  const OperandAccess rhs = operandAccess(fb, rhsTensor, op.inputs[1], "rhs", plan.cols, plan.depth,
                                          plan.rhsColStep, plan.rhsDepthStep);
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);

  const BatchLoops loops(plan);
  const tir::Expr &lhsBase = loops.lhsBase, &rhsBase = loops.rhsBase, &outBase = loops.outBase;
  const tir::Var a = lowering::loopVar("a"), c = lowering::loopVar("c");
  const tir::Var k = lowering::loopVar("k");
  const tir::Expr lhsValue =
      tir::load(lhs.buffer, lhsBase + tir::refVar(a) * tir::intImm(lhs.lineStep) +
                                tir::refVar(k) * tir::intImm(lhs.depthStep));
  const tir::Expr rhsValue =
      tir::load(rhs.buffer, rhsBase + tir::refVar(c) * tir::intImm(rhs.lineStep) +
                                tir::refVar(k) * tir::intImm(rhs.depthStep));
  const tir::Expr outAt = outBase + tir::refVar(a) * tir::intImm(plan.cols) + tir::refVar(c);

  tir::ScalarType accType = tir::ScalarType::Float32;
  tir::Expr zero = tir::floatImm(0.0);
  if (lhsTensor.dtype == ir::DType::Int8) {
    accType = tir::ScalarType::Int32;
    zero = tir::intImm(0);
  } else if (lhsTensor.dtype == ir::DType::Int16) {
    accType = tir::ScalarType::Int64;
    zero = tir::intImm(0, tir::ScalarType::Int64);
  }
  const tir::Buffer acc = fb.local("acc", accType, 1);
  const tir::Expr total = tir::load(acc, 0);
  tir::Expr update;
  tir::Expr result = total;
  if (lhsTensor.dtype == ir::DType::Float32) {
    update = total + lhsValue * rhsValue;
  } else if (lhsTensor.dtype == ir::DType::Int8) {
    const std::int32_t lhsZero = lhsTensor.quantization.zeroPoint();
    const std::int32_t rhsZero = rhsTensor.quantization.zeroPoint();
    tir::Expr l = tir::cast(tir::ScalarType::Int32, lhsValue);
    tir::Expr r = tir::cast(tir::ScalarType::Int32, rhsValue);
    if (lhsZero != 0) l = l - tir::intImm(lhsZero);
    if (rhsZero != 0) r = r - tir::intImm(rhsZero);
    // Each product is at most 255 * 255; a deep sum may leave int32 and
    // wraps as TFLM's does on its targets, without C's undefined overflow.
    auto largest = [](std::int64_t zeroPoint) {
      return std::max(std::abs(-128 - zeroPoint), std::abs(127 - zeroPoint));
    };
    const std::int64_t bound = plan.depth * largest(lhsZero) * largest(rhsZero);
    update =
        bound > std::numeric_limits<std::int32_t>::max()
            ? tir::callIntrinsic("loupe.wrapping_add_i32", tir::ScalarType::Int32, {total, l * r})
            : total + l * r;
    const reference::QuantizedMultiplier m = multiplierOf(lhsTensor, rhsTensor, output);
    result =
        tir::cast(tir::ScalarType::Int8,
                  tir::callIntrinsic("loupe.requantize_i32", tir::ScalarType::Int32,
                                     {total, m.multiplier, m.shift, output.quantization.zeroPoint(),
                                      std::numeric_limits<std::int8_t>::min(),
                                      std::numeric_limits<std::int8_t>::max()}));
  } else {
    update = total + tir::cast(tir::ScalarType::Int64, lhsValue) *
                         tir::cast(tir::ScalarType::Int64, rhsValue);
    const reference::QuantizedMultiplier m = multiplierOf(lhsTensor, rhsTensor, output);
    result = tir::cast(
        tir::ScalarType::Int16,
        tir::callIntrinsic("loupe.requantize_i64", tir::ScalarType::Int32,
                           {total, m.multiplier, m.shift, std::numeric_limits<std::int16_t>::min(),
                            std::numeric_limits<std::int16_t>::max()}));
  }

  const tir::ForKind kind =
      plan.depth <= kUnrolledDepth ? tir::ForKind::Unrolled : tir::ForKind::Serial;
  const tir::Stmt dot =
      tir::forLoop(k, 0, tir::intImm(plan.depth), tir::store(acc, 0, update), kind);
  tir::Stmt body = loops.around(
      tir::forLoop(a, 0, tir::intImm(plan.rows),
                   tir::forLoop(c, 0, tir::intImm(plan.cols),
                                tir::allocate(acc, tir::seq({tir::store(acc, 0, zero), dot,
                                                             tir::store(out, outAt, result)})))));
  return fb.finish(body);
}

const reference::Kernel kBatchMatmulKernel{ir::OpType::BatchMatmul, checkBatchMatmul,
                                           evalBatchMatmul};

// One multiply-accumulate per output element and depth step.
std::int64_t batchMatmulMacs(const ir::Graph& graph, const ir::Operator& op) {
  const MatmulPlan plan = planBatchMatmul(graph, op);
  if (!plan.problem.empty()) return 0;
  return ir::elementCount(plan.outputShape) * plan.depth;
}

}  // namespace

// Versions: 1 float32, 2 int8, 3 int16, 4 the hybrid float32 x int8 with
// asymmetric_quantize_inputs (ops/batch_matmul_hybrid.cpp).
extern const OperatorDefinition kBatchMatmulDefinition{
    .type = ir::OpType::BatchMatmul,
    .dtypes =
        "float32, int8, int16 (lhs, rhs and output of one type); hybrid: float32 lhs, int8 "
        "per-tensor or per-channel rhs (TFLite's kernel)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::BatchMatMulOptions>(),
               .maxVersion = 4,
               .readOptions = readBatchMatmulOptions},
    .shape = batchMatmulShape,
    .kernel = &kBatchMatmulKernel,
    .lower = lowerBatchMatmul,
    .macs = batchMatmulMacs,
};

}  // namespace loupe::ops
