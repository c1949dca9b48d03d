// UNIDIRECTIONAL_SEQUENCE_LSTM -> TIR: the standard LSTM the reference
// kernel evaluates (four gates with input and recurrent weights and biases,
// optional cell clipping), float32, int8 x int8 -> int16 and int16 x int8 ->
// int16, batch-major and time-major. The hidden (output_state) and cell
// states are variable tensors the generated code keeps across runs
// (codegen/operator_state.h).
//
// Each step handles one sequence row (a batch at one time): the reference
// computes all four gates of every unit into gate buffers before it updates
// the cell and hidden state. Here each unit computes its four gates as
// scalars and updates its own cell value at once (no other unit reads it);
// its new hidden value goes straight to the step's output row, and the
// hidden state is overwritten from that row only after every unit of the
// step has read the old one through the recurrent weights. The arithmetic of
// every element is the reference's, in the same order, with no gate buffer.
//
// Numbers come from reference::planSequenceLstm; every requantisation,
// saturation and activation is a shared helper the reference also calls
// (loupe/quantized_arith.h, loupe/recurrent_arith.h).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "lowering/lowering_rule.h"
#include "ops/sequence_lstm_plan.h"

namespace loupe::lowering {

using namespace tir;

namespace {

constexpr std::array<const char*, 4> kGateNames = {"input", "forget", "cell", "output"};

std::int64_t maxAbs(const std::vector<std::int64_t>& values) {
  std::int64_t m = 0;
  for (std::int64_t v : values) m = std::max(m, v < 0 ? -v : v);
  return m;
}

// Where one step reads and writes: the element offsets of its input row, its
// output row and its batch's state row.
struct StepRows {
  Expr input, output, state;
};

// One fully connected layer of a gate for one unit: acc = initial, then
// acc += weight * value over `depth` values.
struct GateLayer {
  Buffer weights;                       // [units, depth]
  Expr initial;                         // per unit (reads `unit`)
  ScalarType type = ScalarType::Int32;  // of the accumulator
  int depth = 0;
};

class LstmLowering {
 public:
  LstmLowering(const ir::Graph& graph, const ir::Operator& op, FunctionBuilder& fb,
               const reference::SequenceLstmPlan& plan)
      : graph_(graph), op_(op), fb_(fb), p_(plan) {
    const ir::DType activations = graph.input(op, reference::kLstmInput)->dtype;
    isFloat_ = activations == ir::DType::Float32;
    int16Activations_ = activations == ir::DType::Int16;
  }

  PrimFunc lower() {
    in_ = fb_.input(op_.inputs[reference::kLstmInput], "input");
    hiddenState_ = fb_.param(op_.inputs[reference::kLstmOutputState], "output_state", true);
    cellState_ = fb_.param(op_.inputs[reference::kLstmCellState], "cell_state", true);
    out_ = fb_.param(op_.outputs[0], "output", true);
    for (int gate = 0; gate < 4; ++gate) {
      inputLayers_[gate] = layer(gate, false);
      recurrentLayers_[gate] = layer(gate, true);
    }
    gates_ = fb_.local("gates", isFloat_ ? ScalarType::Float32 : ScalarType::Int16, 4);
    accIn_ = fb_.local("acc_input", widest(inputLayers_), 1);
    accRec_ = fb_.local("acc_recurrent", widest(recurrentLayers_), 1);

    // Time-major input [time, batch, input] steps through time and within
    // it through the batches; batch-major [batch, time, input] through each
    // batch's sequence. Either way row (t, b) is one step.
    Var t = loopVar("t"), b = loopVar("b");
    const int B = p_.batches, T = p_.timeSteps;
    const Expr row = p_.timeMajor ? refVar(t) * B + refVar(b) : refVar(b) * T + refVar(t);
    const StepRows rows{row * p_.inputSize, row * p_.stateSize, refVar(b) * p_.stateSize};
    const Stmt body = step(rows);
    return fb_.finish(p_.timeMajor ? forLoop(t, 0, T, forLoop(b, 0, B, body))
                                   : forLoop(b, 0, B, forLoop(t, 0, T, body)));
  }

