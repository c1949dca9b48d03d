// UNIDIRECTIONAL_SEQUENCE_LSTM, following TFLite Micro's LSTM (lstm_eval.h,
// lstm_eval.cc, lstm_eval_common.cc). TFLite Micro evaluates the standard
// LSTM only: all four gates with input and recurrent weights and biases, no
// CIFG, peephole, projection or layer normalisation; cell clipping is
// honoured. Variants: float32; int8 activations x int8 weights with int32
// bias and int16 cell state; int16 activations x int8 weights with int64 bias
// and int16 cell state. Per step: each gate = activation(FC(input) +
// FC(hidden)); cell = forget * cell + input * cell_gate (clipped); hidden =
// tanh(cell) * output gate, copied to the output.
#include <algorithm>
#include <cmath>
#include <limits>

#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "loupe/quantized_arith.h"
#include "loupe/recurrent_arith.h"
#include "ops/sequence_lstm_plan.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

// TFLite Micro's scales of the gate pre-activations (Q3.12) and of the gate
// outputs (Q0.15), spelled exactly as there: the second float is not exactly
// 2^-15, and the multipliers derived from it differ from a power of two.
constexpr float kGateInputScale = 0.00024414062f;
constexpr float kGateOutputScale = 0.00003051757f;

LstmFullyConnectedParams fullyConnectedParams(const ir::Tensor& input, const ir::Tensor& weights) {
  LstmFullyConnectedParams params;
  const double real = static_cast<double>(input.quantization.scale()) *
                      static_cast<double>(weights.quantization.scale()) /
                      static_cast<double>(kGateInputScale);
  loupe_quantize_multiplier(real, &params.multiplier, &params.shift);
  params.inputOffset = -input.quantization.zeroPoint();
  params.weightsOffset = -weights.quantization.zeroPoint();
  return params;
}

LstmMulParams mulParams(float scale1, float scale2, float outputScale, ir::DType outputType,
                        std::int32_t outputZeroPoint) {
  LstmMulParams params;
  if (outputType == ir::DType::Int8) {
    params.activationMin = -128;
    params.activationMax = 127;
  } else {
    params.activationMin = -32768;
    params.activationMax = 32767;
  }
  params.outputOffset = outputZeroPoint;
  const double real =
      static_cast<double>(scale1) * static_cast<double>(scale2) / static_cast<double>(outputScale);
  loupe_quantize_multiplier(real, &params.multiplier, &params.shift);
  return params;
}

// TFLite's CheckedLog2 (the result is used even when x is not a power of two).
int roundedLog2(float x) {
  const float log2 = std::log(x) * (1.0f / std::log(2.0f));
  return static_cast<int>(std::round(log2));
}

}  // namespace

SequenceLstmPlan planSequenceLstm(const ir::Graph& graph, const ir::Operator& op) {
  const auto& attrs = std::get<ir::SequenceLstmAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, kLstmInput);
  const ir::Tensor& hidden = *graph.input(op, kLstmOutputState);
  const ir::Tensor& cell = *graph.input(op, kLstmCellState);
  SequenceLstmPlan plan;
  plan.timeMajor = attrs.timeMajor;
  plan.batches = attrs.timeMajor ? input.shape[1] : input.shape[0];
  plan.timeSteps = attrs.timeMajor ? input.shape[0] : input.shape[1];
  plan.inputSize = input.shape[2];
  plan.stateSize = hidden.shape[1];
  plan.cellClip = attrs.cellClip;
  if (input.dtype == ir::DType::Float32) return plan;

  for (int gate = 0; gate < 4; ++gate) {
    const ir::Tensor& inputWeights = *graph.input(op, kLstmInputToInputWeights + gate);
    const ir::Tensor& recurrentWeights = *graph.input(op, kLstmRecurrentToInputWeights + gate);
    plan.inputFc[gate] = fullyConnectedParams(input, inputWeights);
    plan.recurrentFc[gate] = fullyConnectedParams(hidden, recurrentWeights);
  }
  const float cellScale = cell.quantization.scale();
  plan.forgetTimesCell = mulParams(kGateOutputScale, cellScale, cellScale, ir::DType::Int16, 0);
  plan.inputTimesCell =
      mulParams(kGateOutputScale, kGateOutputScale, cellScale, ir::DType::Int16, 0);
  plan.tanhTimesOutput = mulParams(kGateOutputScale, kGateOutputScale, hidden.quantization.scale(),
                                   hidden.dtype, hidden.quantization.zeroPoint());
  plan.cellStateScalePower = roundedLog2(cellScale);
  plan.quantizedCellClip = static_cast<std::int16_t>(std::min(
      std::max(static_cast<double>(attrs.cellClip) / static_cast<double>(cellScale), -32768.0),
      32767.0));
  return plan;
}

