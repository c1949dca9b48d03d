// loupe/quantized_arith.h: the branch-free requantisation that generated
// convolutions use gives exactly what the general one gives, for every shift
// it accepts, edge and random accumulators and multipliers.
#include <QtTest>

#include <cstdint>
#include <random>

#include "loupe/quantized_arith.h"
#include "test_group.h"

namespace quantized_arith_test {

namespace {

std::int32_t splitShift(std::int32_t acc, std::int32_t multiplier, int shift, std::int32_t offset,
                        std::int32_t min, std::int32_t max) {
  return loupe_requantize_acc_i32_split_shift(acc, multiplier, shift > 0 ? shift : 0,
                                              shift > 0 ? 0 : -shift, offset, min, max);
}

}  // namespace

class QuantizedArithTest : public QObject {
  Q_OBJECT

 private slots:
  void splitShiftRequantizationEqualsTheGeneralOne() {
    const std::int32_t edgeAccs[] = {
        0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, INT32_MIN + 1, INT32_MAX - 1, 1 << 30, -(1 << 30)};
    const std::int32_t edgeMultipliers[] = {0, 1 << 30, INT32_MAX, (1 << 30) + 1, INT32_MAX - 1};
    std::mt19937 random(11);
    std::uniform_int_distribution<std::int32_t> anyInt(INT32_MIN, INT32_MAX);
    std::uniform_int_distribution<std::int32_t> normalized(1 << 30, INT32_MAX);
    std::uniform_int_distribution<int> smallShift(0, 30);
    long compared = 0;
    for (int shift = -31; shift <= 30; ++shift) {
      for (int i = 0; i < 30000; ++i) {
        std::int32_t acc = i < 11 ? edgeAccs[i] : anyInt(random);
        if (i % 3 == 0) acc >>= smallShift(random);  // small magnitudes too: ties happen
        const std::int32_t multiplier =
            i % 4 == 0 ? edgeMultipliers[i / 4 % 5] : normalized(random);
        const std::int32_t offset = i % 2 == 0 ? 0 : -7;
        const std::int32_t general =
            loupe_requantize_acc_i32(acc, multiplier, shift, offset, INT32_MIN, INT32_MAX);
        const std::int32_t split = splitShift(acc, multiplier, shift, offset, INT32_MIN, INT32_MAX);
        if (general != split) {
          QFAIL(qPrintable(QString("acc %1, multiplier %2, shift %3: %4, expected %5")
                               .arg(acc)
                               .arg(multiplier)
                               .arg(shift)
                               .arg(split)
                               .arg(general)));
        }
        ++compared;
      }
    }
    QVERIFY(compared > 1000000);
  }

  void splitShiftRequantizationClampsAsTheGeneralOne() {
    for (std::int32_t acc : {-100000, -300, 0, 300, 100000}) {
      for (int shift : {-2, 0, 3}) {
        QCOMPARE(splitShift(acc, 1 << 30, shift, 5, -128, 127),
                 loupe_requantize_acc_i32(acc, 1 << 30, shift, 5, -128, 127));
      }
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(QuantizedArithTest)

}  // namespace quantized_arith_test

#include "quantized_arith_test.moc"
