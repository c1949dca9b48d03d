// MAX_POOL_2D reference kernel: window maxima with strides, padding that
// never wins (it is not a zero), fused activation clamps in the quantised
// domain, int16, and check reasons.
#include <QtTest>

#include "graph_builder.h"
#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace max_pool2d_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perTensor;

namespace {

using loupe::test::poolAttrs;

ir::Graph poolGraph(ir::DType dtype, ir::Shape in, ir::Shape out, ir::Pool2DAttrs attrs,
                    ir::Quantization quant = perTensor(1.0f, 0)) {
  return test::poolOpGraph(ir::OpType::MaxPool2D, dtype, std::move(in), std::move(out), attrs,
                           std::move(quant));
}

}  // namespace

class MaxPool2DTest : public QObject {
  Q_OBJECT

 private slots:
  void int8Stride2() {
    // 2x4 input, 2x2 windows at columns 0 and 2: max(1,5,2,0) = 5 and
    // max(-3,-4,-8,-2) = -2.
    const auto graph = poolGraph(ir::DType::Int8, {1, 2, 4, 1}, {1, 1, 2, 1},
                                 poolAttrs(ir::Padding::Valid, 2, 2, 2));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(
        test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({1, 5, -3, -4, 2, 0, -8, -2})}),
        (std::vector<std::int8_t>{5, -2}));
  }

  void int8Relu6ClampsInQuantisedDomain() {
    // Scale 0.5, zero point -10: RELU6 keeps [-10, -10 + 6/0.5] = [-10, 2].
    const auto graph = poolGraph(ir::DType::Int8, {1, 1, 3, 1}, {1, 1, 3, 1},
                                 poolAttrs(ir::Padding::Valid, 1, 1, 1, ir::Activation::Relu6),
                                 perTensor(0.5f, -10));
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({-20, 5, 0})}),
             (std::vector<std::int8_t>{-10, 2, 0}));
  }

  void float32SamePaddingNeverWins() {
    // All-negative input: a zero padding would win; TFLite clips the window.
    const auto graph = poolGraph(ir::DType::Float32, {1, 2, 2, 1}, {1, 2, 2, 1},
                                 poolAttrs(ir::Padding::Same, 3, 3, 1));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({-5, -6, -7, -8})}),
             (std::vector<float>{-5, -5, -5, -5}));
  }

  void int16() {
    const auto graph = poolGraph(ir::DType::Int16, {1, 1, 4, 1}, {1, 1, 2, 1},
                                 poolAttrs(ir::Padding::Valid, 1, 2, 2));
    QCOMPARE(
        test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({-32768, -1000, 300, 32767})}),
        (std::vector<std::int16_t>{-1000, 32767}));
  }

  void checkRejectsMixedTypes() {
    GraphBuilder b;
    const int i = b.tensor("in", ir::DType::Int8, {1, 2, 2, 1}, perTensor(1.0f, 0));
    const int o = b.tensor("out", ir::DType::Int16, {1, 1, 1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::MaxPool2D, {i}, {o}, poolAttrs(ir::Padding::Valid, 2, 2, 2));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("input int8, output int16") != std::string::npos, reason->c_str());
  }

  void checkRejectsMissingQuantisation() {
    GraphBuilder b;
    const int i = b.tensor("in", ir::DType::Int8, {1, 2, 2, 1});
    const int o = b.tensor("out", ir::DType::Int8, {1, 1, 1, 1});
    b.op(ir::OpType::MaxPool2D, {i}, {o}, poolAttrs(ir::Padding::Valid, 2, 2, 2));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("no quantisation parameters") != std::string::npos, reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(MaxPool2DTest)

}  // namespace max_pool2d_test

#include "max_pool2d_test.moc"