namespace {

const char* const kSlotNames[kLstmSlotCount] = {"input",
                                                "input_to_input_weights",
                                                "input_to_forget_weights",
                                                "input_to_cell_weights",
                                                "input_to_output_weights",
                                                "recurrent_to_input_weights",
                                                "recurrent_to_forget_weights",
                                                "recurrent_to_cell_weights",
                                                "recurrent_to_output_weights",
                                                "cell_to_input_weights",
                                                "cell_to_forget_weights",
                                                "cell_to_output_weights",
                                                "input_gate_bias",
                                                "forget_gate_bias",
                                                "cell_gate_bias",
                                                "output_gate_bias",
                                                "projection_weights",
                                                "projection_bias",
                                                "output_state",
                                                "cell_state",
                                                "input_layer_norm_coefficients",
                                                "forget_layer_norm_coefficients",
                                                "cell_layer_norm_coefficients",
                                                "output_layer_norm_coefficients"};

std::optional<std::string> checkAbsent(const ir::Operator& op, std::size_t first, std::size_t last,
                                       const char* variant) {
  for (std::size_t slot = first; slot <= last; ++slot) {
    if (hasInput(op, slot)) {
      return std::string(kSlotNames[slot]) + " is present: " + variant +
             " LSTMs are not supported (TFLite Micro evaluates the standard LSTM only)";
    }
  }
  return std::nullopt;
}

std::optional<std::string> expectDtype(std::size_t slot, const ir::Tensor& tensor,
                                       ir::DType expected) {
  if (tensor.dtype == expected) return std::nullopt;
  return std::string(kSlotNames[slot]) + " '" + tensor.name + "' has dtype " +
         describeDtype(tensor.dtype) + " (expected " + describeDtype(expected) + ")";
}

std::optional<std::string> expectShape(std::size_t slot, const ir::Tensor& tensor,
                                       const ir::Shape& expected) {
  if (tensor.shape == expected) return std::nullopt;
  return std::string(kSlotNames[slot]) + " '" + tensor.name + "' has shape " +
         ir::shapeToString(tensor.shape) + " (expected " + ir::shapeToString(expected) + ")";
}

}  // namespace

