// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM models (float32 input and states, int8
// weights) written with the schema's object API: TFLite's own kernel-test
// case (unidirectional_sequence_lstm_test.cc, NoCifgNoPeepholeNoProjection:
// two inputs, four cells, three steps), each weight matrix quantised per
// tensor as round(w * 127 / max|w|). tests/support/hybrid_reference.py reads
// the arrays below to work TFLite's kernel through in float32.
#pragma once

#include <cmath>

#include "symmetric_weights.h"
#include "tflite_model_writer.h"

namespace loupe::test::hybrid_lstm {

using tflite::TensorType;

constexpr std::int32_t kSequenceLstm = 44;
constexpr int kInputs = 2, kCells = 4, kSteps = 3;

// Weights per gate in TFLite's order: input, forget, cell, output.
inline const std::vector<float> kInputToInput = {-0.45018822, -0.02338299, -0.0870589,  -0.34550029,
                                                 0.04266912,  -0.15680569, -0.34856534, 0.43890524};
inline const std::vector<float> kInputToForget = {0.09701663,  0.20334584,  -0.50592935,
                                                  -0.31343272, -0.40032279, 0.44781327,
                                                  0.01387155,  -0.35593212};
inline const std::vector<float> kInputToCell = {-0.50013041, 0.1370284,  0.11810488, 0.2013163,
                                                -0.20583314, 0.44344562, 0.22077113, -0.29909778};
inline const std::vector<float> kInputToOutput = {-0.25065863, -0.28290087, 0.04613829, 0.40525138,
                                                  0.44272184,  0.03897077,  -0.1556896, 0.19487578};
inline const std::vector<float> kRecurrentToInput = {
    -0.0063535,  -0.2042388,  0.31454784,  -0.35746509, 0.28902304, 0.08183324,
    -0.16555229, 0.02286911,  -0.13566875, 0.03034258,  0.48091322, -0.12528998,
    0.24077177,  -0.51332325, -0.33502164, 0.10629296};
inline const std::vector<float> kRecurrentToForget = {
    -0.48684245, -0.06655136, 0.42224967,  0.2112639,   0.27654213, 0.20864892,
    -0.07646349, 0.45877004,  0.00141793,  -0.14609534, 0.36447752, 0.09196436,
    0.28053468,  0.01560611,  -0.20127171, -0.01140004};
inline const std::vector<float> kRecurrentToCell = {
    -0.3407414,  0.24443203,  -0.2078532,  0.26320225,  0.05695659, -0.00123841,
    -0.4744786,  -0.35869038, -0.06418842, -0.13502428, -0.501764,  0.22830659,
    -0.46367589, 0.26016325,  -0.03894562, -0.16368064};
inline const std::vector<float> kRecurrentToOutput = {
    0.43385774,  -0.17194885, 0.2718237,  0.09215671,  0.24107647, -0.39835793,
    0.18212086,  0.01301402,  0.48572797, -0.50656658, 0.20047462, -0.20607421,
    -0.51818722, -0.15390486, 0.0468148,  0.39922136};
inline const std::vector<float> kForgetBias = {1, 1, 1, 1};  // the other biases are 0

inline const std::vector<float> kSequence = {2, 3, 3, 4, 1, 1};
// TFLite's float goldens, which its hybrid test meets within 0.0157651.
inline const std::vector<float> kGolden = {-0.02973187, 0.1229473,  0.20885126, -0.15358765,
                                           -0.03716109, 0.12507336, 0.41193449, -0.20860538,
                                           -0.15053082, 0.09120187, 0.24278517, -0.12222792};

// batches copies of the sequence, time-major [steps, batches, inputs] or
// batch-major [batches, steps, inputs].
inline ir::Graph lstmModel(bool asymmetric, bool timeMajor = true, int batches = 1,
                           float cellClip = 0.0f) {
  test::TfliteModelWriter w;
  tflite::SubGraphT& g = w.subgraph();
  std::vector<std::int32_t> inputs(24, -1);
  const std::vector<std::int32_t> inShape =
      timeMajor ? std::vector<std::int32_t>{kSteps, batches, kInputs}
                : std::vector<std::int32_t>{batches, kSteps, kInputs};
  inputs[0] = w.tensor(g, "input", TensorType::FLOAT32, inShape);
  const std::vector<const std::vector<float>*> weights = {
      &kInputToInput,     &kInputToForget,     &kInputToCell,     &kInputToOutput,
      &kRecurrentToInput, &kRecurrentToForget, &kRecurrentToCell, &kRecurrentToOutput};
  for (std::size_t i = 0; i < weights.size(); ++i) {
    std::vector<float> scale;
    const auto q = quantizeSymmetric(*weights[i], 1, scale);
    const std::int32_t depth = i < 4 ? kInputs : kCells;
    const int t = w.tensor(g, "weights" + std::to_string(i + 1), TensorType::INT8, {kCells, depth},
                           bytesOf(q));
    w.quantize(g, t, scale, {0});
    inputs[1 + i] = t;
  }
  for (int gate = 0; gate < 4; ++gate) {
    const std::vector<float> bias = gate == 1 ? kForgetBias : std::vector<float>(kCells, 0.0f);
    inputs[12 + gate] =
        w.tensor(g, "bias" + std::to_string(gate), TensorType::FLOAT32, {kCells}, bytesOf(bias));
  }
  inputs[18] = w.tensor(g, "output_state", TensorType::FLOAT32, {batches, kCells});
  inputs[19] = w.tensor(g, "cell_state", TensorType::FLOAT32, {batches, kCells});
  for (int slot : {18, 19}) g.tensors[static_cast<std::size_t>(inputs[slot])]->is_variable = true;
  const std::vector<std::int32_t> outShape =
      timeMajor ? std::vector<std::int32_t>{kSteps, batches, kCells}
                : std::vector<std::int32_t>{batches, kSteps, kCells};
  const int output = w.tensor(g, "output", TensorType::FLOAT32, outShape);
  g.inputs = {inputs[0]};
  g.outputs = {output};
  tflite::UnidirectionalSequenceLSTMOptionsT options;
  options.fused_activation_function = tflite::ActivationFunctionType::TANH;
  options.cell_clip = cellClip;
  options.time_major = timeMajor;
  options.asymmetric_quantize_inputs = asymmetric;
  w.op(g, kSequenceLstm, inputs, {output}, options);
  return w.import();
}

}  // namespace loupe::test::hybrid_lstm
