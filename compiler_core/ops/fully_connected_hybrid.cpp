// Hybrid FULLY_CONNECTED: float32 activations, int8 weights (a model
// converted with dynamic-range quantisation). TFLite Micro refuses it; TFLite
// runs it, and so does Loupe, step for step as TFLite's hybrid kernel: the
// output starts at the bias; an input of zeros stops there; otherwise each
// batch row of the input is quantised to int8 with a scale of its own
// (symmetric, or asymmetric with asymmetric_quantize_inputs; see
// loupe/hybrid_quantize.h), multiplied by the weights in int32, and the sum
// scaled back by the row's scale times the weights' added to the output;
// the fused activation comes last. Per-tensor weights with zero point 0.
#include "ops/fully_connected_hybrid.h"

#include <algorithm>

#include "loupe/hybrid_quantize.h"
#include "lowering/lowering_support.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

namespace {

struct HybridShape {
  std::int64_t batches = 0, units = 0, depth = 0;
};

HybridShape hybridShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor& weights = *graph.input(op, 1);
  HybridShape s;
  s.units = weights.shape[0];
  s.depth = weights.shape[1];
  s.batches = s.depth > 0 ? graph.input(op, 0)->elementCount() / s.depth : 0;
  return s;
}

const ir::Tensor* biasOf(const ir::Graph& graph, const ir::Operator& op) {
  return op.inputs.size() > 2 ? graph.input(op, 2) : nullptr;
}

// TFLite's ApplyActivationToVector for the activations it offers hybrid
// kernels that Loupe runs: max(0, x), max(0, min(x, 6)), max(-1, min(x, 1)).
float activate(float x, ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return std::max(0.0f, x);
    case ir::Activation::Relu6:
      return std::max(0.0f, std::min(x, 6.0f));
    case ir::Activation::ReluN1To1:
      return std::max(-1.0f, std::min(x, 1.0f));
    default:
      return x;
  }
}

// The same in TIR: std::max(a, b) is (a < b) ? b : a, std::min(a, b) is
// (b < a) ? b : a.
tir::Expr activate(const tir::Expr& x, ir::Activation activation) {
  auto maxOf = [](tir::Expr a, tir::Expr b) { return tir::select(a < b, b, a); };
  auto minOf = [](tir::Expr a, tir::Expr b) { return tir::select(b < a, b, a); };
  switch (activation) {
    case ir::Activation::Relu:
      return maxOf(tir::floatImm(0.0), x);
    case ir::Activation::Relu6:
      return maxOf(tir::floatImm(0.0), minOf(x, tir::floatImm(6.0)));
    case ir::Activation::ReluN1To1:
      return maxOf(tir::floatImm(-1.0), minOf(x, tir::floatImm(1.0)));
    default:
      return x;
  }
}

// Sum of each row of the weights, which the asymmetric zero point multiplies.
std::vector<std::int32_t> rowSums(const ir::Tensor& weights, const HybridShape& s) {
  std::vector<std::int32_t> sums(static_cast<std::size_t>(s.units), 0);
  const auto* w = reinterpret_cast<const std::int8_t*>(weights.data.data());
  for (std::int64_t u = 0; u < s.units; ++u) {
    for (std::int64_t d = 0; d < s.depth; ++d) sums[u] += w[u * s.depth + d];
  }
  return sums;
}

}  // namespace

bool isHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* weights = op.inputs.size() > 1 ? graph.input(op, 1) : nullptr;
  return input != nullptr && weights != nullptr && input->dtype == ir::DType::Float32 &&
         (weights->dtype == ir::DType::Int8 || weights->dtype == ir::DType::UInt8);
}

