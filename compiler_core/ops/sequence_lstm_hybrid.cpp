// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM: float32 input, output and cell states
// and biases with int8 weights, as TFLite's lstm_eval.cc (EvalHybrid,
// LstmStepHybrid, CalculateLstmGateHybrid, UpdateLstmCellFloat,
// CalculateLstmOutputHybrid) computes the standard LSTM (four gates, no
// CIFG, peephole, projection or layer normalisation; the checks are those of
// the float and integer variants). One step is one time of all batches
// (time-major) or one time of one batch (batch-major):
//  - the step's input rows and output-state rows are each quantised per row
//    (symmetric, or asymmetric with asymmetric_quantize_inputs), skipped
//    when all of the step's values are 0;
//  - each gate = bias, + (float)(input dot less row sum x zero point) *
//    (row scale x weights scale) unless the input was all 0, + the same for
//    the output state unless it was all 0; then 1 / (1 + exp(-x)) (TFLite's
//    ApplySigmoidToVector, without the reference Logistic's cut-offs) or, for
//    the cell gate, tanh;
//  - cell = forget x cell, + cell gate x input gate, clipped to cell_clip;
//  - output state = output gate x tanh(cell), copied to the output.
#include "ops/sequence_lstm_hybrid.h"

#include <algorithm>
#include <array>

#include "loupe/recurrent_arith.h"
#include "lowering/lowering_support.h"
#include "ops/hybrid_quantization.h"
#include "ops/sequence_lstm_plan.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

namespace {

using namespace reference;

constexpr std::array<const char*, 4> kGateNames = {"input", "forget", "cell", "output"};

std::size_t weightsSlot(int gate, bool recurrent) {
  return (recurrent ? kLstmRecurrentToInputWeights : kLstmInputToInputWeights) +
         static_cast<std::size_t>(gate);
}

// The quantised rows of one operand of a step (the input or the output
// state) and their scales and zero points.
struct QuantizedRows {
  bool nonZero = false;
  std::vector<std::int8_t> values;
  std::vector<float> scales;
  std::vector<std::int32_t> offsets;
};

QuantizedRows quantizeRows(const float* x, int rows, int depth, bool asymmetric) {
  QuantizedRows q;
  const std::int64_t count = std::int64_t{rows} * depth;
  q.nonZero = std::any_of(x, x + count, [](float v) { return v != 0.0f; });
  if (!q.nonZero) return q;
  q.values.resize(static_cast<std::size_t>(count));
  for (int r = 0; r < rows; ++r) {
    const hybrid::RowQuantization row =
        hybrid::quantizeRow(x + r * depth, depth, asymmetric, q.values.data() + r * depth);
    q.scales.push_back(row.scale);
    q.offsets.push_back(row.offset);
  }
  return q;
}

}  // namespace

bool isHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, kLstmInput);
  const ir::Tensor* weights = op.inputs.size() > kLstmInputToForgetWeights
                                  ? graph.input(op, kLstmInputToForgetWeights)
                                  : nullptr;
  return input != nullptr && weights != nullptr && input->dtype == ir::DType::Float32 &&
         (weights->dtype == ir::DType::Int8 || weights->dtype == ir::DType::UInt8);
}

std::optional<std::string> checkHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkSequenceLstmStructure(graph, op)) return problem;
  for (int gate = 0; gate < 4; ++gate) {
    for (bool recurrent : {false, true}) {
      const ir::Tensor& weights = *graph.input(op, weightsSlot(gate, recurrent));
      if (auto problem = hybrid::checkWeights(weights)) return problem;
      if (weights.quantization.scales.size() != 1) {
        return "hybrid LSTM weights have one per-tensor scale, found " + tensorText(weights);
      }
    }
    const ir::Tensor& bias = *graph.input(op, kLstmInputGateBias + static_cast<std::size_t>(gate));
    if (bias.dtype != ir::DType::Float32) {
      return "a hybrid LSTM's gate biases are float32, found " + tensorText(bias);
    }
  }
  for (const ir::Tensor* t :
       {graph.input(op, kLstmOutputState), graph.input(op, kLstmCellState), &graph.output(op, 0)}) {
    if (t->dtype != ir::DType::Float32) {
      return "a hybrid LSTM's states and output are float32, found " + tensorText(*t);
    }
  }
  return std::nullopt;
}

void evalHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                            reference::TensorStore& store) {
  const auto& attrs = std::get<ir::SequenceLstmAttrs>(op.attributes);
  const SequenceLstmPlan p = planSequenceLstm(graph, op);
  const int I = p.inputSize, S = p.stateSize;
  const float* input = store.data<float>(op.inputs[kLstmInput]);
  float* hidden = store.mutableData<float>(op.inputs[kLstmOutputState]);
  float* cell = store.mutableData<float>(op.inputs[kLstmCellState]);
  float* output = store.mutableData<float>(op.outputs[0]);
  std::array<std::vector<float>, 4> gates;
  forEachStep(p, [&](const LstmStepWindow& w) {
    const QuantizedRows x =
        quantizeRows(input + w.inputOffset, w.rows, I, attrs.asymmetricQuantizeInputs);
    const QuantizedRows h =
        quantizeRows(hidden + w.stateOffset, w.rows, S, attrs.asymmetricQuantizeInputs);
    for (int gate = 0; gate < 4; ++gate) {
      const float* bias = store.data<float>(op.inputs[kLstmInputGateBias + gate]);
      gates[gate].assign(static_cast<std::size_t>(w.rows) * S, 0.0f);
      for (int r = 0; r < w.rows; ++r) {
        for (int u = 0; u < S; ++u) {
          float v = bias[u];
          for (bool recurrent : {false, true}) {
            const QuantizedRows& q = recurrent ? h : x;
            if (!q.nonZero) continue;
            const int depth = recurrent ? S : I;
            const std::size_t slot = weightsSlot(gate, recurrent);
            const auto* weights = store.data<std::int8_t>(op.inputs[slot]) + u * depth;
            std::int32_t dot = 0, rowSum = 0;
            for (int k = 0; k < depth; ++k) {
              dot += weights[k] * q.values[static_cast<std::size_t>(r * depth + k)];
              rowSum += weights[k];
            }
            dot -= rowSum * q.offsets[r];
            const float scale = q.scales[r] * graph.input(op, slot)->quantization.scales[0];
            v += static_cast<float>(dot) * scale;
          }
          gates[gate][static_cast<std::size_t>(r * S + u)] =
              gate == kCellGate ? loupe_lstm_tanh_f32(v) : loupe_hybrid_lstm_sigmoid_f32(v);
        }
      }
    }
    for (int i = 0; i < w.rows * S; ++i) {
      float c = gates[kForgetGate][i] * cell[w.stateOffset + i];
      c = c + gates[kCellGate][i] * gates[kInputGate][i];
      if (p.cellClip > 0.0f) c = loupe_lstm_clip_f32(c, p.cellClip);
      cell[w.stateOffset + i] = c;
      const float state = gates[kOutputGate][i] * loupe_lstm_tanh_f32(c);
      hidden[w.stateOffset + i] = state;
      output[w.outputOffset + i] = state;
    }
  });
}

