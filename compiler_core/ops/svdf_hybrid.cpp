// Hybrid SVDF: float32 input, state, bias and output with int8
// weights_feature and weights_time, as TFLite's svdf.cc and
// reference_ops::EvalHybridSVDF compute it:
//  1. the state moves one place towards its start (as the float SVDF);
//  2. each batch row of the input is quantised (symmetric, or asymmetric with
//     asymmetric_quantize_inputs), its scale multiplied by weights_feature's;
//     each filter's newest state value is 0 + (float)(dot less the filter
//     row's sum times the zero point) * that scale;
//  3. weights_time is read as float (each int8 value times its scale, a
//     float product); each filter's sum over the memory of time weight x
//     state starts at 0; each unit sums its rank filters from 0, then adds
//     its bias (TFLite's ReductionSumVector, then VectorBatchVectorAdd: not
//     the float SVDF's bias-first order TFLite Micro uses), then the fused
//     activation (RELU, RELU_N1_TO_1, RELU6; TANH and SIGMOID are refused).
#include "ops/svdf_hybrid.h"

#include <algorithm>

#include "lowering/lowering_support.h"
#include "ops/hybrid_quantization.h"
#include "ops/shape_rule.h"
#include "ops/svdf_plan.h"

namespace loupe::ops {

namespace {

constexpr std::size_t kInputSlot = 0, kFeatureSlot = 1, kTimeSlot = 2, kBiasSlot = 3,
                      kStateSlot = 4;

// weights_time as TFLite dequantises it: each value times the scale.
std::vector<float> floatTimeWeights(const std::int8_t* values, std::size_t count, float scale) {
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(values[i]) * scale;
  return out;
}

}  // namespace

bool isHybridSvdf(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, kInputSlot);
  const ir::Tensor* feature = op.inputs.size() > 1 ? graph.input(op, kFeatureSlot) : nullptr;
  return input != nullptr && feature != nullptr && input->dtype == ir::DType::Float32 &&
         (feature->dtype == ir::DType::Int8 || feature->dtype == ir::DType::UInt8);
}

std::optional<std::string> checkHybridSvdf(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkSvdfStructure(graph, op)) return problem;
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  const ir::Tensor& state = *graph.input(op, kStateSlot);
  const ir::Tensor& output = graph.output(op, 0);
  const auto& attrs = std::get<ir::SvdfAttrs>(op.attributes);
  for (const ir::Tensor* weights : {&feature, &time}) {
    if (auto problem = hybrid::checkWeights(*weights)) return problem;
    if (weights->quantization.scales.size() != 1) {
      return "hybrid SVDF weights have one per-tensor scale, found " + tensorText(*weights);
    }
  }
  for (const ir::Tensor* t : {&state, &output}) {
    if (t->dtype != ir::DType::Float32) {
      return "a hybrid SVDF's state and output are float32, found " + tensorText(*t);
    }
  }
  if (bias != nullptr && bias->dtype != ir::DType::Float32) {
    return "a hybrid SVDF's bias is float32, found " + tensorText(*bias);
  }
  return hybrid::checkActivation(attrs.activation, "SVDF");
}

void evalHybridSvdf(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto& attrs = std::get<ir::SvdfAttrs>(op.attributes);
  const reference::SvdfPlan p = reference::planSvdf(graph, op);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  const float* in = store.data<float>(op.inputs[kInputSlot]);
  const auto* w = store.data<std::int8_t>(op.inputs[kFeatureSlot]);
  const float* b = bias != nullptr ? store.data<float>(bias->index) : nullptr;
  float* state = store.mutableData<float>(op.inputs[kStateSlot]);
  float* out = store.mutableData<float>(op.outputs[0]);
  const ir::Tensor& timeTensor = *graph.input(op, kTimeSlot);
  const std::vector<float> time = floatTimeWeights(
      store.data<std::int8_t>(op.inputs[kTimeSlot]),
      static_cast<std::size_t>(timeTensor.elementCount()), timeTensor.quantization.scales[0]);
  const std::vector<std::int32_t> sums = hybrid::rowSums(w, p.filters, p.inputSize);
  const std::size_t stateCount = static_cast<std::size_t>(p.batches) * p.filters * p.memory;
  if (stateCount > 1) std::copy(state + 1, state + stateCount, state);
  std::vector<std::int8_t> q(static_cast<std::size_t>(p.inputSize));
  for (int batch = 0; batch < p.batches; ++batch) {
    const hybrid::RowQuantization row = hybrid::quantizeRow(
        in + batch * p.inputSize, p.inputSize, attrs.asymmetricQuantizeInputs, q.data());
    const float scale = row.scale * feature.quantization.scales[0];
    for (int f = 0; f < p.filters; ++f) {
      std::int32_t dot = 0;
      for (int i = 0; i < p.inputSize; ++i) dot += w[f * p.inputSize + i] * q[i];
      dot -= sums[f] * row.offset;
      state[(batch * p.filters + f) * p.memory + (p.memory - 1)] =
          0.0f + static_cast<float>(dot) * scale;
    }
  }
  std::vector<float> filterSums(static_cast<std::size_t>(p.filters));
  for (int batch = 0; batch < p.batches; ++batch) {
    for (int f = 0; f < p.filters; ++f) {
      float sum = 0.0f;
      for (int m = 0; m < p.memory; ++m) {
        sum += time[f * p.memory + m] * state[(batch * p.filters + f) * p.memory + m];
      }
      filterSums[f] = sum;
    }
    for (int u = 0; u < p.units; ++u) {
      float sum = 0.0f;
      for (int r = 0; r < p.rank; ++r) sum += filterSums[u * p.rank + r];
      if (b != nullptr) sum += b[u];
      out[batch * p.units + u] = hybrid::activate(sum, attrs.activation);
    }
  }
}

