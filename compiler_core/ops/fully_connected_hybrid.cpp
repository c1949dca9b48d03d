// Hybrid FULLY_CONNECTED: float32 activations, int8 weights (a model
// converted with dynamic-range quantisation). TFLite Micro refuses it; TFLite
// runs it, and so does Loupe, step for step as TFLite's hybrid kernel: the
// output starts at the bias; an input of zeros stops there; otherwise each
// batch row of the input is quantised to int8 with a scale of its own
// (symmetric, or asymmetric with asymmetric_quantize_inputs; see
// loupe/hybrid_quantize.h), multiplied by the weights in int32, and the sum
// scaled back by the row's scale times the weights' added to the output;
// the fused activation comes last. Weights with zero point 0, per-tensor or
// per-channel: a row's scale is then the input row's times its unit's, as
// TFLite's optimized (SSE, NEON) kernels and its portable one with asymmetric
// inputs compute it (the portable kernel drops per-channel scales for
// symmetric inputs, a TFLite bug Loupe does not copy).
#include "ops/fully_connected_hybrid.h"

#include <algorithm>

#include "lowering/lowering_support.h"
#include "ops/hybrid_quantization.h"
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

// Each unit's weights scale: its channel's, or the one per-tensor scale.
float unitScale(const ir::Tensor& weights, std::int64_t unit) {
  const std::vector<float>& scales = weights.quantization.scales;
  return scales.size() > 1 ? scales[static_cast<std::size_t>(unit)] : scales[0];
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
  if (auto problem = hybrid::checkWeights(weights)) return problem;
  if (weights.shape.size() != 2 || weights.shape[1] <= 0) {
    return "needs 2-D weights, found " + tensorText(weights);
  }
  const std::size_t scales = weights.quantization.scales.size();
  if (scales > 1 && (scales != static_cast<std::size_t>(weights.shape[0]) ||
                     weights.quantization.quantizedDimension != 0)) {
    return "per-channel hybrid weights need one scale per unit along dimension 0, found " +
           tensorText(weights) + " with " + std::to_string(scales) + " scales along dimension " +
           std::to_string(weights.quantization.quantizedDimension);
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
  return hybrid::checkActivation(attrs.activation, "FULLY_CONNECTED");
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
  for (std::int64_t batch = 0; batch < s.batches; ++batch) {
    for (std::int64_t u = 0; u < s.units; ++u) out[batch * s.units + u] = b ? b[u] : 0.0f;
  }
  const std::int64_t total = s.batches * s.depth;
  const bool allZero = std::all_of(in, in + total, [](float x) { return x == 0.0f; });
  if (!allZero) {
    const std::vector<std::int32_t> sums = hybrid::rowSums(w, s.units, s.depth);
    std::vector<std::int8_t> q(static_cast<std::size_t>(s.depth));
    for (std::int64_t batch = 0; batch < s.batches; ++batch) {
      const hybrid::RowQuantization row = hybrid::quantizeRow(
          in + batch * s.depth, s.depth, attrs.asymmetricQuantizeInputs, q.data());
      for (std::int64_t u = 0; u < s.units; ++u) {
        std::int32_t dot = 0;
        for (std::int64_t d = 0; d < s.depth; ++d) dot += w[u * s.depth + d] * q[d];
        dot -= sums[u] * row.offset;
        out[batch * s.units + u] += static_cast<float>(dot) * (row.scale * unitScale(weights, u));
      }
    }
  }
  for (std::int64_t i = 0; i < s.batches * s.units; ++i)
    out[i] = hybrid::activate(out[i], attrs.activation);
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
  const bool asymmetric = attrs.asymmetricQuantizeInputs;

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(weights, "weights");
  const Buffer b = bias != nullptr ? fb.constant(*bias, "bias") : nullptr;
  const Buffer sums =
      asymmetric ? fb.constant("row_sums", ScalarType::Int32,
                               hybrid::rowSums(lowering::tensorValues<std::int8_t>(weights).data(),
                                               s.units, s.depth))
                 : nullptr;
  const Buffer unitScales =
      weights.quantization.scales.size() > 1
          ? fb.constant("unit_scales", ScalarType::Float32, weights.quantization.scales)
          : nullptr;
  const Buffer nonZero = fb.local("non_zero", ScalarType::Int32, 1);
  const Buffer q = fb.local("quantized", ScalarType::Int8, depth);
  const Buffer lo = fb.local("row_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("row_max", ScalarType::Float32, 1);
  const Buffer dot = fb.local("dot", ScalarType::Int32, 1);
  const Var batch = lowering::loopVar("b"), u = lowering::loopVar("u"), d = lowering::loopVar("d"),
            i = lowering::loopVar("i");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);
  const Expr outAt = refVar(batch) * units + refVar(u);

  // The output starts at the bias (or 0).
  Stmt start =
      forLoop(batch, 0, batches,
              forLoop(u, 0, units, store(out, outAt, b ? load(b, refVar(u)) : floatImm(0.0))));
  // Whether any input value is not 0 (TFLite's IsZeroVector).
  Stmt anyNonZero = hybrid::findNonZero(in, 0, std::int64_t{batches} * depth, nonZero, 0);
  // Each batch row quantised, its dot products scaled back into the output.
  Expr product = cast(ScalarType::Int32, load(w, refVar(u) * depth + refVar(d))) *
                 cast(ScalarType::Int32, load(q, refVar(d)));
  Expr total = load(dot, 0);
  if (sums) total = total - load(sums, refVar(u)) * refVar(offset);
  const Expr weightsScale =
      unitScales ? load(unitScales, refVar(u)) : floatImm(weights.quantization.scales[0]);
  Stmt accumulate =
      forLoop(u, 0, units,
              seq({store(dot, 0, 0), forLoop(d, 0, depth, store(dot, 0, load(dot, 0) + product)),
                   store(out, outAt,
                         load(out, outAt) +
                             cast(ScalarType::Float32, total) * (refVar(scale) * weightsScale))}));
  Stmt rows = forLoop(batch, 0, batches,
                      hybrid::quantizeRow(in, refVar(batch) * depth, depth, q, asymmetric, lo, hi,
                                          scale, offset, accumulate));
  Stmt activation;
  if (attrs.activation != ir::Activation::None) {
    activation =
        forLoop(i, 0, batches * units,
                store(out, refVar(i), hybrid::activate(load(out, refVar(i)), attrs.activation)));
  }
  std::vector<Stmt> steps = {start, anyNonZero, ifThenElse(ne(load(nonZero, 0), 0), rows)};
  if (activation) steps.push_back(activation);
  Stmt body = seq(std::move(steps));
  for (const Buffer& local : {nonZero, q, lo, hi, dot}) body = allocate(local, body);
  return fb.finish(body);
}

}  // namespace loupe::ops
