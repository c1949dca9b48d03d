#include "lowering/thumb_conv_layout.h"

#include <cstddef>

namespace loupe::lowering {

std::vector<std::int8_t> thumbConvFilterLayout(const std::vector<std::int8_t>& rows, int channels,
                                               int length) {
  std::vector<std::int8_t> laid(rows);  // the channels after the last group keep their rows
  const int grouped = channels / 4 * 4;
  for (int c = 0; c < grouped; ++c) {
    const int k = c % 4;
    const std::size_t base = static_cast<std::size_t>(c - k) * static_cast<std::size_t>(length);
    for (int i = 0; i < length; ++i) {
      const std::int8_t w = rows[static_cast<std::size_t>(c) * static_cast<std::size_t>(length) +
                                 static_cast<std::size_t>(i)];
      // Bytes 0 and 2 are the unsigned low lanes: w + 128, i.e. the sign bit flipped.
      laid[base + static_cast<std::size_t>(4 * i + k)] =
          k % 2 == 0 ? static_cast<std::int8_t>(static_cast<std::uint8_t>(w) ^ 0x80u) : w;
    }
  }
  return laid;
}

}  // namespace loupe::lowering
