#include "lowering/window_padding.h"

#include <algorithm>

namespace loupe::lowering {

namespace {

// Floor of a / b for b > 0.
int floorDiv(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

std::vector<WindowRun> windowRuns(int outSize, int inSize, int filterSize, int stride, int dilation,
                                  int padBefore) {
  std::vector<WindowRun> runs;
  for (int o = 0; o < outSize; ++o) {
    const int origin = o * stride - padBefore;
    // Taps k with 0 <= origin + k * dilation <= inSize - 1.
    int begin = origin >= 0 ? 0 : floorDiv(-origin + dilation - 1, dilation);
    int end = floorDiv(inSize - 1 - origin, dilation) + 1;
    begin = std::clamp(begin, 0, filterSize);
    end = std::clamp(end, 0, filterSize);
    if (end <= begin) begin = end = 0;  // no tap inside: one form for all such positions
    if (!runs.empty() && runs.back().tapBegin == begin && runs.back().tapEnd == end) {
      ++runs.back().outCount;
      continue;
    }
    runs.push_back({o, 1, begin, end, begin == 0 && end == filterSize});
  }
  return runs;
}

}  // namespace loupe::lowering
