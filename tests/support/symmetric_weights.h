// Weights quantised as TFLite's test utilities quantise hybrid weights
// (SymmetricQuantizeFloats): per row of `values` (rows = 1: per tensor), the
// scale max|x| / 127 and each value round(x * 127 / max|x|). The hybrid
// models of the tests and tests/support/hybrid_reference.py use this rule.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace loupe::test {

inline std::vector<std::int8_t> quantizeSymmetric(const std::vector<float>& values, int rows,
                                                  std::vector<float>& scales) {
  const std::size_t depth = values.size() / static_cast<std::size_t>(rows);
  std::vector<std::int8_t> q;
  scales.clear();
  for (int r = 0; r < rows; ++r) {
    float top = 0.0f;
    for (std::size_t i = 0; i < depth; ++i) top = std::max(top, std::fabs(values[r * depth + i]));
    scales.push_back(top / 127.0f);
    for (std::size_t i = 0; i < depth; ++i) {
      q.push_back(static_cast<std::int8_t>(std::lround(values[r * depth + i] * 127.0 / top)));
    }
  }
  return q;
}

}  // namespace loupe::test
