#include "ethosu/window_kernel.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace loupe::ethosu {

NpuKernel windowKernel(const reference::WindowGeometry& g, const NpuFeatureMap& ifm,
                       const NpuFeatureMap& ofm, int height, int width, int strideY, int strideX,
                       int dilationY, int dilationX, bool convolution) {
  // One output row (column): the stride moves no window.
  if (ofm.height == 1) strideY = 1;
  if (ofm.width == 1) strideX = 1;
  if (strideY < 1 || strideY > 3 || strideX < 1 || strideX > 3) {
    throw std::invalid_argument("stride " + std::to_string(strideY) + "x" +
                                std::to_string(strideX) + " is outside the NPU's 1-3");
  }
  if (dilationY < 1 || dilationY > 2 || dilationX < 1 || dilationX > 2) {
    throw std::invalid_argument("dilation " + std::to_string(dilationY) + "x" +
                                std::to_string(dilationX) + " is outside the NPU's 1-2");
  }
  if (g.outHeight != ofm.height || g.outWidth != ofm.width) {
    throw std::invalid_argument("the output given is not the windows' extent");
  }
  NpuKernel k;
  k.height = height, k.width = width;
  k.strideY = strideY, k.strideX = strideX;
  k.dilationY = dilationY, k.dilationX = dilationX;
  const ir::ExplicitPadding padding = reference::explicitPaddingOf(g);
  k.padTop = padding.top;
  k.padLeft = padding.left;
  k.padBottom =
      std::max(0, (ofm.height - 1) * strideY + k.dilatedHeight() - padding.top - ifm.height);
  k.padRight = std::max(0, (ofm.width - 1) * strideX + k.dilatedWidth() - padding.left - ifm.width);
  if (k.padTop > 127 || k.padLeft > 127 || k.padBottom > 255 || k.padRight > 255) {
    throw std::invalid_argument("its padding exceeds the NPU's pad registers");
  }
  if (convolution && (k.dilatedWidth() > 64 || k.dilatedHeight() > 64)) {
    throw std::invalid_argument("its kernel exceeds the NPU's 64x64");
  }
  if (k.dilatedWidth() > 256 || k.dilatedHeight() > 256) {
    throw std::invalid_argument("its window exceeds the NPU's 256x256");
  }
  return k;
}

}  // namespace loupe::ethosu
