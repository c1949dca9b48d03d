// How the GUI writes core values as text: grouped numbers, tensor types and
// tensor names. One place, so every view spells a shape or a byte count the
// same way (and the same way `loupec info` does).
#pragma once

#include <QString>
#include <cstdint>

#include "ir/tensor.h"

namespace loupe::models {

// 1234567 -> "1,234,567" (independent of the user's locale, like loupec).
QString groupedNumber(std::int64_t value);

// "int8[1,49,10,1]"
QString tensorShapeText(const ir::Tensor& tensor);

// "q(0.584702909, 83)", "per-channel: 64 scales along axis 0", or "none".
QString quantizationText(const ir::Quantization& quantization);

// Converters join the names of every folded layer into one tensor name; keep
// both ends so the row stays readable (the full name goes in the tool tip).
QString shortTensorName(const std::string& name, int keep = 24);

}  // namespace loupe::models
