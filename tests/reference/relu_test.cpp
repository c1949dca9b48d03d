// RELU reference kernel: requantisation and the clamp at the output's zero.
#include <QtTest>

#include "test_group.h"
#include "unary_op_harness.h"

namespace relu_test {

using namespace loupe;

class ReluTest : public QObject {
  Q_OBJECT

 private slots:
  void int8RequantisesThenClampsAtTheOutputZeroPoint() {
    // in: 0.1 * (q + 10); out: 0.05 * (q + 128), i.e. q_out = 2 * (q_in + 10) - 128.
    const test::UnaryOp op{ir::OpType::Relu,
                           ir::DType::Int8,
                           test::perTensor(0.1f, -10),
                           ir::DType::Int8,
                           test::perTensor(0.05f, -128),
                           {}};
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{-128, -10, -5, 50, 100, 127}),
             (std::vector<std::int8_t>{-128, -128, -118, -8, 92, 127}));
  }

  void int8SameQuantisationIsAClampAtTheZeroPoint() {
    const test::UnaryOp op{ir::OpType::Relu, ir::DType::Int8,          test::perTensor(0.3f, 7),
                           ir::DType::Int8,  test::perTensor(0.3f, 7), {}};
    const auto inputs = test::allValues<std::int8_t>();
    const auto got = op.run<std::int8_t>(inputs);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      QCOMPARE(got[i], std::max<std::int8_t>(inputs[i], 7));
    }
  }

  void int16IsSymmetric() {
    const test::UnaryOp op{ir::OpType::Relu, ir::DType::Int16,           test::perTensor(0.001f, 0),
                           ir::DType::Int16, test::perTensor(0.002f, 0), {}};
    QCOMPARE(op.run<std::int16_t>(std::vector<std::int16_t>{-500, 0, 3, 32767}),
             (std::vector<std::int16_t>{0, 0, 2, 16384}));
  }

  void float32() {
    const test::UnaryOp op{ir::OpType::Relu, ir::DType::Float32, {}, ir::DType::Float32, {}, {}};
    QCOMPARE(op.run<float>(std::vector<float>{-1.5f, 0.0f, 2.25f}),
             (std::vector<float>{0.0f, 0.0f, 2.25f}));
  }

  void refusesWhatTfliteMicroRefuses() {
    test::UnaryOp op{ir::OpType::Relu,
                     ir::DType::Int16,
                     test::perTensor(0.001f, 0),
                     ir::DType::Int16,
                     test::perTensor(0.001f, 12),
                     {}};
    auto problem = op.problem();
    QVERIFY2(
        problem &&
            problem->find("output 'y' (int16 [4]) must have zero point 0") != std::string::npos &&
            problem->find("found 12") != std::string::npos,
        problem ? problem->c_str() : "accepted");
    op.inputType = op.outputType = ir::DType::UInt8;
    problem = op.problem();
    QVERIFY(problem &&
            problem->find("does not support uint8 input with uint8 output") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(ReluTest)

}  // namespace relu_test

#include "relu_test.moc"
