// A hybrid FULLY_CONNECTED model (float32 activations, int8 weights) written
// with the schema's object API: TFLite's own kernel-test case, weights 1..10
// per unit quantised with scale 10/127, two batches of ten inputs, for the
// hybrid tests on the host and on the boards.
#pragma once

#include <cmath>

#include "tflite_model_writer.h"

namespace loupe::test::hybrid {

using tflite::TensorType;

constexpr std::int32_t kFullyConnected = 9;

struct HybridCase {
  bool asymmetric = false;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  std::vector<float> bias = {1, 2, 3};
  std::vector<float> perChannelScales;  // empty: one scale, 10 / 127
};

inline ir::Graph hybridModel(const HybridCase& c) {
  test::TfliteModelWriter w;
  tflite::SubGraphT& g = w.subgraph();
  std::vector<std::int8_t> weights;
  for (int unit = 0; unit < 3; ++unit) {
    for (int v = 1; v <= 10; ++v) {
      weights.push_back(static_cast<std::int8_t>(std::lround(v * 127.0 / 10.0)));
    }
  }
  const int input = w.tensor(g, "input", TensorType::FLOAT32, {2, 10});
  const int filter = w.tensor(g, "weights", TensorType::INT8, {3, 10}, bytesOf(weights));
  if (c.perChannelScales.empty()) {
    w.quantize(g, filter, {10.0f / 127.0f}, {0});
  } else {
    w.quantize(g, filter, c.perChannelScales,
               std::vector<std::int64_t>(c.perChannelScales.size(), 0));
  }
  const int bias = w.tensor(g, "bias", TensorType::FLOAT32, {3}, bytesOf(c.bias));
  const int output = w.tensor(g, "output", TensorType::FLOAT32, {2, 3});
  g.inputs = {input};
  g.outputs = {output};
  tflite::FullyConnectedOptionsT options;
  options.fused_activation_function = c.activation;
  options.asymmetric_quantize_inputs = c.asymmetric;
  w.op(g, kFullyConnected, {input, filter, bias}, {output}, options);
  return w.import();
}

inline const std::vector<float> kInput = {1, 2, 3, 4, 5, 6, 7, 8,  -9, -10,  // b = 0
                                          1, 2, 3, 4, 5, 6, 7, -8, 9,  -10};
inline const std::vector<float> kExpected = {24, 25, 26, 58, 59, 60};

// TFLite's portable kernel worked through in float32 by hand (a Python
// emulation, one rounding per step) for kInput, bias {1, 2, 3}.
inline const std::vector<float> kSymmetricOutput = {25.248247146606445f, 26.248247146606445f,
                                                    27.248247146606445f, 57.38911056518555f,
                                                    58.38911056518555f,  59.38911056518555f};
inline const std::vector<float> kAsymmetricOutput = {24.633163452148438f, 25.633163452148438f,
                                                     26.633163452148438f, 58.43708801269531f,
                                                     59.43708801269531f,  60.43708801269531f};

}  // namespace loupe::test::hybrid
