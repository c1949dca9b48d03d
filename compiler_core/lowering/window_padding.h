// The implicit padding of a sliding-window operator, in elements before and
// after the input in each spatial dimension. This is the one place a lowering
// derives it from the attributes, so an explicit padding in the attributes
// (which overrides SAME/VALID) needs changing here only.
#pragma once

#include "ir/attributes.h"
#include "reference/quantized_params.h"

namespace loupe::lowering {

struct WindowPadding {
  int top = 0, bottom = 0, left = 0, right = 0;
};

// The explicit padding when the attributes carry one (legalize sets it),
// otherwise TFLite's padding for SAME/VALID, where the odd element of an odd
// total goes after the input — the geometry the reference kernels use.
inline WindowPadding windowPadding(const ir::Pool2DAttrs& attrs, int inHeight, int inWidth) {
  const reference::WindowGeometry g = reference::windowGeometry(attrs, inHeight, inWidth);
  return {g.padHeight, g.padHeight + g.padHeightOffset, g.padWidth, g.padWidth + g.padWidthOffset};
}

}  // namespace loupe::lowering
