// DEQUANTIZE reference kernel: scale * (q - zero_point) in float.
#include <QtTest>

#include "test_group.h"
#include "unary_op_harness.h"

namespace dequantize_test {

using namespace loupe;

class DequantizeTest : public QObject {
  Q_OBJECT

 private slots:
  void int8() {
    const test::UnaryOp op{ir::OpType::Dequantize,
                           ir::DType::Int8,
                           test::perTensor(0.5f, 3),
                           ir::DType::Float32,
                           {},
                           {}};
    QCOMPARE(op.run<float>(std::vector<std::int8_t>{3, 5, -128, 127}),
             (std::vector<float>{0.0f, 1.0f, -65.5f, 62.0f}));
  }

  void uint8AndInt16() {
    const test::UnaryOp u8{ir::OpType::Dequantize,
                           ir::DType::UInt8,
                           test::perTensor(0.25f, 128),
                           ir::DType::Float32,
                           {},
                           {}};
    QCOMPARE(u8.run<float>(std::vector<std::uint8_t>{0, 128, 255}),
             (std::vector<float>{-32.0f, 0.0f, 31.75f}));
    const test::UnaryOp i16{ir::OpType::Dequantize,
                            ir::DType::Int16,
                            test::perTensor(1.0f / 1024, 0),
                            ir::DType::Float32,
                            {},
                            {}};
    QCOMPARE(i16.run<float>(std::vector<std::int16_t>{1024, -32768}),
             (std::vector<float>{1.0f, -32.0f}));
  }

  void roundTripsThroughQuantize() {
    const test::UnaryOp op{ir::OpType::Dequantize,
                           ir::DType::Int8,
                           test::perTensor(0.1f, -7),
                           ir::DType::Float32,
                           {},
                           {}};
    const test::UnaryOp back{ir::OpType::Quantize, ir::DType::Float32,        {},
                             ir::DType::Int8,      test::perTensor(0.1f, -7), {}};
    const auto values = test::allValues<std::int8_t>();
    QCOMPARE(back.run<std::int8_t>(op.run<float>(values)), values);
  }

  void refusesWhatTfliteMicroRefuses() {
    test::UnaryOp op{ir::OpType::Dequantize,
                     ir::DType::Int32,
                     test::perTensor(0.5f, 0),
                     ir::DType::Float32,
                     {},
                     {}};
    auto problem = op.problem();
    QVERIFY2(problem && problem->find("does not support int32 input with float32 output") !=
                            std::string::npos,
             problem ? problem->c_str() : "accepted");
    op.inputType = ir::DType::Int8;
    op.inputQuant = {};
    problem = op.problem();
    QVERIFY(problem && problem->find("has no quantisation parameters") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(DequantizeTest)

}  // namespace dequantize_test

#include "dequantize_test.moc"
