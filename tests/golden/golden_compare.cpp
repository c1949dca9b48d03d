#include "golden_compare.h"

#include <cstring>

namespace loupe::test {

QString compareBytes(std::span<const std::uint8_t> actual, std::span<const std::uint8_t> expected,
                     const std::string& dtype, std::uint32_t maxFloatUlps) {
  if (actual.size() != expected.size()) {
    return QString("size %1, expected %2").arg(actual.size()).arg(expected.size());
  }
  if (dtype == "float32") {
    for (std::size_t i = 0; i + 4 <= actual.size(); i += 4) {
      float a, e;
      std::memcpy(&a, actual.data() + i, 4);
      std::memcpy(&e, expected.data() + i, 4);
      if (ulpDistance(a, e) > maxFloatUlps) {
        return QString("element %1: %2, expected %3 (%4 ulp)")
            .arg(i / 4)
            .arg(double(a), 0, 'g', 9)
            .arg(double(e), 0, 'g', 9)
            .arg(ulpDistance(a, e));
      }
    }
    return {};
  }
  const std::size_t width = dtype == "int16" ? 2 : dtype == "int32" ? 4 : 1;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) {
      const std::size_t element = i / width;
      std::int64_t a = 0, e = 0;
      if (width == 1) {
        a = dtype == "uint8" ? actual[i] : static_cast<std::int8_t>(actual[i]);
        e = dtype == "uint8" ? expected[i] : static_cast<std::int8_t>(expected[i]);
      } else if (width == 2) {
        std::int16_t x, y;
        std::memcpy(&x, actual.data() + element * 2, 2);
        std::memcpy(&y, expected.data() + element * 2, 2);
        a = x, e = y;
      } else {
        std::int32_t x, y;
        std::memcpy(&x, actual.data() + element * 4, 4);
        std::memcpy(&y, expected.data() + element * 4, 4);
        a = x, e = y;
      }
      return QString("element %1: %2, expected %3").arg(element).arg(a).arg(e);
    }
  }
  return {};
}

}  // namespace loupe::test
