// MEAN as TFLite Micro's reduce kernel evaluates it: which axes are reduced
// and which of its three arithmetics applies. Derived once from the operands
// and quantisation; shared by the reference kernel and the code generator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace loupe::reference {

enum class MeanArithmetic {
  // float32: float sum in input order, divided by the element count.
  Float,
  // int8/int16 with identical input and output quantisation: int32 sum of the
  // raw values, C division by the count (truncates towards zero).
  IntegerDivision,
  // int8/int16 otherwise: int32 sum, then in float
  // round(sum / count * scale + bias) + output zero point, clamped.
  Requantize,
};

struct MeanPlan {
  std::vector<int> axes;          // reduced axes, non-negative, without duplicates
  std::int64_t reducedCount = 1;  // input elements per output element
  MeanArithmetic arithmetic = MeanArithmetic::Float;
  float scale = 1.0f;  // input scale / output scale (Requantize)
  float bias = 0.0f;   // -input zero point * scale (Requantize)
  std::int32_t outputZeroPoint = 0;
};

// TFLite Micro evaluates at most two distinct reduced axes.
inline constexpr int kMeanMaxReducedAxes = 2;

struct MeanPlanResult {
  MeanPlan plan;
  std::optional<std::string> error;
};

MeanPlanResult planMean(const ir::Tensor& input, const ir::Tensor& output,
                        const std::vector<std::int64_t>& axisValues);

}  // namespace loupe::reference
