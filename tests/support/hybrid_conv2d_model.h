// Hybrid CONV_2D models (float32 activations, int8 filter) written with the
// schema's object API: TFLite's own kernel-test cases (conv_test.cc), each
// filter row quantised as round(f * 127 / max|row|), with the values TFLite
// expects (within its tolerance) and the exact values of its optimized
// kernels worked through in float32 by tests/support/hybrid_reference.py.
#pragma once

#include <cmath>

#include "symmetric_weights.h"
#include "tflite_model_writer.h"

namespace loupe::test::hybrid_conv {

using tflite::TensorType;

constexpr std::int32_t kConv2D = 3;

struct ConvCase {
  std::vector<std::int32_t> inputShape;   // NHWC
  std::vector<std::int32_t> filterShape;  // OHWI
  std::vector<float> filter;              // float values, quantised per row or per tensor
  bool perChannel = false;
  std::vector<float> bias;
  int strideH = 2, strideW = 2, dilationH = 1, dilationW = 1;
  tflite::Padding padding = tflite::Padding::VALID;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;
  std::vector<std::int32_t> outputShape;
  int scaleCopies = 1;  // a per-tensor scale written this many times
};

inline ir::Graph convModel(const ConvCase& c) {
  test::TfliteModelWriter w;
  tflite::SubGraphT& g = w.subgraph();
  std::vector<float> scales;
  const std::vector<std::int8_t> q =
      quantizeSymmetric(c.filter, c.perChannel ? c.filterShape[0] : 1, scales);
  const int input = w.tensor(g, "input", TensorType::FLOAT32, c.inputShape);
  const int filter = w.tensor(g, "filter", TensorType::INT8, c.filterShape, bytesOf(q));
  if (!c.perChannel) scales.assign(static_cast<std::size_t>(c.scaleCopies), scales[0]);
  w.quantize(g, filter, scales, std::vector<std::int64_t>(scales.size(), 0));
  const int bias = w.tensor(g, "bias", TensorType::FLOAT32,
                            {static_cast<std::int32_t>(c.bias.size())}, bytesOf(c.bias));
  const int output = w.tensor(g, "output", TensorType::FLOAT32, c.outputShape);
  g.inputs = {input};
  g.outputs = {output};
  tflite::Conv2DOptionsT options;
  options.padding = c.padding;
  options.stride_h = c.strideH;
  options.stride_w = c.strideW;
  options.dilation_h_factor = c.dilationH;
  options.dilation_w_factor = c.dilationW;
  options.fused_activation_function = c.activation;
  w.op(g, kConv2D, {input, filter, bias}, {output}, options);
  return w.import();
}

// conv_test.cc's SimpleTestHybridInt8: two batches of 2x4x1, three 2x2
// filters, stride 2, VALID.
inline const std::vector<float> kSimpleInput = {1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4};
inline const std::vector<float> kSimpleFilter = {1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1};
inline ConvCase simpleCase() {
  return {{2, 2, 4, 1},
          {3, 2, 2, 1},
          kSimpleFilter,
          false,
          {1, 2, 3},
          2,
          2,
          1,
          1,
          tflite::Padding::VALID,
          tflite::ActivationFunctionType::NONE,
          {2, 1, 2, 3}};
}
inline const std::vector<float> kSimpleExpected = {18, 2, 5, 18, 2, 5, 17, 4, 3, 37, 4, 3};
inline const std::vector<float> kSimpleExact = {18.031681060791016f,
                                                2.0f,
                                                4.999876022338867f,
                                                18.031681060791016f,
                                                2.0f,
                                                4.999876022338867f,
                                                17.15772819519043f,
                                                4.031620025634766f,
                                                3.0f,
                                                37.031494140625f,
                                                4.031620025634766f,
                                                3.0f};

// Its two-channel inputs (each value halved over two channels).
inline const std::vector<float> kChannelsInput = {
    0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1,   1,   1, 1, 1,   1,   1, 1,
    0.5, 0.5, 1,   1,   1.5, 1.5, 2,   2,   0.5, 0.5, 1, 1, 1.5, 1.5, 2, 2};
inline const std::vector<float> kChannelsFilter = {1,  1,  2, 2, 3,  3,  4,  4,  -1, -1, 1, 1,
                                                   -1, -1, 1, 1, -1, -1, -1, -1, 1,  1,  1, 1};

}  // namespace loupe::test::hybrid_conv
