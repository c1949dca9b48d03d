// STRIDED_SLICE as TFLite Micro evaluates it: the begin/end/strides operands
// and the masks are turned, once, into one (start, stop, stride) range per
// axis of the input padded to five dimensions; evaluation walks those ranges.
// Shared by the reference kernel and the code generator.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/tensor.h"

namespace loupe::reference {

inline constexpr int kStridedSliceMaxRank = 5;

struct StridedSliceAxisRange {
  std::int32_t start = 0;
  std::int32_t stop = 1;  // exclusive, in the direction of `stride`
  std::int32_t stride = 1;
};

struct StridedSlicePlan {
  // The input shape with leading 1s up to five dimensions.
  std::array<std::int32_t, kStridedSliceMaxRank> inputShape{};
  std::array<StridedSliceAxisRange, kStridedSliceMaxRank> axes{};
};

// The output shape TFLite Micro's Prepare expects (shrunk axes removed), or
// the reason the operands are invalid (zero stride, wrong lengths, masks
// TFLite Micro does not implement).
struct StridedSliceShapeResult {
  ir::Shape shape;
  std::optional<std::string> error;
};
StridedSliceShapeResult stridedSliceOutputShape(const ir::Shape& inputShape,
                                                const std::vector<std::int32_t>& begin,
                                                const std::vector<std::int32_t>& end,
                                                const std::vector<std::int32_t>& strides,
                                                const ir::StridedSliceAttrs& attrs);

// The per-axis ranges TFLite Micro's reference StridedSlice iterates over.
StridedSlicePlan planStridedSlice(const ir::Shape& inputShape,
                                  const std::vector<std::int32_t>& begin,
                                  const std::vector<std::int32_t>& end,
                                  const std::vector<std::int32_t>& strides,
                                  const ir::StridedSliceAttrs& attrs);

}  // namespace loupe::reference
