// Hybrid BATCH_MATMUL models (float32 lhs, int8 rhs) written with the
// schema's object API: TFLite's own kernel-test cases (batch_matmul_test.cc),
// the rhs quantised as round(w * 127 / max|w|), with the values TFLite
// expects (within its tolerance) and the exact values of its kernel worked
// through in float32 by tests/support/hybrid_reference.py.
#pragma once

#include <cmath>

#include "symmetric_weights.h"
#include "tflite_model_writer.h"

namespace loupe::test::hybrid_bmm {

using tflite::TensorType;

constexpr std::int32_t kBatchMatmul = 126;

struct BmmCase {
  std::vector<std::int32_t> lhsShape;
  std::vector<std::int32_t> rhsShape;
  std::vector<float> rhs;            // float values, quantised per tensor
  std::vector<float> channelScales;  // replace the per-tensor scale (same int8 values)
  bool adjX = false, adjY = false, asymmetric = false;
  std::vector<std::int32_t> outputShape;
};

inline ir::Graph bmmModel(const BmmCase& c) {
  test::TfliteModelWriter w;
  tflite::SubGraphT& g = w.subgraph();
  std::vector<float> scales;
  const std::vector<std::int8_t> q = quantizeSymmetric(c.rhs, 1, scales);
  const int lhs = w.tensor(g, "lhs", TensorType::FLOAT32, c.lhsShape);
  const int rhs = w.tensor(g, "rhs", TensorType::INT8, c.rhsShape, bytesOf(q));
  if (c.channelScales.empty()) {
    w.quantize(g, rhs, scales, {0});
  } else {
    w.quantize(g, rhs, c.channelScales, std::vector<std::int64_t>(c.channelScales.size(), 0));
    g.tensors[static_cast<std::size_t>(rhs)]->quantization->quantized_dimension =
        static_cast<std::int32_t>(c.rhsShape.size()) - (c.adjY ? 2 : 1);
  }
  const int output = w.tensor(g, "output", TensorType::FLOAT32, c.outputShape);
  g.inputs = {lhs};
  g.outputs = {output};
  tflite::BatchMatMulOptionsT options;
  options.adj_x = c.adjX;
  options.adj_y = c.adjY;
  options.asymmetric_quantize_inputs = c.asymmetric;
  w.op(g, kBatchMatmul, {lhs, rhs}, {output}, options);
  return w.import();
}

// Weights 1..10, each in a row of three: [10, 3].
inline std::vector<float> rowsOfThree() {
  std::vector<float> w;
  for (int v = 1; v <= 10; ++v) w.insert(w.end(), 3, static_cast<float>(v));
  return w;
}

// Four rows of ten: two from TFLite's first batch, two from its second.
inline const std::vector<float> kInput = {
    1,  2,  3,  4,  5,  6,  7,  8,  -9,  -10, 1,  2,  3,  4,  5,  6,  7,  -8,  9,  -10,
    11, 12, 13, 14, 15, 16, 17, 18, -19, -20, 11, 12, 13, 14, 15, 16, 17, -18, 19, -20};

}  // namespace loupe::test::hybrid_bmm