std::optional<std::string> checkSequenceLstmStructure(const ir::Graph& graph,
                                                      const ir::Operator& op) {
  if (op.inputs.size() != kLstmSlotCount) {
    return "UNIDIRECTIONAL_SEQUENCE_LSTM needs 24 input slots, found " +
           std::to_string(op.inputs.size());
  }
  if (op.outputs.size() != 1) {
    return "UNIDIRECTIONAL_SEQUENCE_LSTM expects 1 output, found " +
           std::to_string(op.outputs.size());
  }
  const auto* attrs = std::get_if<ir::SequenceLstmAttrs>(&op.attributes);
  if (attrs == nullptr) return "UNIDIRECTIONAL_SEQUENCE_LSTM has no LSTM attributes";
  if (attrs->activation != ir::Activation::Tanh) {
    return "cell activation " + std::string(ir::activationName(attrs->activation)) +
           " is not supported (expected TANH)";
  }
  if (attrs->diagonalRecurrentTensors) {
    return "diagonal recurrent weights are not supported by TFLite Micro";
  }
  if (!hasInput(op, kLstmInputToInputWeights) || !hasInput(op, kLstmRecurrentToInputWeights)) {
    return "the input gate weights are missing: CIFG LSTMs are not supported (TFLite Micro "
           "evaluates the standard LSTM only)";
  }
  if (auto p = checkAbsent(op, kLstmCellToInputWeights, kLstmCellToOutputWeights, "peephole")) {
    return p;
  }
  if (auto p = checkAbsent(op, kLstmProjectionWeights, kLstmProjectionBias, "projection")) {
    return p;
  }
  if (auto p = checkAbsent(op, kLstmInputLayerNorm, kLstmOutputLayerNorm, "layer-norm")) {
    return p;
  }
  for (std::size_t slot :
       {std::size_t{kLstmInput}, std::size_t{kLstmOutputState}, std::size_t{kLstmCellState}}) {
    if (!hasInput(op, slot)) return std::string(kSlotNames[slot]) + " is missing";
  }
  for (std::size_t slot = kLstmInputToInputWeights; slot <= kLstmRecurrentToOutputWeights; ++slot) {
    if (!hasInput(op, slot)) return std::string(kSlotNames[slot]) + " is missing";
  }
  for (std::size_t slot = kLstmInputGateBias; slot <= kLstmOutputGateBias; ++slot) {
    if (!hasInput(op, slot)) return std::string(kSlotNames[slot]) + " is missing";
  }

  const ir::Tensor& input = *graph.input(op, kLstmInput);
  const ir::Tensor& hidden = *graph.input(op, kLstmOutputState);
  const ir::Tensor& cell = *graph.input(op, kLstmCellState);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hidden.isVariable || !cell.isVariable) {
    return std::string(hidden.isVariable ? "cell_state '" + cell.name
                                         : "output_state '" + hidden.name) +
           "' is not a variable tensor (the LSTM updates it in place)";
  }

  // Shapes.
  if (input.shape.size() != 3) {
    return "input '" + input.name + "' has shape " + ir::shapeToString(input.shape) +
           " (expected three dimensions: " +
           (attrs->timeMajor ? "[time, batch, input])" : "[batch, time, input])");
  }
  if (hidden.shape.size() != 2) {
    return "output_state '" + hidden.name + "' has shape " + ir::shapeToString(hidden.shape) +
           " (expected [batch, state])";
  }
  const int batches = attrs->timeMajor ? input.shape[1] : input.shape[0];
  const int inputSize = input.shape[2];
  const int stateSize = hidden.shape[1];
  for (std::size_t slot = kLstmInputToInputWeights; slot <= kLstmInputToOutputWeights; ++slot) {
    if (auto p = expectShape(slot, *graph.input(op, slot), {stateSize, inputSize})) return p;
  }
  for (std::size_t slot = kLstmRecurrentToInputWeights; slot <= kLstmRecurrentToOutputWeights;
       ++slot) {
    if (auto p = expectShape(slot, *graph.input(op, slot), {stateSize, stateSize})) return p;
  }
  for (std::size_t slot = kLstmInputGateBias; slot <= kLstmOutputGateBias; ++slot) {
    if (auto p = expectShape(slot, *graph.input(op, slot), {stateSize})) return p;
  }
  if (hidden.elementCount() != static_cast<std::int64_t>(batches) * stateSize ||
      cell.elementCount() != static_cast<std::int64_t>(batches) * stateSize) {
    return "output_state " + ir::shapeToString(hidden.shape) + " and cell_state " +
           ir::shapeToString(cell.shape) +
           " must each hold batch x state = " + std::to_string(batches) + " x " +
           std::to_string(stateSize) + " values";
  }
  if (auto p = expectShape(0, output, {input.shape[0], input.shape[1], stateSize})) {
    return "output '" + output.name + "' has shape " + ir::shapeToString(output.shape) +
           " (expected " + ir::shapeToString({input.shape[0], input.shape[1], stateSize}) + ")";
  }

  return std::nullopt;
}

