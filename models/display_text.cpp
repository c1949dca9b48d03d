#include "models/display_text.h"

#include "ir/graph_printer.h"

namespace loupe::models {

QString groupedNumber(std::int64_t value) {
  return QString::fromStdString(ir::groupDigits(value));
}

QString measuredTimeText(double time, const QString& unit) {
  auto scaled = [time](double by, const QString& suffix) {
    const double value = time / by;
    return QString::number(value, 'f', value >= 100 ? 0 : (value >= 10 ? 1 : 2)) + suffix;
  };
  if (unit == QStringLiteral("ns")) {
    if (time >= 1e6) return scaled(1e6, QStringLiteral(" ms"));
    if (time >= 1e3) return scaled(1e3, QStringLiteral(" \u00b5s"));
    return QStringLiteral("%1 ns").arg(groupedNumber(static_cast<std::int64_t>(time)));
  }
  const QString name = unit == QStringLiteral("instructions") ? QStringLiteral("instr.") : unit;
  if (time >= 1e6) return scaled(1e6, QStringLiteral(" M ") + name);
  if (time >= 1e4) return scaled(1e3, QStringLiteral(" k ") + name);
  return groupedNumber(static_cast<std::int64_t>(time)) + QLatin1Char(' ') + name;
}

QString utilizationText(double utilization) {
  return QStringLiteral("%1 %").arg(100.0 * utilization, 0, 'f', 1);
}

QString encodedWeightsText(const target::OperatorEstimate& estimate) {
  if (estimate.rawWeightBytes <= 0) return {};
  return groupedNumber(estimate.encodedWeightBytes) + QStringLiteral(" / ") +
         groupedNumber(estimate.rawWeightBytes);
}

QString tensorShapeText(const ir::Tensor& tensor) {
  return QString::fromStdString(std::string(ir::dtypeName(tensor.dtype)) +
                                ir::shapeToString(tensor.shape));
}

QString quantizationText(const ir::Quantization& quantization) {
  if (!quantization.isQuantized()) return QStringLiteral("none");
  if (quantization.isPerChannel()) {
    return QStringLiteral("per-channel: %1 scales along axis %2")
        .arg(quantization.scales.size())
        .arg(quantization.quantizedDimension);
  }
  return QString::fromStdString(ir::quantizationToString(quantization));
}

QString shortTensorName(const std::string& name, int keep) {
  const QString full = QString::fromStdString(name);
  if (full.size() <= 2 * keep + 1) return full;
  return full.left(keep) + QChar(0x2026) + full.right(keep);
}

}  // namespace loupe::models
