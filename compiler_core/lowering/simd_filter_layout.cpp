// The filter layout the DSP convolution kernel reads (see
// loupe_dsp_filter_index in loupe/simd_kernels.h, which this follows):
// computed once at compile time so that the kernel walks four channels'
// weights with one pointer.
#include "lowering/simd_lowering.h"

namespace loupe::lowering {

std::vector<std::int8_t> simdFilterLayout(const std::vector<std::int8_t>& rows, int channels,
                                          int length, target::CpuIsa isa) {
  if (isa != target::CpuIsa::Dsp) return rows;
  std::vector<std::int8_t> laid(rows.size());
  const int steps = length / 4, rest = length % 4, grouped = channels / 4 * 4;
  for (int c = 0; c < channels; ++c) {
    const int k = c % 4;
    const std::size_t base = static_cast<std::size_t>(c - k) * static_cast<std::size_t>(length);
    for (int i = 0; i < length; ++i) {
      std::size_t index;
      if (c >= grouped) {
        index = static_cast<std::size_t>(c) * static_cast<std::size_t>(length) +
                static_cast<std::size_t>(i);
      } else if (i < steps * 4) {
        index = base + static_cast<std::size_t>(i / 4 * 16 + k * 4 + i % 4);
      } else {
        index = base + static_cast<std::size_t>(steps * 16 + k * rest + (i - steps * 4));
      }
      laid[index] = rows[static_cast<std::size_t>(c) * static_cast<std::size_t>(length) +
                         static_cast<std::size_t>(i)];
    }
  }
  return laid;
}

}  // namespace loupe::lowering
