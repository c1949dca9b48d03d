#include "deploy/validation_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace loupe::deploy {

namespace {

template <typename T>
double load(const std::uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return static_cast<double>(value);
}

// IEEE 754 binary16: 1 sign, 5 exponent and 10 fraction bits.
double halfValue(const std::uint8_t* bytes) {
  std::uint16_t bits;
  std::memcpy(&bits, bytes, 2);
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(fraction, -24);  // subnormal
  } else if (exponent == 0x1f) {
    magnitude = fraction == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(fraction + 1024, exponent - 25);
  }
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double rawValue(ir::DType type, const std::uint8_t* bytes) {
  switch (type) {
    case ir::DType::Float32:
      return load<float>(bytes);
    case ir::DType::Float16:
      return halfValue(bytes);
    case ir::DType::Int8:
      return load<std::int8_t>(bytes);
    case ir::DType::UInt8:
      return load<std::uint8_t>(bytes);
    case ir::DType::Int16:
      return load<std::int16_t>(bytes);
    case ir::DType::UInt16:
      return load<std::uint16_t>(bytes);
    case ir::DType::Int32:
      return load<std::int32_t>(bytes);
    case ir::DType::UInt32:
      return load<std::uint32_t>(bytes);
    case ir::DType::Int64:
      return load<std::int64_t>(bytes);
    case ir::DType::Bool:
      return bytes[0] != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

// Which (scale, zero point) of the tensor's quantisation applies to each
// element: one for all, or one per index along the quantized dimension.
class QuantizationLookup {
 public:
  explicit QuantizationLookup(const ir::Tensor& tensor) : quantization_(tensor.quantization) {
    if (!quantization_.isPerChannel()) return;
    const auto dimension = static_cast<std::size_t>(quantization_.quantizedDimension);
    if (dimension >= tensor.shape.size() ||
        static_cast<std::size_t>(tensor.shape[dimension]) != quantization_.scales.size() ||
        quantization_.zeroPoints.size() != quantization_.scales.size()) {
      throw std::invalid_argument("tensor '" + tensor.name + "' has " +
                                  std::to_string(quantization_.scales.size()) +
                                  " scales that do not match its quantized dimension " +
                                  std::to_string(quantization_.quantizedDimension));
    }
    for (std::size_t d = dimension + 1; d < tensor.shape.size(); ++d) {
      innerElements_ *= tensor.shape[d];
    }
  }

  double realValue(std::int64_t element, double stored) const {
    const std::size_t channel =
        quantization_.isPerChannel()
            ? static_cast<std::size_t>((element / innerElements_) %
                                       static_cast<std::int64_t>(quantization_.scales.size()))
            : 0;
    const double zeroPoint =
        channel < quantization_.zeroPoints.size() ? quantization_.zeroPoints[channel] : 0;
    return static_cast<double>(quantization_.scales[channel]) * (stored - zeroPoint);
  }

 private:
  const ir::Quantization& quantization_;
  std::int64_t innerElements_ = 1;
};

}  // namespace

std::vector<double> tensorValues(const ir::Tensor& tensor, std::span<const std::uint8_t> bytes,
                                 const char* role) {
  if (static_cast<std::int64_t>(bytes.size()) != tensor.byteSize()) {
    throw std::invalid_argument(std::string(role) + " values of '" + tensor.name + "' have " +
                                std::to_string(bytes.size()) + " bytes, the tensor needs " +
                                std::to_string(tensor.byteSize()));
  }
  const QuantizationLookup quantization(tensor);
  const bool quantized = tensor.quantization.isQuantized();
  const std::size_t elementSize = ir::dtypeSize(tensor.dtype);
  std::vector<double> values(static_cast<std::size_t>(tensor.elementCount()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double stored = rawValue(tensor.dtype, bytes.data() + i * elementSize);
    values[i] = quantized ? quantization.realValue(static_cast<std::int64_t>(i), stored) : stored;
  }
  return values;
}

ValidationMetrics compareValues(std::span<const double> expected, std::span<const double> actual) {
  if (expected.size() != actual.size()) {
    throw std::invalid_argument("cannot compare " + std::to_string(actual.size()) +
                                " values with " + std::to_string(expected.size()));
  }
  ValidationMetrics metrics;
  metrics.elements = static_cast<std::int64_t>(expected.size());
  double maxAbsolute = 0, sumAbsolute = 0, sumSquaredError = 0;
  double sumSquaredExpected = 0, sumSquaredActual = 0, dot = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(expected[i]) || !std::isfinite(actual[i])) return metrics;
    const double error = actual[i] - expected[i];
    maxAbsolute = std::max(maxAbsolute, std::abs(error));
    sumAbsolute += std::abs(error);
    sumSquaredError += error * error;
    sumSquaredExpected += expected[i] * expected[i];
    sumSquaredActual += actual[i] * actual[i];
    dot += expected[i] * actual[i];
  }
  if (metrics.elements == 0) return metrics;

  // Finite values can still overflow a sum of squares; such a metric is
  // left empty like any other without a finite value.
  const auto finite = [](double value) -> std::optional<double> {
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  };
  const auto count = static_cast<double>(metrics.elements);
  metrics.maxAbsoluteError = finite(maxAbsolute);
  metrics.meanAbsoluteError = finite(sumAbsolute / count);
  metrics.rootMeanSquareError = finite(std::sqrt(sumSquaredError / count));
  if (sumSquaredExpected > 0) {
    metrics.l2RelativeError = finite(std::sqrt(sumSquaredError) / std::sqrt(sumSquaredExpected));
  }
  if (sumSquaredExpected > 0 && sumSquaredActual > 0) {
    // One square root of the product keeps identical vectors at exactly 1
    // (two roots multiplied round below it); a product too large for a
    // double falls back to the two roots.
    const double product = sumSquaredExpected * sumSquaredActual;
    const double norms = std::isfinite(product)
                             ? std::sqrt(product)
                             : std::sqrt(sumSquaredExpected) * std::sqrt(sumSquaredActual);
    // Rounding can still take parallel vectors a hair past 1.
    const double cosine = dot / norms;
    if (const auto value = finite(cosine)) metrics.cosineSimilarity = std::clamp(*value, -1.0, 1.0);
  }
  return metrics;
}

ValidationMetrics compareTensorValues(const ir::Tensor& tensor,
                                      std::span<const std::uint8_t> expected,
                                      std::span<const std::uint8_t> actual) {
  ValidationMetrics metrics = compareValues(tensorValues(tensor, expected, "the expected"),
                                            tensorValues(tensor, actual, "the actual"));
  const std::size_t elementSize = ir::dtypeSize(tensor.dtype);
  std::int64_t differing = 0;
  for (std::size_t offset = 0; offset < expected.size(); offset += elementSize) {
    if (std::memcmp(expected.data() + offset, actual.data() + offset, elementSize) != 0) {
      ++differing;
    }
  }
  metrics.differingElements = differing;
  return metrics;
}

nlohmann::json validationMetricsJson(const ValidationMetrics& metrics) {
  const auto valueOrNull = [](const auto& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  return {{"elements", metrics.elements},
          {"differing_elements", valueOrNull(metrics.differingElements)},
          {"max_absolute_error", valueOrNull(metrics.maxAbsoluteError)},
          {"mean_absolute_error", valueOrNull(metrics.meanAbsoluteError)},
          {"root_mean_square_error", valueOrNull(metrics.rootMeanSquareError)},
          {"l2_relative_error", valueOrNull(metrics.l2RelativeError)},
          {"cosine_similarity", valueOrNull(metrics.cosineSimilarity)}};
}

std::string metricText(const std::optional<double>& value) {
  if (!value) return "n/a";
  std::ostringstream text;
  text.precision(6);
  text << *value;
  return text.str();
}

std::string validationMetricsSummary(const ValidationMetrics& metrics) {
  return "max abs error " + metricText(metrics.maxAbsoluteError) + " \u00b7 MAE " +
         metricText(metrics.meanAbsoluteError) + " \u00b7 RMSE " +
         metricText(metrics.rootMeanSquareError) + " \u00b7 L2 relative " +
         metricText(metrics.l2RelativeError) + " \u00b7 cosine " +
         metricText(metrics.cosineSimilarity);
}

}  // namespace loupe::deploy
