// The windows of sliding-window operators, for the convolution and pooling
// lowerings: the implicit padding, in elements before and after the input in
// each spatial dimension, and the runs of output positions whose windows are
// clipped alike. It comes from reference::windowGeometry, so the generated loops
// walk exactly the windows the reference kernels walk (explicit padding when
// legalize set one, SAME/VALID otherwise).
#pragma once

#include <vector>

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

// Consecutive output positions along one axis whose windows have the same
// filter taps inside the input: taps [tapBegin, tapEnd). A complete run has
// every tap inside (the interior); border runs are the clipped positions
// next to the edges, usually one position each.
struct WindowRun {
  int outBegin = 0;
  int outCount = 0;
  int tapBegin = 0;
  int tapEnd = 0;
  bool complete = false;
};

// The runs covering output positions [0, outSize) in order.
std::vector<WindowRun> windowRuns(int outSize, int inSize, int filterSize, int stride, int dilation,
                                  int padBefore);

}  // namespace loupe::lowering
