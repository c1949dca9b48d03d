// ADD reference kernel: int8 general rescaling with rounding, zero points and
// broadcasting, int16 (left shift 15; pot_scale_int16 ignored as in TFLite
// Micro), int32 without activation, float broadcasting, check reasons.
#include <QtTest>

#include <limits>

#include "graph_builder.h"
#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace add_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::perTensor;

namespace {

ir::ElementwiseAttrs addAttrs(ir::Activation activation = ir::Activation::None,
                              bool potScaleInt16 = true) {
  ir::ElementwiseAttrs attrs;
  attrs.activation = activation;
  attrs.potScaleInt16 = potScaleInt16;
  return attrs;
}

ir::Graph binaryGraph(ir::DType dtype, ir::Shape shape1, ir::Shape shape2, ir::Shape outShape,
                      ir::Quantization q1, ir::Quantization q2, ir::Quantization qOut,
                      ir::ElementwiseAttrs attrs) {
  return test::binaryOpGraph(ir::OpType::Add, dtype, std::move(shape1), std::move(shape2),
                             std::move(outShape), std::move(q1), std::move(q2), std::move(qOut),
                             attrs);
}

// int8: input1 scale 0.5 zero point 2, input2 scale 0.25 zero point 0,
// output scale 0.5 zero point 10. Twice the larger input scale is 1, so the
// inputs are scaled by 1/2 and 1/4 after the left shift of 20, the output by
// 1 / (2^20 * 0.5): out = (q1 - 2) + q2 / 2, rounded half away from zero, + 10.
ir::Graph int8Graph(ir::Shape shape1, ir::Shape shape2, ir::Shape outShape,
                    ir::Activation activation = ir::Activation::None) {
  return binaryGraph(ir::DType::Int8, shape1, shape2, outShape, perTensor(0.5f, 2),
                     perTensor(0.25f, 0), perTensor(0.5f, 10), addAttrs(activation));
}

}  // namespace

class AddTest : public QObject {
  Q_OBJECT

 private slots:
  void int8BroadcastWithRounding() {
    const auto graph = int8Graph({2, 1}, {1, 2}, {2, 2});
    QVERIFY(!test::checkReason(graph));
    // Rows (q1 - 2) = {3, -3}, columns q2 = {4, -5}:
    // 3 + 2 = 5 -> 15; 3 - 2.5 = 0.5 -> 1 -> 11; -3 + 2 = -1 -> 9;
    // -3 - 2.5 = -5.5 -> -6 -> 4.
    QCOMPARE(test::runGraph<std::int8_t>(
                 graph, {bytesOf<std::int8_t>({5, -1}), bytesOf<std::int8_t>({4, -5})}),
             (std::vector<std::int8_t>{15, 11, 9, 4}));
  }

  void int8ReluAndSaturation() {
    // RELU clamps at the output zero point 10; 98 + 50 + 10 saturates at 127.
    const auto graph = int8Graph({3}, {3}, {3}, ir::Activation::Relu);
    QCOMPARE(test::runGraph<std::int8_t>(
                 graph, {bytesOf<std::int8_t>({-1, 100, 5}), bytesOf<std::int8_t>({-5, 100, 4})}),
             (std::vector<std::int8_t>{10, 127, 15}));
  }

  void int16GeneralPathIgnoresPotFlag() {
    // Scales 0.5, 0.25 -> 0.5: out = q1 + q2 / 2 with left shift 15. TFLite
    // Micro always takes this path for int16, pot_scale_int16 or not.
    for (bool pot : {true, false}) {
      const auto graph =
          binaryGraph(ir::DType::Int16, {3}, {3}, {3}, perTensor(0.5f, 0), perTensor(0.25f, 0),
                      perTensor(0.5f, 0), addAttrs(ir::Activation::None, pot));
      QVERIFY(!test::checkReason(graph));
      // 1000 + 1.5 -> 1002; -1000 - 1.5 -> -1002; 30000 + 15000 -> 32767.
      QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1000, -1000, 30000}),
                                                    bytesOf<std::int16_t>({3, -3, 30000})}),
               (std::vector<std::int16_t>{1002, -1002, 32767}));
    }
  }

  void int32WrapsAndIgnoresActivation() {
    // TFLite Micro's int32 ADD applies no fused activation.
    const auto graph =
        binaryGraph(ir::DType::Int32, {2}, {2}, {2}, {}, {}, {}, addAttrs(ir::Activation::Relu));
    QVERIFY(!test::checkReason(graph));
    const auto max = std::numeric_limits<std::int32_t>::max();
    QCOMPARE(test::runGraph<std::int32_t>(
                 graph, {bytesOf<std::int32_t>({-5, max}), bytesOf<std::int32_t>({1, 1})}),
             (std::vector<std::int32_t>{-4, std::numeric_limits<std::int32_t>::min()}));
  }

  void float32ThreeDimensionalBroadcast() {
    // [2,1,3] + [2,1] -> [2,2,3]: out[i][j][k] = a[i][0][k] + b[j][0].
    const auto graph =
        binaryGraph(ir::DType::Float32, {2, 1, 3}, {2, 1}, {2, 2, 3}, {}, {}, {}, addAttrs());
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<float>(
                 graph, {bytesOf<float>({0, 1, 2, 10, 11, 12}), bytesOf<float>({100, 200})}),
             (std::vector<float>{100, 101, 102, 200, 201, 202, 110, 111, 112, 210, 211, 212}));
  }

  void float32Relu6() {
    const auto graph =
        binaryGraph(ir::DType::Float32, {3}, {1}, {3}, {}, {}, {}, addAttrs(ir::Activation::Relu6));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({-3, 2, 9}), bytesOf<float>({1})}),
             (std::vector<float>{0, 3, 6}));
  }

  void checkRejectsMismatchedTypes() {
    const auto graph = binaryGraph(ir::DType::Int8, {2}, {2}, {2}, perTensor(1, 0), perTensor(1, 0),
                                   perTensor(1, 0), addAttrs());
    auto broken = graph;
    broken.tensors[1].dtype = ir::DType::Int16;
    const auto reason = test::checkReason(broken);
    QVERIFY(reason);
    QVERIFY2(reason->find("input1 int8, input2 int16") != std::string::npos, reason->c_str());
  }

  void checkRejectsShapesThatDoNotBroadcast() {
    const auto graph = binaryGraph(ir::DType::Float32, {2, 3}, {2}, {2, 3}, {}, {}, {}, addAttrs());
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("[2,3] and [2] do not broadcast") != std::string::npos, reason->c_str());
  }

  void checkRejectsQuantisedInt32() {
    const auto graph =
        binaryGraph(ir::DType::Int32, {2}, {2}, {2}, perTensor(0.5f, 0), {}, {}, addAttrs());
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("unquantised only") != std::string::npos, reason->c_str());
  }

  void checkRejectsMissingOutputQuantisation() {
    const auto graph = binaryGraph(ir::DType::Int16, {2}, {2}, {2}, perTensor(0.5f, 0),
                                   perTensor(0.5f, 0), {}, addAttrs());
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("output 'out' (int16 [2]) has no quantisation parameters") !=
                 std::string::npos,
             reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(AddTest)

}  // namespace add_test

#include "add_test.moc"
