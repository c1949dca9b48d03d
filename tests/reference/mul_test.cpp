// MUL reference kernel: int8 with zero points, broadcasting and TFLite's
// rounding of ties, int16, int32 with activation, float scalar broadcast,
// and check reasons.
#include <QtTest>

#include "graph_builder.h"
#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace mul_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::perTensor;

namespace {

ir::Graph mulGraph(ir::DType dtype, ir::Shape shape1, ir::Shape shape2, ir::Shape outShape,
                   ir::Quantization q1, ir::Quantization q2, ir::Quantization qOut,
                   ir::Activation activation = ir::Activation::None) {
  return test::binaryOpGraph(ir::OpType::Mul, dtype, std::move(shape1), std::move(shape2),
                             std::move(outShape), std::move(q1), std::move(q2), std::move(qOut),
                             ir::ElementwiseAttrs{activation});
}

}  // namespace

class MulTest : public QObject {
  Q_OBJECT

 private slots:
  void int8BroadcastWithZeroPoints() {
    // Scales 0.5 x 0.25 / 0.25 = 0.5: one doubling high multiply by 2^30,
    // i.e. a halving that rounds positive ties up and negative ties toward
    // zero. Input1 zero point 1: {4, -2} -> {3, -3}; input2 zero point -2:
    // {0, 3} -> {2, 5}; output zero point 3.
    // 3*2 = 6 -> 3 -> 6; 3*5 = 15 -> 7.5 -> 8 -> 11; -3*2 = -6 -> -3 -> 0;
    // -3*5 = -15 -> -7.5 -> -7 -> -4.
    const auto graph = mulGraph(ir::DType::Int8, {2, 1}, {1, 2}, {2, 2}, perTensor(0.5f, 1),
                                perTensor(0.25f, -2), perTensor(0.25f, 3));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int8_t>(
                 graph, {bytesOf<std::int8_t>({4, -2}), bytesOf<std::int8_t>({0, 3})}),
             (std::vector<std::int8_t>{6, 11, 0, -4}));
  }

  void int16() {
    // 0.5 x 0.5 / 0.25 = 1: multiplier 2^30 with left shift 1, out = product.
    const auto graph = mulGraph(ir::DType::Int16, {3}, {3}, {3}, perTensor(0.5f, 0),
                                perTensor(0.5f, 0), perTensor(0.25f, 0));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({100, 300, -300}),
                                                  bytesOf<std::int16_t>({200, 300, 300})}),
             (std::vector<std::int16_t>{20000, 32767, -32768}));
  }

  void int32Relu6() {
    const auto graph = mulGraph(ir::DType::Int32, {2}, {2}, {2}, {}, {}, {}, ir::Activation::Relu6);
    QVERIFY(!test::checkReason(graph));
    // 3 * -4 = -12 -> 0; 2 * 4 = 8 -> 6.
    QCOMPARE(test::runGraph<std::int32_t>(
                 graph, {bytesOf<std::int32_t>({3, 2}), bytesOf<std::int32_t>({-4, 4})}),
             (std::vector<std::int32_t>{0, 6}));
  }

  void float32ScalarBroadcast() {
    const auto graph = mulGraph(ir::DType::Float32, {2, 2}, {}, {2, 2}, {}, {}, {});
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 2, 3, 4}), bytesOf<float>({0.5f})}),
             (std::vector<float>{0.5f, 1, 1.5f, 2}));
  }

  void checkRejectsInt16ZeroPoint() {
    const auto graph = mulGraph(ir::DType::Int16, {1}, {1}, {1}, perTensor(0.5f, 3),
                                perTensor(0.5f, 0), perTensor(0.25f, 0));
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("input1 'a' (int16 [1]) must have zero point 0 (TFLM's int16 MUL needs "
                          "zero points of 0), "
                          "found 3") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsOutputShapeMismatch() {
    const auto graph = mulGraph(ir::DType::Float32, {2, 1}, {1, 3}, {2, 1}, {}, {}, {});
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("broadcast shape [2,3]") != std::string::npos, reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(MulTest)

}  // namespace mul_test

#include "mul_test.moc"