tir::PrimFunc lowerHybridSvdf(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& functionName) {
  using namespace tir;
  const auto& attrs = std::get<ir::SvdfAttrs>(op.attributes);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  if (!feature.isConstant || !time.isConstant) {
    lowering::fail(op, "weights_feature and weights_time must be constant to compile to C");
  }
  if (bias != nullptr && !bias->isConstant) {
    lowering::fail(op, "the bias must be constant to compile to C");
  }
  const reference::SvdfPlan p = reference::planSvdf(graph, op);
  const int B = p.batches, I = p.inputSize, F = p.filters, M = p.memory, U = p.units;
  const int R = p.rank;
  const bool asymmetric = attrs.asymmetricQuantizeInputs;

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.input(op.inputs[kInputSlot], "input");
  const Buffer st = fb.param(op.inputs[kStateSlot], "state", true);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(feature, "weights_feature");
  const auto timeValues = lowering::tensorValues<std::int8_t>(time);
  const Buffer timeWeights = fb.constant(
      "weights_time", ScalarType::Float32,
      floatTimeWeights(timeValues.data(), timeValues.size(), time.quantization.scales[0]));
  const auto featureValues = lowering::tensorValues<std::int8_t>(feature);
  const Buffer sums = asymmetric ? fb.constant("feature_row_sums", ScalarType::Int32,
                                               hybrid::rowSums(featureValues.data(), F, I))
                                 : nullptr;
  const Buffer b = bias != nullptr ? fb.constant(*bias, "bias") : nullptr;
  const Buffer q = fb.local("quantized", ScalarType::Int8, I);
  const Buffer lo = fb.local("row_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("row_max", ScalarType::Float32, 1);
  const Buffer dot = fb.local("dot", ScalarType::Int32, 1);
  const Buffer filterSums = fb.local("filter_sums", ScalarType::Float32, F);
  const Buffer sum = fb.local("sum", ScalarType::Float32, 1);
  const Var i = lowering::loopVar("i"), batch = lowering::loopVar("b"), f = lowering::loopVar("f"),
            k = lowering::loopVar("k"), m = lowering::loopVar("m"), u = lowering::loopVar("u"),
            r = lowering::loopVar("r");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);
  std::vector<Stmt> steps;

  // 1. The state moves one place towards its start.
  const std::int64_t stateCount = std::int64_t{B} * F * M;
  if (stateCount > 1) {
    steps.push_back(forLoop(i, 0, static_cast<int>(stateCount - 1),
                            store(st, refVar(i), load(st, refVar(i) + 1))));
  }
  // 2. Each batch row quantised; each filter's newest state value.
  Expr total = load(dot, 0);
  if (sums) total = total - load(sums, refVar(f)) * refVar(offset);
  const Expr featureScale = refVar(scale) * floatImm(feature.quantization.scales[0]);
  Stmt filters = forLoop(
      f, 0, F,
      seq({store(dot, 0, 0),
           forLoop(
               k, 0, I,
               store(dot, 0,
                     load(dot, 0) + cast(ScalarType::Int32, load(w, refVar(f) * I + refVar(k))) *
                                        cast(ScalarType::Int32, load(q, refVar(k))))),
           store(st, (refVar(batch) * F + refVar(f)) * M + (M - 1),
                 floatImm(0.0) + cast(ScalarType::Float32, total) * featureScale)}));
  steps.push_back(forLoop(batch, 0, B,
                          hybrid::quantizeRow(in, refVar(batch) * I, I, q, asymmetric, lo, hi,
                                              scale, offset, filters)));
  // 3. Time weights, the rank sums from 0, the bias, the activation.
  Stmt filterSum = seq(
      {store(sum, 0, floatImm(0.0)),
       forLoop(m, 0, M,
               store(sum, 0,
                     load(sum, 0) + load(timeWeights, refVar(f) * M + refVar(m)) *
                                        load(st, (refVar(batch) * F + refVar(f)) * M + refVar(m)))),
       store(filterSums, refVar(f), load(sum, 0))});
  std::vector<Stmt> unit = {
      store(sum, 0, floatImm(0.0)),
      forLoop(r, 0, R, store(sum, 0, load(sum, 0) + load(filterSums, refVar(u) * R + refVar(r))))};
  if (b) unit.push_back(store(sum, 0, load(sum, 0) + load(b, refVar(u))));
  unit.push_back(
      store(out, refVar(batch) * U + refVar(u), hybrid::activate(load(sum, 0), attrs.activation)));
  steps.push_back(
      forLoop(batch, 0, B, seq({forLoop(f, 0, F, filterSum), forLoop(u, 0, U, seq(unit))})));
  Stmt body = seq(std::move(steps));
  for (const Buffer& local : {q, lo, hi, dot, filterSums, sum}) body = allocate(local, body);
  return fb.finish(body);
}

}  // namespace loupe::ops
