// QUANTIZE reference kernel: float rounding half away from zero and clamping,
// and the integer requantisations TFLM supports.
#include <QtTest>

#include "test_group.h"
#include "unary_op_harness.h"

namespace quantize_test {

using namespace loupe;

namespace {

test::UnaryOp quantize(ir::DType in, ir::Quantization inQuant, ir::DType out,
                       ir::Quantization outQuant) {
  return {ir::OpType::Quantize, in, std::move(inQuant), out, std::move(outQuant), {}};
}

}  // namespace

class QuantizeTest : public QObject {
  Q_OBJECT

 private slots:
  void float32ToInt8RoundsHalfAwayFromZeroAndClamps() {
    const auto op = quantize(ir::DType::Float32, {}, ir::DType::Int8, test::perTensor(0.5f, -3));
    // 1.25 / 0.5 = 2.5 -> 3; -1.25 -> -3; 0.75 -> 1.5 -> 2.
    QCOMPARE(op.run<std::int8_t>(std::vector<float>{0.0f, 1.25f, -1.25f, 0.75f, 100.0f, -100.0f}),
             (std::vector<std::int8_t>{-3, 0, -6, -1, 127, -128}));
  }

  void float32ToInt16() {
    const auto op = quantize(ir::DType::Float32, {}, ir::DType::Int16, test::perTensor(0.001f, 0));
    QCOMPARE(op.run<std::int16_t>(std::vector<float>{1.0f, -0.0004f, 40.0f, -40.0f}),
             (std::vector<std::int16_t>{1000, 0, 32767, -32768}));
  }

  void int8ToInt8Requantises() {
    // q_out = 2 q_in + 10
    const auto op = quantize(ir::DType::Int8, test::perTensor(0.5f, 0), ir::DType::Int8,
                             test::perTensor(0.25f, 10));
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{0, 10, -30, 60, -128}),
             (std::vector<std::int8_t>{10, 30, -50, 127, -128}));
  }

  void int16ToInt8RoundsTwice() {
    // 2^-10 to 2^-3: divide by 128. Ties round away from zero, and TFLite's
    // double rounding (high multiply, then shift) takes 63/128 up to 1 too.
    const auto op = quantize(ir::DType::Int16, test::perTensor(1.0f / 1024, 0), ir::DType::Int8,
                             test::perTensor(1.0f / 8, 0));
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int16_t>{64, -64, 63, 128 * 200, -32768}),
             (std::vector<std::int8_t>{1, -1, 1, 127, -128}));
  }

  void int8ToInt16AndInt16ToInt16() {
    const auto widen = quantize(ir::DType::Int8, test::perTensor(0.5f, 1), ir::DType::Int16,
                                test::perTensor(0.5f / 256, 0));
    QCOMPARE(widen.run<std::int16_t>(std::vector<std::int8_t>{1, 2, -128}),
             (std::vector<std::int16_t>{0, 256, -32768}));
    const auto rescale = quantize(ir::DType::Int16, test::perTensor(0.01f, 0), ir::DType::Int16,
                                  test::perTensor(0.03f, 0));
    // 31 / 3 = 10.33, but the multiplier 2/3 * 2^-1 rounds 31 * 2/3 to 21
    // first, and 21 / 2 to 11.
    QCOMPARE(rescale.run<std::int16_t>(std::vector<std::int16_t>{300, -300, 31, 30}),
             (std::vector<std::int16_t>{100, -100, 11, 10}));
  }

  void int8AndUint8DifferBy128() {
    const auto toUnsigned = quantize(ir::DType::Int8, test::perTensor(0.1f, -128), ir::DType::UInt8,
                                     test::perTensor(0.1f, 0));
    QCOMPARE(toUnsigned.run<std::uint8_t>(std::vector<std::int8_t>{-128, 0, 127}),
             (std::vector<std::uint8_t>{0, 128, 255}));
    const auto toSigned = quantize(ir::DType::UInt8, test::perTensor(0.1f, 128), ir::DType::Int8,
                                   test::perTensor(0.1f, 0));
    QCOMPARE(toSigned.run<std::int8_t>(std::vector<std::uint8_t>{0, 128, 255}),
             (std::vector<std::int8_t>{-128, 0, 127}));
  }

  void refusesWhatTfliteMicroRefuses() {
    auto op = quantize(ir::DType::Float32, {}, ir::DType::UInt8, test::perTensor(0.1f, 0));
    auto problem = op.problem();
    QVERIFY2(problem && problem->find("does not support float32 input with uint8 output") !=
                            std::string::npos,
             problem ? problem->c_str() : "accepted");
    op = quantize(ir::DType::Float32, {}, ir::DType::Int8, test::perChannel({0.1f, 0.2f}, 0));
    problem = op.problem();
    QVERIFY(problem && problem->find("per channel") != std::string::npos);
    op = quantize(ir::DType::Int8, {}, ir::DType::Int8, test::perTensor(0.1f, 0));
    problem = op.problem();
    QVERIFY(problem &&
            problem->find("input 'x' (int8 [4]) has no quantisation") != std::string::npos);
    op = quantize(ir::DType::Float32, {}, ir::DType::Int8, test::perTensor(0.0f, 0));
    problem = op.problem();
    QVERIFY(problem && problem->find("expected a positive finite scale") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(QuantizeTest)

}  // namespace quantize_test

#include "quantize_test.moc"
