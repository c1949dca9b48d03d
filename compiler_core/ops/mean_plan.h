// MEAN as TFLite Micro's reduce kernel evaluates it: which axes are reduced
// and which of its two arithmetics applies. Derived once from the operands
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
  // int8/int16, whatever the quantisations (TFLite Micro has no special
  // case for equal ones): int32 sum less input zero point * count,
  // requantised in fixed point with 1/count folded into the multiplier,
  // plus the output zero point, clamped (loupe/quantized_mean.h).
  Requantize,
};

struct MeanPlan {
  std::vector<int> axes;          // reduced axes, non-negative, without duplicates
  std::int64_t reducedCount = 1;  // input elements per output element
  MeanArithmetic arithmetic = MeanArithmetic::Float;
  // Requantize: the multiplier and shift of input scale / output scale with
  // 1/reducedCount folded in, and input zero point * reducedCount wrapped to
  // int32.
  std::int32_t multiplier = 0;
  int shift = 0;
  std::int32_t zeroPointSum = 0;
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