 private:
  // The weights, starting values and accumulator type of one gate's input
  // (recurrent = false) or recurrent layer. Integer layers fold the input
  // offset into the starting value: sum (w + w_off)(x + x_off) =
  // sum (w + w_off) x + x_off sum (w + w_off), exact in the reference's
  // wrapping int32 (int8) or in int64 (int16).
  GateLayer layer(int gate, bool recurrent) {
    const std::size_t slot = (recurrent ? reference::kLstmRecurrentToInputWeights
                                        : reference::kLstmInputToInputWeights) +
                             static_cast<std::size_t>(gate);
    const ir::Tensor& weights = *graph_.input(op_, slot);
    const ir::Tensor* bias =
        recurrent
            ? nullptr
            : graph_.input(op_, reference::kLstmInputGateBias + static_cast<std::size_t>(gate));
    const std::string name = std::string(recurrent ? "recurrent_" : "input_") + kGateNames[gate];
    GateLayer result;
    result.depth = recurrent ? p_.stateSize : p_.inputSize;
    if (isFloat_) {
      // From 0.0f; the bias is added after the sum (gateValue).
      result.weights = fb_.constant(weights, name + "_weights");
      result.initial = floatImm(0.0);
      result.type = ScalarType::Float32;
      return result;
    }
    const reference::LstmFullyConnectedParams& fc =
        recurrent ? p_.recurrentFc[gate] : p_.inputFc[gate];
    const std::vector<std::int8_t> raw = tensorValues<std::int8_t>(weights);
    std::vector<std::int16_t> offsetWeights;
    for (std::int8_t w : raw)
      offsetWeights.push_back(static_cast<std::int16_t>(w + fc.weightsOffset));
    result.weights = fc.weightsOffset == 0
                         ? fb_.constant(weights, name + "_weights")
                         : fb_.constant(name + "_weights", ScalarType::Int16, offsetWeights);
    // TFLite's 16x8 fully connected adds no input offset (it is zero).
    const std::int64_t inputOffset = int16Activations_ ? 0 : fc.inputOffset;
    std::vector<std::int64_t> initial(static_cast<std::size_t>(p_.stateSize), 0);
    if (bias != nullptr) {
      if (bias->dtype == ir::DType::Int64) {
        const auto values = tensorValues<std::int64_t>(*bias);
        std::copy(values.begin(), values.end(), initial.begin());
      } else {
        const auto values = tensorValues<std::int32_t>(*bias);
        std::copy(values.begin(), values.end(), initial.begin());
      }
    }
    for (std::size_t i = 0; i < offsetWeights.size(); ++i) {
      initial[i / static_cast<std::size_t>(result.depth)] += inputOffset * offsetWeights[i];
    }
    // A narrower accumulator when no partial sum can leave int32: products
    // are below 2^16 (int8 with offsets) or 2^24 (int16 x offset int8).
    const std::int64_t productBound =
        int16Activations_ ? (std::int64_t{1} << 24) : (std::int64_t{1} << 16);
    const bool fitsInt32 =
        maxAbs(initial) + result.depth * productBound <= std::numeric_limits<std::int32_t>::max();
    result.type = fitsInt32 ? ScalarType::Int32 : ScalarType::Int64;
    if (!int16Activations_) {
      // The int8 reference sums in int32: an int64 sum keeps its low 32 bits.
      for (std::int64_t& v : initial) {
        v = static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
      }
    }
    const bool uniform =
        std::adjacent_find(initial.begin(), initial.end(), std::not_equal_to<>()) == initial.end();
    if (uniform) {
      result.initial = intImm(initial.empty() ? 0 : initial.front(), result.type);
    } else if (result.type == ScalarType::Int64) {
      result.initial = load(fb_.constant(name + "_init", result.type, initial), refVar(unit_));
    } else {
      std::vector<std::int32_t> narrow(initial.begin(), initial.end());
      result.initial = load(fb_.constant(name + "_init", result.type, narrow), refVar(unit_));
    }
    return result;
  }

