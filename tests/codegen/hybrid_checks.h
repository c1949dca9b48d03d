// What the hybrid operator tests share: one run of a float model through the
// reference interpreter and generated C (which must agree byte for byte), and
// comparing its floats with TFLite's expected values within a tolerance.
#pragma once

#include <QByteArray>

#include <cmath>
#include <vector>

#include "codegen_checks.h"
#include "tflite_model_writer.h"

namespace loupe::test::hybrid_checks {

// The reference's output, after checking the generated C gives its bytes;
// empty when it does not.
inline std::vector<float> run(const ir::Graph& graph, const std::vector<float>& input) {
  const std::vector<Bytes> inputs = {bytesOf(input)};
  const auto reference = runReference(graph, inputs);
  const auto generated = runGeneratedC(graph, inputs);
  if (generated != reference) return {};
  return valuesOf<float>(reference.at(0));
}

inline bool near(const std::vector<float>& actual, const std::vector<float>& expected,
                 float error) {
  if (actual.size() != expected.size()) return false;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (std::fabs(actual[i] - expected[i]) > error) return false;
  }
  return true;
}

// The values with nine significant digits, for failure messages.
inline QByteArray text(const std::vector<float>& values) {
  QByteArray out;
  for (float v : values) out += QByteArray::number(v, 'g', 9) + ' ';
  return out;
}

}  // namespace loupe::test::hybrid_checks
