// The spacing of a chart axis's ticks, shared by the charts that draw bytes
// against steps (the Memory Plan's timeline, the NPU regions' map).
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <cmath>

namespace loupe::views {

// A round tick spacing (1, 2 or 5 times a power of ten) giving about `ticks`
// ticks over `range`.
inline qint64 roundTickStep(qint64 range, int ticks) {
  const double raw = static_cast<double>(range) / std::max(ticks, 1);
  const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return std::max<qint64>(1, static_cast<qint64>(m * power));
  }
  return static_cast<qint64>(10 * power);
}

}  // namespace loupe::views
