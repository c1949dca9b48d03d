// How far a model's actual values are from the expected ones, as numbers
// rather than a verdict: the metrics `loupec validate` prints per output and,
// against a float model, per layer (max absolute error, MAE, RMSE, L2
// relative error, cosine similarity). Quantized tensors are compared on
// their real values, scale * (q - zero_point), so the numbers are in the
// units of the float model they approximate; other tensors on their raw
// values.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/tensor.h"

namespace loupe::deploy {

struct ValidationMetrics {
  std::int64_t elements = 0;
  // Elements whose stored bytes differ (for float32, -0 against +0 counts
  // here but adds nothing to the errors); empty where the two sides are not
  // stored alike, as a float layer against a quantized one.
  std::optional<std::int64_t> differingElements;

  // A metric is empty (printed "n/a", null in JSON) where it has no finite
  // value: no elements, a NaN or infinity among the values, or, for the two
  // relative metrics, a zero norm in the denominator. An all-zero expected
  // vector thus leaves the L2 relative error empty, and cosine similarity is
  // empty when either vector is all zeros: there is no direction to compare.
  std::optional<double> maxAbsoluteError;
  std::optional<double> meanAbsoluteError;
  std::optional<double> rootMeanSquareError;
  std::optional<double> l2RelativeError;   // ||actual - expected||2 / ||expected||2
  std::optional<double> cosineSimilarity;  // in [-1, 1]
};

// The elements of a raw little-endian buffer of `tensor`: real values when
// it is quantized (per-channel scales follow its quantized dimension), raw
// values otherwise. Throws std::invalid_argument when the buffer is not
// exactly the tensor's byte size; `role` ("the expected") names it.
std::vector<double> tensorValues(const ir::Tensor& tensor, std::span<const std::uint8_t> bytes,
                                 const char* role = "the");

// The metrics of `actual` against `expected`, element by element; throws
// std::invalid_argument when their lengths differ. differingElements stays
// empty: values say nothing about storage.
ValidationMetrics compareValues(std::span<const double> expected, std::span<const double> actual);

// Two buffers of the same tensor: compareValues on their tensorValues, and
// the count of elements whose bytes differ.
ValidationMetrics compareTensorValues(const ir::Tensor& tensor,
                                      std::span<const std::uint8_t> expected,
                                      std::span<const std::uint8_t> actual);

// {"elements", "differing_elements", "max_absolute_error",
// "mean_absolute_error", "root_mean_square_error", "l2_relative_error",
// "cosine_similarity"}, an empty metric as null.
nlohmann::json validationMetricsJson(const ValidationMetrics& metrics);

// A metric for people: six significant digits, or "n/a" when empty.
std::string metricText(const std::optional<double>& value);

// One line of the error metrics: "max abs error 0.0039 · MAE 0.0002 · RMSE
// 0.0011 · L2 relative 0.004 · cosine 0.99999" (what the Deploy panel shows
// under each output's verdict).
std::string validationMetricsSummary(const ValidationMetrics& metrics);

}  // namespace loupe::deploy
