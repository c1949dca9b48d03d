// The implicit padding of a sliding-window operator, in elements before and
// after the input in each spatial dimension, for the convolution and pooling
// lowerings. It comes from reference::windowGeometry, so the generated loops
// walk exactly the windows the reference kernels walk (explicit padding when
// legalize set one, SAME/VALID otherwise).
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
inline WindowPadding windowPadding(const reference::WindowGeometry& g) {
  return {g.padHeight, g.padHeight + g.padHeightOffset, g.padWidth, g.padWidth + g.padWidthOffset};
}

inline WindowPadding windowPadding(const ir::Pool2DAttrs& attrs, int inHeight, int inWidth) {
  return windowPadding(reference::windowGeometry(attrs, inHeight, inWidth));
}

// CONV_2D and DEPTHWISE_CONV_2D (Attrs is Conv2DAttrs or DepthwiseConv2DAttrs).
template <typename Attrs>
WindowPadding windowPadding(const Attrs& attrs, int inHeight, int inWidth, int filterHeight,
                            int filterWidth) {
  return windowPadding(
      reference::windowGeometry(attrs, inHeight, inWidth, filterHeight, filterWidth));
}

}  // namespace loupe::lowering