std::optional<std::string> checkHybridFullyConnected(const ir::Graph& graph,
                                                     const ir::Operator& op) {
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  if (weights.dtype != ir::DType::Int8) {
    return "hybrid weights must be int8, found " + tensorText(weights);
  }
  if (weights.shape.size() != 2 || weights.shape[1] <= 0) {
    return "needs 2-D weights, found " + tensorText(weights);
  }
  if (weights.quantization.scales.size() != 1) {
    return "hybrid weights need one per-tensor scale (per-channel hybrid weights are not "
           "supported), found " +
           tensorText(weights);
  }
  if (weights.quantization.zeroPoint() != 0) {
    return "hybrid weights must have zero point 0, found " + tensorText(weights);
  }
  if (output.dtype != ir::DType::Float32) {
    return "a hybrid FULLY_CONNECTED outputs float32, found " + tensorText(output);
  }
  if (const ir::Tensor* bias = biasOf(graph, op); bias != nullptr) {
    if (bias->dtype != ir::DType::Float32 || bias->elementCount() != weights.shape[0]) {
      return "a hybrid bias is float32 with one value per unit, found " + tensorText(*bias);
    }
  }
  if (graph.input(op, 0)->elementCount() % weights.shape[1] != 0 ||
      output.elementCount() !=
          graph.input(op, 0)->elementCount() / weights.shape[1] * weights.shape[0]) {
    return "the input " + tensorText(*graph.input(op, 0)) + " and output " + tensorText(output) +
           " do not match the weights " + tensorText(weights);
  }
  switch (attrs.activation) {
    case ir::Activation::None:
    case ir::Activation::Relu:
    case ir::Activation::Relu6:
    case ir::Activation::ReluN1To1:
      break;
    default:
      return "the fused activation " + std::string(ir::activationName(attrs.activation)) +
             " is not supported on a hybrid FULLY_CONNECTED";
  }
  return std::nullopt;
}

void evalHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                              reference::TensorStore& store) {
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor* bias = biasOf(graph, op);
  const HybridShape s = hybridShape(graph, op);
  const float* in = store.data<float>(op.inputs[0]);
  const auto* w = store.data<std::int8_t>(op.inputs[1]);
  const float* b = bias != nullptr ? store.data<float>(bias->index) : nullptr;
  float* out = store.mutableData<float>(op.outputs[0]);
  const float weightsScale = weights.quantization.scales[0];
  for (std::int64_t batch = 0; batch < s.batches; ++batch) {
    for (std::int64_t u = 0; u < s.units; ++u) out[batch * s.units + u] = b ? b[u] : 0.0f;
  }
  const std::int64_t total = s.batches * s.depth;
  const bool allZero = std::all_of(in, in + total, [](float x) { return x == 0.0f; });
  if (!allZero) {
    const std::vector<std::int32_t> sums = rowSums(weights, s);
    std::vector<std::int8_t> q(static_cast<std::size_t>(s.depth));
    for (std::int64_t batch = 0; batch < s.batches; ++batch) {
      const float* row = in + batch * s.depth;
      const auto [lo, hi] = std::minmax_element(row, row + s.depth);
      float scale = 0.0f;
      std::int32_t offset = 0;
      if (attrs.asymmetricQuantizeInputs) {
        scale = loupe_hybrid_asymmetric_scale(*lo, *hi);
        offset = loupe_hybrid_asymmetric_offset(*lo, *hi);
        const float inverse = 1.0f / scale;
        for (std::int64_t d = 0; d < s.depth; ++d) {
          q[d] =
              static_cast<std::int8_t>(loupe_hybrid_quantize_asymmetric(row[d], offset, inverse));
        }
      } else {
        scale = loupe_hybrid_symmetric_scale(*lo, *hi);
        const float inverse = loupe_hybrid_symmetric_inverse(*lo, *hi);
        for (std::int64_t d = 0; d < s.depth; ++d) {
          q[d] = static_cast<std::int8_t>(loupe_hybrid_quantize_symmetric(row[d], inverse));
        }
      }
      scale *= weightsScale;
      for (std::int64_t u = 0; u < s.units; ++u) {
        std::int32_t dot = 0;
        for (std::int64_t d = 0; d < s.depth; ++d) dot += w[u * s.depth + d] * q[d];
        dot -= sums[u] * offset;
        out[batch * s.units + u] += static_cast<float>(dot) * scale;
      }
    }
  }
  for (std::int64_t i = 0; i < s.batches * s.units; ++i)
    out[i] = activate(out[i], attrs.activation);
}

