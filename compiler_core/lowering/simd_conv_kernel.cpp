// The convolution kernel of each instruction set (CONV_2D and
// FULLY_CONNECTED call the same kernels): its intrinsic, and the filter
// layout it reads. The DSP kernel reads four channels' weights with one
// pointer (the layout described in loupe/simd_kernels.h above
// loupe_conv_pixel_s8_thumb), re-laid out here once at compile time; the
// plain Thumb kernel its own (lowering/thumb_conv_layout.cpp).
#include "lowering/simd_lowering.h"
#include "lowering/thumb_conv_layout.h"

namespace loupe::lowering {

bool hasInt8KernelOperands(const ir::Tensor& input, const ir::Tensor& filter,
                           const ir::Tensor* bias, const ir::Tensor& output) {
  return input.dtype == ir::DType::Int8 && filter.dtype == ir::DType::Int8 &&
         output.dtype == ir::DType::Int8 && filter.isConstant &&
         (bias == nullptr || (bias->dtype == ir::DType::Int32 && bias->isConstant));
}

std::string_view convKernelName(target::CpuIsa isa) {
  switch (isa) {
    case target::CpuIsa::Mve:
      return "loupe.mve.conv_pixel_s8";
    case target::CpuIsa::Dsp:
      return "loupe.dsp.conv_pixel_s8";
    default:
      return "loupe.thumb.conv_pixel_s8";
  }
}

std::vector<std::int8_t> simdFilterLayout(const std::vector<std::int8_t>& rows, int channels,
                                          int length, target::CpuIsa isa) {
  if (isa == target::CpuIsa::Thumb) return thumbConvFilterLayout(rows, channels, length);
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

std::vector<std::int8_t> mveFourChannelFilterLayout(const std::vector<std::int8_t>& rows,
                                                    int channels, int length) {
  const std::size_t blocks = (static_cast<std::size_t>(length) + 15) / 16;
  std::vector<std::int8_t> laid(static_cast<std::size_t>(channels / 4) * blocks * 64, 0);
  for (int c = 0; c < channels; ++c) {
    const std::size_t base =
        static_cast<std::size_t>(c / 4) * blocks * 64 + static_cast<std::size_t>(c % 4) * 16;
    for (int i = 0; i < length; ++i) {
      laid[base + static_cast<std::size_t>(i / 16) * 64 + static_cast<std::size_t>(i % 16)] =
          rows[static_cast<std::size_t>(c) * static_cast<std::size_t>(length) +
               static_cast<std::size_t>(i)];
    }
  }
  return laid;
}

}  // namespace loupe::lowering
