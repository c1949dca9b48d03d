// FULLY_CONNECTED reference kernel: float, int8 per-tensor and per-channel,
// 16x8 with int64 and int32 bias, optional bias, activation clamping, and the
// reasons `check` gives for operators it cannot run.
#include <QtTest>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace fully_connected_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

ir::FullyConnectedAttrs fcAttrs(ir::Activation activation = ir::Activation::None) {
  ir::FullyConnectedAttrs attrs;
  attrs.activation = activation;
  return attrs;
}

// int8 [1,3] x [2,3] weights. Input scale 0.5 zero point -1, weights scale
// 0.25, output scale 1 zero point 3: the multiplier 0.5 * 0.25 / 1 = 0.125 is
// 2^30 / 2^31 * 2^-2, so the output is round(acc / 8) + 3.
ir::Graph int8Graph(ir::Activation activation, std::int64_t weightsZeroPoint,
                    std::vector<std::int8_t> weights) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 3}, perTensor(0.5f, -1));
  const int w =
      b.constant("w", ir::DType::Int8, {2, 3}, weights, perTensor(0.25f, weightsZeroPoint));
  const int bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{8, 20},
                              perTensor(0.125f, 0));
  const int out = b.tensor("out", ir::DType::Int8, {1, 2}, perTensor(1.0f, 3));
  b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs(activation));
  return b.inputs({in}).outputs({out}).build();
}

}  // namespace

class FullyConnectedTest : public QObject {
  Q_OBJECT

