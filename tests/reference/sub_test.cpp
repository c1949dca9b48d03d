// SUB reference kernel: int8 rescaling with rounding and broadcasting, int16
// (left shift 15), float, and int32 (wrapping, with the activation's clamp).
#include <QtTest>

#include "graph_builder.h"
#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace sub_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::perTensor;

namespace {

ir::Graph subGraph(ir::DType dtype, ir::Shape shape1, ir::Shape shape2, ir::Shape outShape,
                   ir::Quantization q1, ir::Quantization q2, ir::Quantization qOut,
                   ir::Activation activation = ir::Activation::None) {
  return test::binaryOpGraph(ir::OpType::Sub, dtype, std::move(shape1), std::move(shape2),
                             std::move(outShape), std::move(q1), std::move(q2), std::move(qOut),
                             ir::ElementwiseAttrs{activation});
}

}  // namespace

class SubTest : public QObject {
  Q_OBJECT

 private slots:
  void int8BroadcastWithRounding() {
    // Scales 0.5 (zero point 2) and 0.25 (zero point 0) into 0.5 (zero point
    // 10), as in the ADD test: out = (q1 - 2) - q2 / 2, rounded half away
    // from zero, + 10. Rows {3, -3}, columns {4, -5}:
    // 3 - 2 = 1 -> 11; 3 + 2.5 = 5.5 -> 6 -> 16; -3 - 2 = -5 -> 5;
    // -3 + 2.5 = -0.5 -> -1 -> 9.
    const auto graph = subGraph(ir::DType::Int8, {2, 1}, {1, 2}, {2, 2}, perTensor(0.5f, 2),
                                perTensor(0.25f, 0), perTensor(0.5f, 10));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int8_t>(
                 graph, {bytesOf<std::int8_t>({5, -1}), bytesOf<std::int8_t>({4, -5})}),
             (std::vector<std::int8_t>{11, 16, 5, 9}));
  }

  void int16() {
    // Scales 0.5 and 0.25 into 0.5: out = q1 - q2 / 2 (left shift 15).
    // 1000 - 1.5 -> 998.5 -> 999; -1000 + 1.5 -> -999; -30000 - 15000 clamps.
    const auto graph = subGraph(ir::DType::Int16, {3}, {3}, {3}, perTensor(0.5f, 0),
                                perTensor(0.25f, 0), perTensor(0.5f, 0));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1000, -1000, -30000}),
                                                  bytesOf<std::int16_t>({3, -3, 30000})}),
             (std::vector<std::int16_t>{999, -999, -32768}));
  }

  void float32WithRelu() {
    const auto graph =
        subGraph(ir::DType::Float32, {3}, {1}, {3}, {}, {}, {}, ir::Activation::Relu);
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 2.5f, 5}), bytesOf<float>({2})}),
             (std::vector<float>{0, 0.5f, 3}));
  }

  void int32WrapsAndClamps() {
    // TFLM's int32 SUB applies the fused activation (its ADD does not);
    // INT32_MIN - 1 wraps to INT32_MAX before RELU's clamp keeps it.
    const auto graph = subGraph(ir::DType::Int32, {3}, {3}, {3}, {}, {}, {}, ir::Activation::Relu);
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int32_t>(graph, {bytesOf<std::int32_t>({5, 2, INT32_MIN}),
                                                  bytesOf<std::int32_t>({3, 7, 1})}),
             (std::vector<std::int32_t>{2, 0, INT32_MAX}));
  }

  void checkRejectsQuantizedInt32() {
    const auto graph = subGraph(ir::DType::Int32, {2}, {2}, {2}, perTensor(0.5f, 0), {}, {});
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("unquantised only") != std::string::npos, reason->c_str());
  }

  void checkRejectsOutputScaleTooSmall() {
    // The output rescale 2 * 1 / (2^20 * 1e-7) is above 1: TFLite refuses it.
    const auto graph = subGraph(ir::DType::Int8, {1}, {1}, {1}, perTensor(1.0f, 0),
                                perTensor(1.0f, 0), perTensor(1e-7f, 0));
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("output rescale factor") != std::string::npos, reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(SubTest)

}  // namespace sub_test

#include "sub_test.moc"