namespace {

std::optional<std::string> checkSequenceLstm(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkSequenceLstmStructure(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, kLstmInput);
  const ir::Tensor& hidden = *graph.input(op, kLstmOutputState);
  const ir::Tensor& cell = *graph.input(op, kLstmCellState);
  const ir::Tensor& output = graph.output(op, 0);
  // Types.
  ir::DType weightType, biasType, cellType;
  switch (input.dtype) {
    case ir::DType::Float32:
      weightType = biasType = cellType = ir::DType::Float32;
      break;
    case ir::DType::Int8:
      weightType = ir::DType::Int8;
      biasType = ir::DType::Int32;
      cellType = ir::DType::Int16;
      break;
    case ir::DType::Int16:
      weightType = ir::DType::Int8;
      biasType = ir::DType::Int64;
      cellType = ir::DType::Int16;
      break;
    default:
      return "input dtype " + describeDtype(input.dtype) +
             " is not supported (expected float32, int8 or int16)";
  }
  if (auto p = expectDtype(kLstmOutputState, hidden, input.dtype)) return p;
  if (auto p = expectDtype(kLstmCellState, cell, cellType)) return p;
  if (output.dtype != input.dtype) {
    return "output has dtype " + describeDtype(output.dtype) + " (expected the input's " +
           describeDtype(input.dtype) + ")";
  }
  for (std::size_t slot = kLstmInputToInputWeights; slot <= kLstmRecurrentToOutputWeights; ++slot) {
    if (auto p = expectDtype(slot, *graph.input(op, slot), weightType)) return p;
  }
  for (std::size_t slot = kLstmInputGateBias; slot <= kLstmOutputGateBias; ++slot) {
    if (auto p = expectDtype(slot, *graph.input(op, slot), biasType)) return p;
  }

  // Quantisation of the integer variants.
  if (input.dtype != ir::DType::Float32) {
    std::vector<std::size_t> quantised{kLstmInput, kLstmOutputState, kLstmCellState};
    for (std::size_t slot = kLstmInputToInputWeights; slot <= kLstmRecurrentToOutputWeights;
         ++slot) {
      quantised.push_back(slot);
    }
    for (std::size_t slot : quantised) {
      const ir::Tensor& t = *graph.input(op, slot);
      if (!t.quantization.isQuantized()) {
        return std::string(kSlotNames[slot]) + " '" + t.name + "' has no quantisation parameters";
      }
      if (t.quantization.isPerChannel()) {
        return std::string(kSlotNames[slot]) + " '" + t.name +
               "' is quantised per channel (expected per-tensor)";
      }
    }
    if (!output.quantization.isQuantized()) {
      return "output '" + output.name + "' has no quantisation parameters";
    }
    if (input.dtype == ir::DType::Int16 &&
        (input.quantization.zeroPoint() != 0 || hidden.quantization.zeroPoint() != 0)) {
      return "int16 LSTM needs zero points of 0 on input and output_state (found " +
             std::to_string(input.quantization.zeroPoint()) + " and " +
             std::to_string(hidden.quantization.zeroPoint()) + ")";
    }
    if (cell.quantization.zeroPoint() != 0) {
      return "cell_state '" + cell.name + "' has zero point " +
             std::to_string(cell.quantization.zeroPoint()) + " (expected 0)";
    }
  }
  return std::nullopt;
}

// ---- float32 ----

void floatFullyConnected(const float* x, const float* w, const float* bias, int rows, int depth,
                         int units, float* out) {
  for (int r = 0; r < rows; ++r) {
    for (int u = 0; u < units; ++u) {
      float total = 0.0f;
      for (int d = 0; d < depth; ++d) total += x[r * depth + d] * w[u * depth + d];
      out[r * units + u] = total + (bias ? bias[u] : 0.0f);
    }
  }
}

void evalFloatLstm(const SequenceLstmPlan& p, const ir::Operator& op, TensorStore& store) {
  const float* input = store.data<float>(op.inputs[kLstmInput]);
  float* hidden = store.mutableData<float>(op.inputs[kLstmOutputState]);
  float* cell = store.mutableData<float>(op.inputs[kLstmCellState]);
  float* output = store.mutableData<float>(op.outputs[0]);
  const int S = p.stateSize;
  std::vector<float> gates[4], scratch;
  forEachStep(p, [&](const LstmStepWindow& w) {
    const auto n = static_cast<std::size_t>(w.rows * S);
    scratch.assign(n, 0.0f);
    for (int gate : {kForgetGate, kInputGate, kCellGate, kOutputGate}) {
      gates[gate].assign(n, 0.0f);
      floatFullyConnected(input + w.inputOffset,
                          store.data<float>(op.inputs[kLstmInputToInputWeights + gate]),
                          store.data<float>(op.inputs[kLstmInputGateBias + gate]), w.rows,
                          p.inputSize, S, gates[gate].data());
      floatFullyConnected(hidden + w.stateOffset,
                          store.data<float>(op.inputs[kLstmRecurrentToInputWeights + gate]),
                          nullptr, w.rows, S, S, scratch.data());
      for (std::size_t i = 0; i < n; ++i) {
        const float sum = gates[gate][i] + scratch[i];
        gates[gate][i] = gate == kCellGate ? loupe_lstm_tanh_f32(sum) : loupe_lstm_sigmoid_f32(sum);
      }
    }
    float* c = cell + w.stateOffset;
    for (std::size_t i = 0; i < n; ++i) {
      c[i] = gates[kForgetGate][i] * c[i];
      c[i] = c[i] + gates[kInputGate][i] * gates[kCellGate][i];
      if (p.cellClip > 0.0f) c[i] = loupe_lstm_clip_f32(c[i], p.cellClip);
    }
    float* h = hidden + w.stateOffset;
    for (std::size_t i = 0; i < n; ++i) h[i] = loupe_lstm_tanh_f32(c[i]) * gates[kOutputGate][i];
    std::copy(h, h + n, output + w.outputOffset);
  });
}

// ---- integer (8x8->16 and 16x8->16) ----

std::int16_t saturatingAdd16(std::int16_t a, std::int16_t b) {
  return static_cast<std::int16_t>(loupe_clamp_i32(std::int32_t{a} + b, -32768, 32767));
}

template <typename Activation, typename Bias, typename Weight>
void integerFullyConnected(const LstmFullyConnectedParams& params, const Activation* x,
                           const Weight* w, const Bias* bias, int rows, int depth, int units,
                           std::int16_t* out) {
  for (int r = 0; r < rows; ++r) {
    for (int u = 0; u < units; ++u) {
      Bias acc = 0;  // int32 for int8 activations, int64 for int16
      for (int d = 0; d < depth; ++d) {
        const std::int32_t in = x[r * depth + d];
        const std::int32_t weight = w[u * depth + d];
        if constexpr (sizeof(Activation) == 1) {
          acc += (weight + params.weightsOffset) * (in + params.inputOffset);
        } else {
          // TFLite's 16x8 fully connected ignores the (zero) input offset.
          acc += (weight + params.weightsOffset) * in;
        }
      }
      if (bias) acc += bias[u];
      // Into the gates' Q3.12, saturated to int16.
      std::int32_t scaled;
      if constexpr (sizeof(Bias) == 8) {
        scaled = loupe_requantize_acc_i64(acc, params.multiplier, params.shift, -32768, 32767);
      } else {
        scaled = loupe_requantize_acc_i32(acc, params.multiplier, params.shift, 0, -32768, 32767);
      }
      out[r * units + u] = static_cast<std::int16_t>(scaled);
    }
  }
}

// TFLite Micro's element-wise multiplication: the product requantised like
// an accumulator, offset and clamped.
std::int32_t multiplyElements(std::int16_t a, std::int16_t b, const LstmMulParams& p) {
  return loupe_requantize_acc_i32(std::int32_t{a} * std::int32_t{b}, p.multiplier, p.shift,
                                  p.outputOffset, p.activationMin, p.activationMax);
}

template <typename Activation, typename Bias>
void evalIntegerLstm(const SequenceLstmPlan& p, const ir::Operator& op, TensorStore& store) {
  const Activation* input = store.data<Activation>(op.inputs[kLstmInput]);
  Activation* hidden = store.mutableData<Activation>(op.inputs[kLstmOutputState]);
  std::int16_t* cell = store.mutableData<std::int16_t>(op.inputs[kLstmCellState]);
  Activation* output = store.mutableData<Activation>(op.outputs[0]);
  const int S = p.stateSize;
  std::vector<std::int16_t> gates[4], scratch;
  forEachStep(p, [&](const LstmStepWindow& w) {
    const auto n = static_cast<std::size_t>(w.rows * S);
    scratch.assign(n, 0);
    for (int gate : {kForgetGate, kInputGate, kCellGate, kOutputGate}) {
      gates[gate].assign(n, 0);
      integerFullyConnected(p.inputFc[gate], input + w.inputOffset,
                            store.data<std::int8_t>(op.inputs[kLstmInputToInputWeights + gate]),
                            store.data<Bias>(op.inputs[kLstmInputGateBias + gate]), w.rows,
                            p.inputSize, S, gates[gate].data());
      integerFullyConnected<Activation, Bias>(
          p.recurrentFc[gate], hidden + w.stateOffset,
          store.data<std::int8_t>(op.inputs[kLstmRecurrentToInputWeights + gate]), nullptr, w.rows,
          S, S, scratch.data());
      for (std::size_t i = 0; i < n; ++i) {
        const std::int16_t sum = saturatingAdd16(gates[gate][i], scratch[i]);
        // Gate pre-activations are Q3.12: tanh with scale power -12 is the
        // int16 TANH with multiplier 3 and no shift.
        gates[gate][i] =
            gate == kCellGate ? loupe_lstm_tanh_int16(sum, -12) : loupe_lstm_sigmoid_int16(sum);
      }
    }
    std::int16_t* c = cell + w.stateOffset;
    for (std::size_t i = 0; i < n; ++i) {
      const auto kept = static_cast<std::int16_t>(
          multiplyElements(gates[kForgetGate][i], c[i], p.forgetTimesCell));
      const auto added = static_cast<std::int16_t>(
          multiplyElements(gates[kInputGate][i], gates[kCellGate][i], p.inputTimesCell));
      c[i] = saturatingAdd16(kept, added);
      if (p.cellClip > 0.0f) {
        c[i] = static_cast<std::int16_t>(
            loupe_clamp_i32(c[i], -p.quantizedCellClip, p.quantizedCellClip));
      }
    }
    Activation* h = hidden + w.stateOffset;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int16_t activated = loupe_lstm_tanh_int16(c[i], p.cellStateScalePower);
      h[i] = static_cast<Activation>(
          multiplyElements(activated, gates[kOutputGate][i], p.tanhTimesOutput));
    }
    std::copy(h, h + n, output + w.outputOffset);
  });
}

void evalSequenceLstm(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const SequenceLstmPlan plan = planSequenceLstm(graph, op);
  switch (graph.tensor(op.inputs[kLstmInput]).dtype) {
    case ir::DType::Float32:
      evalFloatLstm(plan, op, store);
      break;
    case ir::DType::Int8:
      evalIntegerLstm<std::int8_t, std::int32_t>(plan, op, store);
      break;
    case ir::DType::Int16:
      evalIntegerLstm<std::int16_t, std::int64_t>(plan, op, store);
      break;
    default:
      break;
  }
}

}  // namespace

extern const Kernel kSequenceLstmKernel{ir::OpType::UnidirectionalSequenceLstm, checkSequenceLstm,
                                        evalSequenceLstm};

}  // namespace loupe::reference