 private slots:
  void float32WithBias() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 3});
    const int w =
        b.constant("w", ir::DType::Float32, {2, 3}, std::vector<float>{1, 0, -1, 0.5f, 0.5f, 0.5f});
    const int bias = b.constant("bias", ir::DType::Float32, {2}, std::vector<float>{0.5f, -1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 2});
    b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs());
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // 1 - 3 + 0.5 = -1.5 and (1 + 2 + 3) / 2 - 1 = 2.
    const auto result = test::runGraph<float>(graph, {bytesOf<float>({1, 2, 3})});
    QCOMPARE(result, (std::vector<float>{-1.5f, 2.0f}));
  }

  void float32WithoutBiasAndRelu() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2, 2});
    const int w = b.constant("w", ir::DType::Float32, {1, 2}, std::vector<float>{1, -1});
    const int out = b.tensor("out", ir::DType::Float32, {2, 1});
    b.op(ir::OpType::FullyConnected, {in, w, ir::kNoTensor}, {out}, fcAttrs(ir::Activation::Relu));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // Batch 0: 3 - 1 = 2; batch 1: 1 - 4 = -3, clamped to 0 by RELU.
    const auto result = test::runGraph<float>(graph, {bytesOf<float>({3, 1, 1, 4})});
    QCOMPARE(result, (std::vector<float>{2.0f, 0.0f}));
  }

  void int8PerTensor() {
    const auto graph = int8Graph(ir::Activation::None, 0, {2, 5, -4, -8, 1, 4});
    QVERIFY(!test::checkReason(graph));
    // Input q {3, -1, 7} minus zero point -1: {4, 0, 8}.
    // Unit 0: 2*4 + 5*0 - 4*8 + 8 = -16 -> -16/8 = -2 -> -2 + 3 = 1.
    // Unit 1: -8*4 + 1*0 + 4*8 + 20 = 20 -> 2.5, rounded away from zero 3 -> 6.
    const auto result = test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, -1, 7})});
    QCOMPARE(result, (std::vector<std::int8_t>{1, 6}));
  }

  void int8PerTensorAppliesWeightsZeroPoint() {
    // The weights of int8PerTensor shifted by a zero point of 2: same result.
    const auto graph = int8Graph(ir::Activation::None, 2, {4, 7, -2, -6, 3, 6});
    const auto result = test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, -1, 7})});
    QCOMPARE(result, (std::vector<std::int8_t>{1, 6}));
  }

  void int8ReluClampsAtOutputZeroPoint() {
    // RELU's lower bound is the quantised 0, i.e. the output zero point 3.
    const auto graph = int8Graph(ir::Activation::Relu, 0, {2, 5, -4, -8, 1, 4});
    const auto result = test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, -1, 7})});
    QCOMPARE(result, (std::vector<std::int8_t>{3, 6}));
  }

  void int8SaturatesToInt8Range() {
    const auto graph = int8Graph(ir::Activation::None, 0, {127, 127, 127, -127, -127, -127});
    // Input {127, 127, 127} -> +1 each = 128. Unit 0: 3*127*128 + 8 = 48776,
    // /8 = 6097 -> 127. Unit 1: -48768 + 20 = -48748 -> -6093.5 -> -128.
    const auto result = test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({127, 127, 127})});
    QCOMPARE(result, (std::vector<std::int8_t>{127, -128}));
  }

  void int8PerChannel() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 3}, perTensor(0.5f, -1));
    const int w =
        b.constant("w", ir::DType::Int8, {2, 3}, std::vector<std::int8_t>{2, 5, -4, -8, 1, 4},
                   perChannel({0.25f, 0.5f}, 0));
    const int bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{8, 20});
    const int out = b.tensor("out", ir::DType::Int8, {1, 2}, perTensor(1.0f, 3));
    b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs());
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // Unit 0 scales by 0.125: -16 -> -2 -> 1. Unit 1 by 0.25: 20 -> 5 -> 8.
    const auto result = test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, -1, 7})});
    QCOMPARE(result, (std::vector<std::int8_t>{1, 8}));
  }

  void int16x8WithInt64Bias() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 3}, perTensor(0.5f, 0));
    const int w = b.constant("w", ir::DType::Int8, {2, 3},
                             std::vector<std::int8_t>{2, 5, -4, -8, 1, 4}, perTensor(0.25f, 0));
    const int bias =
        b.constant("bias", ir::DType::Int64, {2}, std::vector<std::int64_t>{100000, -5});
    const int out = b.tensor("out", ir::DType::Int16, {1, 2}, perTensor(1.0f, 0));
    b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs());
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // 64-bit requantisation: multiplier 2^30 reduced to 2^14, shift 15 + 2:
    // (acc * 2^14 + 2^16) >> 17 = floor(acc / 8 + 1/2).
    // Unit 0: 2000 - 10000 - 1200 + 100000 = 90800 -> 11350.
    // Unit 1: -8000 - 2000 + 1200 - 5 = -8805 -> floor(-1100.125) = -1101.
    const auto result =
        test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1000, -2000, 300})});
    QCOMPARE(result, (std::vector<std::int16_t>{11350, -1101}));
  }

  void int16x8WithInt32BiasUses32BitRequantisation() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 1}, perTensor(0.5f, 0));
    const int w = b.constant("w", ir::DType::Int8, {3, 1}, std::vector<std::int8_t>{1, 1, 1},
                             perTensor(0.25f, 0));
    const int bias = b.constant("bias", ir::DType::Int32, {3}, std::vector<std::int32_t>{0, 1, 2});
    const int out = b.tensor("out", ir::DType::Int16, {1, 3}, perTensor(1.0f, 0));
    b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs());
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // acc = -12, -11, -10, scaled by 1/8 with the 32-bit double rounding:
    // doubling high mul halves (negative ties toward zero): -6, -5, -5; the
    // rounding shift by 2 (ties away from zero): -1.5 -> -2, -1.25 -> -1, -1.
    // The 64-bit form would give floor(acc/8 + 1/2) = -1, -1, -1.
    const auto result = test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({-12})});
    QCOMPARE(result, (std::vector<std::int16_t>{-2, -1, -1}));
  }

  void checkRejectsMixedTypes() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Float32, {1, 2}, std::vector<float>{1, 2});
    const int out = b.tensor("out", ir::DType::Int8, {1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::FullyConnected, {in, w}, {out}, fcAttrs());
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("input int8, filter float32") != std::string::npos, reason->c_str());
  }

  void checkRejectsInt8WithInt64Bias() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Int8, {1, 2}, std::vector<std::int8_t>{1, 2},
                             perTensor(1.0f, 0));
    const int bias = b.constant("bias", ir::DType::Int64, {1}, std::vector<std::int64_t>{0});
    const int out = b.tensor("out", ir::DType::Int8, {1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, fcAttrs());
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("bias int64") != std::string::npos, reason->c_str());
  }

  void checkRejectsPerChannelScaleCountMismatch() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Int8, {2, 2}, std::vector<std::int8_t>{1, 2, 3, 4},
                             perChannel({0.1f, 0.2f, 0.3f}, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 2}, perTensor(1.0f, 0));
    b.op(ir::OpType::FullyConnected, {in, w}, {out}, fcAttrs());
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("3 per-channel scales; expected 1 or 2") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsTanhActivation() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 1});
    const int w = b.constant("w", ir::DType::Float32, {1, 1}, std::vector<float>{1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 1});
    b.op(ir::OpType::FullyConnected, {in, w}, {out}, fcAttrs(ir::Activation::Tanh));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("TANH") != std::string::npos, reason->c_str());
  }

  void checkRejectsInputOfWrongSize() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 5});
    const int w = b.constant("w", ir::DType::Float32, {1, 2}, std::vector<float>{1, 2});
    const int out = b.tensor("out", ir::DType::Float32, {1, 1});
    b.op(ir::OpType::FullyConnected, {in, w}, {out}, fcAttrs());
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("5 elements; expected 1 batches x 2") != std::string::npos,
             reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(FullyConnectedTest)

}  // namespace fully_connected_test

#include "fully_connected_test.moc"