tir::PrimFunc lowerHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                                        const std::string& functionName) {
  using namespace tir;
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor* bias = biasOf(graph, op);
  if (!weights.isConstant) lowering::fail(op, "weights must be constant to compile to C");
  if (bias != nullptr && !bias->isConstant) {
    lowering::fail(op, "bias must be constant to compile to C");
  }
  const HybridShape s = hybridShape(graph, op);
  const int units = static_cast<int>(s.units), depth = static_cast<int>(s.depth);
  const int batches = static_cast<int>(s.batches);

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(weights, "weights");
  const Buffer b = bias != nullptr ? fb.constant(*bias, "bias") : nullptr;
  const Buffer sums = attrs.asymmetricQuantizeInputs
                          ? fb.constant("row_sums", ScalarType::Int32, rowSums(weights, s))
                          : nullptr;
  const Buffer nonZero = fb.local("non_zero", ScalarType::Int32, 1);
  const Buffer q = fb.local("quantized", ScalarType::Int8, depth);
  const Buffer lo = fb.local("row_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("row_max", ScalarType::Float32, 1);
  const Buffer dot = fb.local("dot", ScalarType::Int32, 1);
  const Var batch = lowering::loopVar("b"), u = lowering::loopVar("u"), d = lowering::loopVar("d"),
            i = lowering::loopVar("i");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var inverse = makeVar("inverse", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);
  const Expr x = load(in, refVar(batch) * depth + refVar(d));
  const Expr outAt = refVar(batch) * units + refVar(u);
  auto call = [](const char* name, ScalarType type, std::vector<Expr> args) {
    return callIntrinsic(name, type, std::move(args));
  };

  // The output starts at the bias (or 0).
  Stmt start =
      forLoop(batch, 0, batches,
              forLoop(u, 0, units, store(out, outAt, b ? load(b, refVar(u)) : floatImm(0.0))));
  // Whether any input value is not 0 (TFLite's IsZeroVector).
  Stmt findNonZero =
      seq({store(nonZero, 0, 0),
           forLoop(i, 0, batches * depth,
                   ifThenElse(ne(load(in, refVar(i)), floatImm(0.0)), store(nonZero, 0, 1)))});
  // Each batch row: its least and greatest values, its quantisation, the
  // dot products scaled back into the output.
  Stmt minMax = seq({store(lo, 0, load(in, refVar(batch) * depth)),
                     store(hi, 0, load(in, refVar(batch) * depth)),
                     forLoop(d, 1, depth - 1,
                             seq({ifThenElse(x < load(lo, 0), store(lo, 0, x)),
                                  ifThenElse(logicalNot(x < load(hi, 0)), store(hi, 0, x))}))});
  const Expr quantized =
      attrs.asymmetricQuantizeInputs
          ? call("loupe.hybrid_quantize_asymmetric", ScalarType::Int32,
                 {x, refVar(offset), refVar(inverse)})
          : call("loupe.hybrid_quantize_symmetric", ScalarType::Int32, {x, refVar(inverse)});
  Stmt quantize = forLoop(d, 0, depth, store(q, refVar(d), cast(ScalarType::Int8, quantized)));
  Expr product = cast(ScalarType::Int32, load(w, refVar(u) * depth + refVar(d))) *
                 cast(ScalarType::Int32, load(q, refVar(d)));
  Expr total = load(dot, 0);
  if (sums) total = total - load(sums, refVar(u)) * refVar(offset);
  Stmt accumulate =
      forLoop(u, 0, units,
              seq({store(dot, 0, 0), forLoop(d, 0, depth, store(dot, 0, load(dot, 0) + product)),
                   store(out, outAt,
                         load(out, outAt) +
                             cast(ScalarType::Float32, total) *
                                 (refVar(scale) * floatImm(weights.quantization.scales[0])))}));
  const Expr rowLo = load(lo, 0), rowHi = load(hi, 0);
  Stmt perRow;
  if (attrs.asymmetricQuantizeInputs) {
    perRow =
        let(scale, call("loupe.hybrid_asymmetric_scale", ScalarType::Float32, {rowLo, rowHi}),
            let(offset, call("loupe.hybrid_asymmetric_offset", ScalarType::Int32, {rowLo, rowHi}),
                let(inverse, floatImm(1.0) / refVar(scale), seq({quantize, accumulate}))));
  } else {
    perRow = let(
        scale, call("loupe.hybrid_symmetric_scale", ScalarType::Float32, {rowLo, rowHi}),
        let(inverse, call("loupe.hybrid_symmetric_inverse", ScalarType::Float32, {rowLo, rowHi}),
            seq({quantize, accumulate})));
  }
  Stmt rows = forLoop(batch, 0, batches, seq({minMax, perRow}));
  Stmt activation;
  if (attrs.activation != ir::Activation::None) {
    activation = forLoop(i, 0, batches * units,
                         store(out, refVar(i), activate(load(out, refVar(i)), attrs.activation)));
  }
  std::vector<Stmt> steps = {start, findNonZero, ifThenElse(ne(load(nonZero, 0), 0), rows)};
  if (activation) steps.push_back(activation);
  Stmt body = seq(std::move(steps));
  for (const Buffer& local : {nonZero, q, lo, hi, dot}) body = allocate(local, body);
  return fb.finish(body);
}

}  // namespace loupe::ops