tir::PrimFunc lowerHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                                      const std::string& functionName) {
  using namespace tir;
  const auto& attrs = std::get<ir::SequenceLstmAttrs>(op.attributes);
  const SequenceLstmPlan p = planSequenceLstm(graph, op);
  const int I = p.inputSize, S = p.stateSize;
  const int R = p.timeMajor ? p.batches : 1;  // rows per step
  const bool asymmetric = attrs.asymmetricQuantizeInputs;

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.input(op.inputs[kLstmInput], "input");
  const Buffer hidden = fb.param(op.inputs[kLstmOutputState], "output_state", true);
  const Buffer cell = fb.param(op.inputs[kLstmCellState], "cell_state", true);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  struct Layer {
    Buffer weights, rowSums;
    float scale = 0.0f;
  };
  std::array<std::array<Layer, 2>, 4> layers;
  std::array<Buffer, 4> biases;
  for (int gate = 0; gate < 4; ++gate) {
    for (bool recurrent : {false, true}) {
      const ir::Tensor& weights = *graph.input(op, weightsSlot(gate, recurrent));
      if (!weights.isConstant) lowering::fail(op, "the weights must be constant to compile to C");
      const std::string name = std::string(recurrent ? "recurrent_" : "input_") + kGateNames[gate];
      Layer& layer = layers[gate][recurrent];
      layer.weights = fb.constant(weights, name + "_weights");
      layer.scale = weights.quantization.scales[0];
      if (asymmetric) {
        const auto values = lowering::tensorValues<std::int8_t>(weights);
        layer.rowSums = fb.constant(name + "_row_sums", ScalarType::Int32,
                                    hybrid::rowSums(values.data(), S, recurrent ? S : I));
      }
    }
    const ir::Tensor& bias = *graph.input(op, kLstmInputGateBias + static_cast<std::size_t>(gate));
    if (!bias.isConstant) lowering::fail(op, "the gate biases must be constant to compile to C");
    biases[gate] = fb.constant(bias, std::string(kGateNames[gate]) + "_bias");
  }
  const std::array<Buffer, 2> q = {fb.local("quantized_input", ScalarType::Int8, R * I),
                                   fb.local("quantized_state", ScalarType::Int8, R * S)};
  const std::array<Buffer, 2> scales = {fb.local("input_scales", ScalarType::Float32, R),
                                        fb.local("state_scales", ScalarType::Float32, R)};
  const std::array<Buffer, 2> offsets = {fb.local("input_offsets", ScalarType::Int32, R),
                                         fb.local("state_offsets", ScalarType::Int32, R)};
  const Buffer nonZero = fb.local("non_zero", ScalarType::Int32, 2);
  const Buffer gates = fb.local("gates", ScalarType::Float32, 4 * R * S);
  const Buffer lo = fb.local("row_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("row_max", ScalarType::Float32, 1);
  const Buffer acc = fb.local("acc", ScalarType::Int32, 1);
  const Buffer c = fb.local("cell_value", ScalarType::Float32, 1);
  const Var t = lowering::loopVar("t"), b = lowering::loopVar("b"), i = lowering::loopVar("i"),
            r = lowering::loopVar("r"), u = lowering::loopVar("u"), k = lowering::loopVar("k");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);

  // The step's rows: time t of all batches, or of batch b.
  const Expr row = p.timeMajor ? refVar(t) * p.batches : refVar(b) * p.timeSteps + refVar(t);
  const Expr inputStart = row * I, outputStart = row * S;
  const Expr stateStart = p.timeMajor ? Expr(0) : refVar(b) * S;
  std::vector<Stmt> step;
  // Which operands are not all 0; each row of those quantised.
  const std::array<std::pair<Buffer, Expr>, 2> operands = {std::pair{in, inputStart},
                                                           std::pair{hidden, stateStart}};
  for (int o = 0; o < 2; ++o) {
    const int depth = o == 0 ? I : S;
    const Buffer& x = operands[o].first;
    const Expr& start = operands[o].second;
    // The scales and zero points are set before the rows are quantised only
    // for the C compiler, which cannot see that they are read under the same
    // condition.
    std::vector<Stmt> clear = {store(scales[o], refVar(r), floatImm(0.0))};
    if (asymmetric) clear.push_back(store(offsets[o], refVar(r), 0));
    step.push_back(forLoop(r, 0, R, seq(clear)));
    step.push_back(hybrid::findNonZero(x, start, std::int64_t{R} * depth, nonZero, o));
    std::vector<Stmt> keep = {store(scales[o], refVar(r), refVar(scale))};
    if (asymmetric) keep.push_back(store(offsets[o], refVar(r), refVar(offset)));
    step.push_back(ifThenElse(
        ne(load(nonZero, o), 0),
        forLoop(r, 0, R,
                hybrid::quantizeRow(x, start + refVar(r) * depth, depth, q[o], asymmetric, lo, hi,
                                    scale, offset, seq(keep), refVar(r) * depth))));
  }
  // The gates.
  for (int gate = 0; gate < 4; ++gate) {
    const Expr at = (gate * R + refVar(r)) * S + refVar(u);
    std::vector<Stmt> unit = {store(gates, at, load(biases[gate], refVar(u)))};
    for (int o = 0; o < 2; ++o) {
      const int depth = o == 0 ? I : S;
      const Layer& layer = layers[gate][o];
      Expr total = load(acc, 0);
      if (asymmetric) total = total - load(layer.rowSums, refVar(u)) * load(offsets[o], refVar(r));
      unit.push_back(ifThenElse(
          ne(load(nonZero, o), 0),
          seq({store(acc, 0, 0),
               forLoop(
                   k, 0, depth,
                   store(acc, 0,
                         load(acc, 0) + cast(ScalarType::Int32,
                                             load(layer.weights, refVar(u) * depth + refVar(k))) *
                                            cast(ScalarType::Int32,
                                                 load(q[o], refVar(r) * depth + refVar(k))))),
               store(
                   gates, at,
                   load(gates, at) + cast(ScalarType::Float32, total) *
                                         (load(scales[o], refVar(r)) * floatImm(layer.scale)))})));
    }
    unit.push_back(store(
        gates, at,
        callIntrinsic(gate == kCellGate ? "loupe.lstm_tanh_f32" : "loupe.hybrid_lstm_sigmoid_f32",
                      ScalarType::Float32, {load(gates, at)})));
    step.push_back(forLoop(r, 0, R, forLoop(u, 0, S, seq(unit))));
  }
  // The cell and output states, the output.
  auto gateAt = [&](int gate) { return load(gates, gate * R * S + refVar(i)); };
  std::vector<Stmt> update = {store(c, 0, gateAt(kForgetGate) * load(cell, stateStart + refVar(i))),
                              store(c, 0, load(c, 0) + gateAt(kCellGate) * gateAt(kInputGate))};
  if (p.cellClip > 0.0f) {
    update.push_back(store(c, 0,
                           callIntrinsic("loupe.lstm_clip_f32", ScalarType::Float32,
                                         {load(c, 0), floatImm(p.cellClip)})));
  }
  const Expr state =
      gateAt(kOutputGate) * callIntrinsic("loupe.lstm_tanh_f32", ScalarType::Float32, {load(c, 0)});
  update.push_back(store(cell, stateStart + refVar(i), load(c, 0)));
  update.push_back(store(hidden, stateStart + refVar(i), state));
  update.push_back(store(out, outputStart + refVar(i), load(hidden, stateStart + refVar(i))));
  step.push_back(forLoop(i, 0, R * S, seq(update)));

  Stmt body = seq(std::move(step));
  body = p.timeMajor ? forLoop(t, 0, p.timeSteps, body)
                     : forLoop(b, 0, p.batches, forLoop(t, 0, p.timeSteps, body));
  for (const Buffer& local : {q[0], q[1], scales[0], scales[1], nonZero, gates, lo, hi, acc, c}) {
    body = allocate(local, body);
  }
  if (asymmetric) body = allocate(offsets[0], allocate(offsets[1], body));
  return fb.finish(body);
}

}  // namespace loupe::ops