  // One accumulator serves the four gates' layers: int64 when any needs it
  // (widening another layer's sum changes none of its low 32 bits).
  static ScalarType widest(const std::array<GateLayer, 4>& layers) {
    for (const GateLayer& layer : layers) {
      if (layer.type == ScalarType::Int64) return ScalarType::Int64;
    }
    return layers[0].type;
  }

  // acc = initial; acc += weights[unit, d] * values[start + d].
  Stmt accumulate(const GateLayer& layer, const Buffer& acc, const Buffer& values,
                  const Expr& start) {
    Var d = loopVar("d");
    const Expr weight = load(layer.weights, refVar(unit_) * layer.depth + refVar(d));
    const Expr value = load(values, start + refVar(d));
    // Float: value * weight, the reference's order of operands.
    const Expr product =
        isFloat_ ? value * weight : cast(acc->type, weight) * cast(acc->type, value);
    return seq({store(acc, 0, cast(acc->type, layer.initial)),
                forLoop(d, 0, layer.depth, store(acc, 0, load(acc, 0) + product))});
  }

  // The int16 result of an integer layer: requantised into Q3.12.
  Expr requantizeLayer(const Expr& acc, const reference::LstmFullyConnectedParams& fc) const {
    if (int16Activations_) {
      return callIntrinsic("loupe.requantize_i64", ScalarType::Int32,
                           {cast(ScalarType::Int64, acc), fc.multiplier, fc.shift, -32768, 32767});
    }
    return callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                         {cast(ScalarType::Int32, acc), fc.multiplier, fc.shift, 0, -32768, 32767});
  }

  // The activated gate of the current unit from its two accumulators.
  Expr gateValue(int gate) {
    const bool isCellGate = gate == reference::kCellGate;
    if (isFloat_) {
      const ir::Tensor& bias =
          *graph_.input(op_, reference::kLstmInputGateBias + static_cast<std::size_t>(gate));
      const Buffer biasTable = fb_.constant(bias, std::string(kGateNames[gate]) + "_bias");
      // The reference adds the recurrent layer's missing bias as 0.0f; its
      // sum starts at +0.0f and so is never -0.0f, which makes that add an
      // identity and it is left out.
      const Expr sum = (load(accIn_, 0) + load(biasTable, refVar(unit_))) + load(accRec_, 0);
      return callIntrinsic(isCellGate ? "loupe.lstm_tanh_f32" : "loupe.lstm_sigmoid_f32",
                           ScalarType::Float32, {sum});
    }
    const Expr sum = callIntrinsic("loupe.clamp_i32", ScalarType::Int32,
                                   {requantizeLayer(load(accIn_, 0), p_.inputFc[gate]) +
                                        requantizeLayer(load(accRec_, 0), p_.recurrentFc[gate]),
                                    -32768, 32767});
    const Expr pre = cast(ScalarType::Int16, sum);
    if (isCellGate) {
      // Q3.12: tanh with scale power -12.
      return callIntrinsic("loupe.lstm_tanh_int16", ScalarType::Int16, {pre, -12});
    }
    return callIntrinsic("loupe.lstm_sigmoid_int16", ScalarType::Int16, {pre});
  }

  // TFLite Micro's element-wise product of two int16 values, requantised.
  static Expr multiply(const Expr& a, const Expr& b, const reference::LstmMulParams& m) {
    return callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                         {cast(ScalarType::Int32, a) * cast(ScalarType::Int32, b), m.multiplier,
                          m.shift, m.outputOffset, m.activationMin, m.activationMax});
  }

