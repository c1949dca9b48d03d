// RELU6 reference kernel: a clamp to the input's quantised 0 and 6.
#include <QtTest>

#include "test_group.h"
#include "unary_op_harness.h"

namespace relu6_test {

using namespace loupe;

class Relu6Test : public QObject {
  Q_OBJECT

 private slots:
  void int8ClampsToQuantisedZeroAndSix() {
    // 6 / 0.05 = 120 steps above the zero point -20: the clamp is [-20, 100].
    const test::UnaryOp op{ir::OpType::Relu6,           ir::DType::Int8,
                           test::perTensor(0.05f, -20), ir::DType::Int8,
                           test::perTensor(0.05f, -20), {}};
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{-128, -21, -20, 0, 100, 101, 127}),
             (std::vector<std::int8_t>{-20, -20, -20, 0, 100, 100, 100}));
  }

  void int8SixBeyondTheRangeClampsToTheTypeMaximum() {
    const test::UnaryOp op{ir::OpType::Relu6, ir::DType::Int8,           test::perTensor(0.01f, 0),
                           ir::DType::Int8,   test::perTensor(0.01f, 0), {}};
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{-1, 127}),
             (std::vector<std::int8_t>{0, 127}));
  }

  void int16() {
    const test::UnaryOp op{ir::OpType::Relu6,          ir::DType::Int16,
                           test::perTensor(0.001f, 0), ir::DType::Int16,
                           test::perTensor(0.001f, 0), {}};
    QCOMPARE(op.run<std::int16_t>(std::vector<std::int16_t>{-7, 5999, 6000, 6001, 32767}),
             (std::vector<std::int16_t>{0, 5999, 6000, 6000, 6000}));
  }

  void float32() {
    const test::UnaryOp op{ir::OpType::Relu6, ir::DType::Float32, {}, ir::DType::Float32, {}, {}};
    QCOMPARE(op.run<float>(std::vector<float>{-1.0f, 3.5f, 6.5f}),
             (std::vector<float>{0.0f, 3.5f, 6.0f}));
  }

  void refusesUnquantisedIntegers() {
    const test::UnaryOp op{ir::OpType::Relu6, ir::DType::Int8, {}, ir::DType::Int8, {}, {}};
    const auto problem = op.problem();
    QVERIFY2(problem && problem->find("input 'x' (int8 [4]) has no quantisation parameters") !=
                            std::string::npos,
             problem ? problem->c_str() : "accepted");
  }
};

LOUPE_TEST_APPLESS_MAIN(Relu6Test)

}  // namespace relu6_test

#include "relu6_test.moc"
