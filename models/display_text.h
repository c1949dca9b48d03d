// How the GUI writes core values as text: grouped numbers, tensor types and
// tensor names. One place, so every view spells a shape or a byte count the
// same way (and the same way `loupec info` does).
#pragma once

#include <QString>
#include <cstdint>

#include "ir/tensor.h"
#include "target/operator_estimate.h"

namespace loupe::models {

// 1234567 -> "1,234,567" (independent of the user's locale, like loupec).
QString groupedNumber(std::int64_t value);

// A measured time in a profile's unit, short: ns become "850 ns", "3.4 µs"
// or "1.23 ms"; instructions "912 instr.", "45.1 k instr." or "1.23 M instr.".
QString measuredTimeText(double time, const QString& unit);

// "12.0 %" for a target estimate's utilisation (0..1).
QString utilizationText(double utilization);

// "4,016 / 4,096": an estimate's encoded and raw weight bytes; empty when the
// operator has no weights.
QString encodedWeightsText(const target::OperatorEstimate& estimate);

// "int8[1,49,10,1]"
QString tensorShapeText(const ir::Tensor& tensor);

// "q(0.584702909, 83)", "per-channel: 64 scales along axis 0", or "none".
QString quantizationText(const ir::Quantization& quantization);

// Converters join the names of every folded layer into one tensor name; keep
// both ends so the row stays readable (the full name goes in the tool tip).
QString shortTensorName(const std::string& name, int keep = 24);

}  // namespace loupe::models