  // The new cell value of the current unit from its old value and the gates.
  Expr newCell(const Expr& cell) const {
    const Expr inputGate = load(gates_, reference::kInputGate);
    const Expr forgetGate = load(gates_, reference::kForgetGate);
    const Expr cellGate = load(gates_, reference::kCellGate);
    if (isFloat_) {
      const Expr value = forgetGate * cell + inputGate * cellGate;
      if (p_.cellClip > 0.0f) {
        return callIntrinsic("loupe.lstm_clip_f32", ScalarType::Float32,
                             {value, floatImm(p_.cellClip)});
      }
      return value;
    }
    // Both products are int16 after their clamp, so the sum of their int32
    // values is the reference's sum of int16 values.
    Expr value = callIntrinsic("loupe.clamp_i32", ScalarType::Int32,
                               {multiply(forgetGate, cell, p_.forgetTimesCell) +
                                    multiply(inputGate, cellGate, p_.inputTimesCell),
                                -32768, 32767});
    if (p_.cellClip > 0.0f) {
      value = callIntrinsic("loupe.clamp_i32", ScalarType::Int32,
                            {value, -p_.quantizedCellClip, p_.quantizedCellClip});
    }
    return cast(ScalarType::Int16, value);
  }

  // The new hidden value of the current unit from its new cell value.
  Expr newHidden(const Expr& cell) const {
    const Expr outputGate = load(gates_, reference::kOutputGate);
    if (isFloat_) {
      return callIntrinsic("loupe.lstm_tanh_f32", ScalarType::Float32, {cell}) * outputGate;
    }
    const Expr activated =
        callIntrinsic("loupe.lstm_tanh_int16", ScalarType::Int16, {cell, p_.cellStateScalePower});
    return cast(out_->type, multiply(activated, outputGate, p_.tanhTimesOutput));
  }

  Stmt step(const StepRows& rows) {
    std::vector<Stmt> unitSteps;
    for (int gate : {reference::kInputGate, reference::kForgetGate, reference::kCellGate,
                     reference::kOutputGate}) {
      unitSteps.push_back(accumulate(inputLayers_[gate], accIn_, in_, rows.input));
      unitSteps.push_back(accumulate(recurrentLayers_[gate], accRec_, hiddenState_, rows.state));
      unitSteps.push_back(store(gates_, gate, gateValue(gate)));
    }
    const Expr cellIndex = rows.state + refVar(unit_);
    unitSteps.push_back(store(cellState_, cellIndex, newCell(load(cellState_, cellIndex))));
    unitSteps.push_back(
        store(out_, rows.output + refVar(unit_), newHidden(load(cellState_, cellIndex))));
    const Stmt units =
        forLoop(unit_, 0, p_.stateSize,
                allocate(gates_, allocate(accIn_, allocate(accRec_, seq(std::move(unitSteps))))));
    Var u = loopVar("u");
    const Stmt copyHidden =
        forLoop(u, 0, p_.stateSize,
                store(hiddenState_, rows.state + refVar(u), load(out_, rows.output + refVar(u))));
    return seq({units, copyHidden});
  }

  const ir::Graph& graph_;
  const ir::Operator& op_;
  FunctionBuilder& fb_;
  const reference::SequenceLstmPlan& p_;
  bool isFloat_ = false;
  bool int16Activations_ = false;
  Buffer in_, hiddenState_, cellState_, out_, gates_, accIn_, accRec_;
  std::array<GateLayer, 4> inputLayers_, recurrentLayers_;
  Var unit_ = loopVar("unit");
};

}  // namespace

PrimFunc lowerSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                           const std::string& functionName) {
  for (std::size_t slot = reference::kLstmInputToInputWeights;
       slot <= reference::kLstmOutputGateBias; ++slot) {
    const ir::Tensor* t = graph.input(op, slot);
    if (t != nullptr && !t->isConstant) {
      fail(op, "weights and biases must be constant to compile to C ('" + t->name + "' is not)");
    }
  }
  const reference::SequenceLstmPlan plan = reference::planSequenceLstm(graph, op);
  FunctionBuilder fb(graph, op, functionName);
  return LstmLowering(graph, op, fb, plan).lower();
}

}  // namespace loupe::lowering
