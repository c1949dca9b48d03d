// AVERAGE_POOL_2D reference kernel: TFLite Micro's integer rounding (half
// away from zero), padding left out of the count, fused activation clamps,
// float, and check reasons.
#include <QtTest>

#include "graph_builder.h"
#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace average_pool2d_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::perTensor;

namespace {

using loupe::test::poolAttrs;

ir::Graph poolGraph(ir::DType dtype, ir::Shape in, ir::Shape out, ir::Pool2DAttrs attrs,
                    ir::Quantization quant = perTensor(1.0f, 0)) {
  return test::poolOpGraph(ir::OpType::AveragePool2D, dtype, std::move(in), std::move(out), attrs,
                           std::move(quant));
}

}  // namespace

class AveragePool2DTest : public QObject {
  Q_OBJECT

 private slots:
  void int8RoundsHalfAwayFromZero() {
    // One 2x2 window over four channels; per channel the four values are
    // c0 {1,2,2,2} sum 7 -> 1.75 -> 2; c1 {-1,-2,-2,-2} -7 -> -2;
    // c2 {1,1,2,2} 6 -> 1.5 -> 2; c3 {-1,-1,-2,-2} -6 -> -1.5 -> -2.
    const auto graph = poolGraph(ir::DType::Int8, {1, 2, 2, 4}, {1, 1, 1, 4},
                                 poolAttrs(ir::Padding::Valid, 2, 2, 2));
    QVERIFY(!test::checkReason(graph));
    const std::vector<std::int8_t> input = {1, -1, 1, -1, 2, -2, 1, -1, 2, -2, 2, -2, 2, -2, 2, -2};
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf(input)}),
             (std::vector<std::int8_t>{2, -2, 2, -2}));
  }

  void int8SamePaddingIsNotCounted() {
    // 3x3 SAME windows on a 2x2 input each hold the four real elements:
    // (1+2+3+5)/4 = 2.75 -> 3 (counting the padding as zeros would give 1).
    const auto graph = poolGraph(ir::DType::Int8, {1, 2, 2, 1}, {1, 2, 2, 1},
                                 poolAttrs(ir::Padding::Same, 3, 3, 1));
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({1, 2, 3, 5})}),
             (std::vector<std::int8_t>{3, 3, 3, 3}));
  }

  void int16WithAndWithoutRelu() {
    // Mean of -300 and -101 is -200.5 -> -201; RELU clamps at zero point 0.
    const auto plain = poolGraph(ir::DType::Int16, {1, 1, 2, 1}, {1, 1, 1, 1},
                                 poolAttrs(ir::Padding::Valid, 1, 2, 2));
    QCOMPARE(test::runGraph<std::int16_t>(plain, {bytesOf<std::int16_t>({-300, -101})}),
             (std::vector<std::int16_t>{-201}));
    const auto relu = poolGraph(ir::DType::Int16, {1, 1, 2, 1}, {1, 1, 1, 1},
                                poolAttrs(ir::Padding::Valid, 1, 2, 2, ir::Activation::Relu));
    QCOMPARE(test::runGraph<std::int16_t>(relu, {bytesOf<std::int16_t>({-300, -101})}),
             (std::vector<std::int16_t>{0}));
  }

  void float32() {
    const auto graph = poolGraph(ir::DType::Float32, {1, 2, 2, 1}, {1, 1, 1, 1},
                                 poolAttrs(ir::Padding::Valid, 2, 2, 2));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 2, 3, 5})}),
             (std::vector<float>{2.75f}));
  }

  void checkRejectsUint8() {
    const auto graph = poolGraph(ir::DType::UInt8, {1, 2, 2, 1}, {1, 1, 1, 1},
                                 poolAttrs(ir::Padding::Valid, 2, 2, 2));
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("input uint8") != std::string::npos, reason->c_str());
  }

  void checkRejectsWrongOutputShape() {
    const auto graph = poolGraph(ir::DType::Int8, {1, 4, 4, 1}, {1, 3, 3, 1},
                                 poolAttrs(ir::Padding::Same, 2, 2, 2));
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("expected [1,2,2,1] with SAME padding") != std::string::npos,
             reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(AveragePool2DTest)

}  // namespace average_pool2d_test

#include "average_pool2d_test.moc"
