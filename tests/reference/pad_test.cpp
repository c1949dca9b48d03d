// PAD and PADV2 reference kernels: the pad value per type (int8 output zero
// point, 0 otherwise even for int16, PADV2's constant), up to 5-D, and check
// reasons.
#include <QtTest>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace pad_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perTensor;

namespace {

template <typename T>
ir::Graph padGraph(ir::OpType type, ir::DType dtype, ir::Shape in, ir::Shape out,
                   std::vector<std::int32_t> paddings, ir::Quantization quant = {},
                   std::optional<T> constant = std::nullopt) {
  GraphBuilder b;
  const int rank = static_cast<int>(in.size());
  const int i = b.tensor("in", dtype, std::move(in), quant);
  const int p = b.constant("paddings", ir::DType::Int32, {rank, 2}, paddings);
  std::vector<int> inputs = {i, p};
  if (constant) inputs.push_back(b.constant("value", dtype, {1}, std::vector<T>{*constant}, quant));
  const int o = b.tensor("out", dtype, std::move(out), quant);
  b.op(type, inputs, {o});
  return b.inputs({i}).outputs({o}).build();
}

}  // namespace

class PadTest : public QObject {
  Q_OBJECT

 private slots:
  void int8PadsWithOutputZeroPoint() {
    // [2,2] padded by 1 row before and 1 column after, zero point -5.
    const auto graph = padGraph<std::int8_t>(ir::OpType::Pad, ir::DType::Int8, {2, 2}, {3, 3},
                                             {1, 0, 0, 1}, perTensor(0.5f, -5));
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({1, 2, 3, 4})}),
             (std::vector<std::int8_t>{-5, -5, -5, 1, 2, -5, 3, 4, -5}));
  }

  void int16PadsWithZeroNotZeroPoint() {
    // TFLite Micro pads int16 with 0 whatever the zero point says.
    const auto graph = padGraph<std::int16_t>(ir::OpType::Pad, ir::DType::Int16, {1, 2}, {1, 4},
                                              {0, 0, 1, 1}, perTensor(1.0f, 7));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({-300, 300})}),
             (std::vector<std::int16_t>{0, -300, 300, 0}));
  }

  void float32FourDimensions() {
    // [1,1,2,1] -> [1,2,2,2]: one row after, one channel before.
    const auto graph = padGraph<float>(ir::OpType::Pad, ir::DType::Float32, {1, 1, 2, 1},
                                       {1, 2, 2, 2}, {0, 0, 0, 1, 0, 0, 1, 0});
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({7, 8})}),
             (std::vector<float>{0, 7, 0, 8, 0, 0, 0, 0}));
  }

  void int32FiveDimensions() {
    const auto graph = padGraph<std::int32_t>(ir::OpType::Pad, ir::DType::Int32, {1, 1, 1, 1, 1},
                                              {2, 1, 1, 1, 1}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int32_t>(graph, {bytesOf<std::int32_t>({42})}),
             (std::vector<std::int32_t>{0, 42}));
  }

  void padV2UsesConstantValue() {
    const auto graph = padGraph<std::int8_t>(ir::OpType::PadV2, ir::DType::Int8, {2}, {4}, {1, 1},
                                             perTensor(0.5f, -5), std::int8_t{9});
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({1, 2})}),
             (std::vector<std::int8_t>{9, 1, 2, 9}));
  }

  void padV2Float() {
    const auto graph =
        padGraph<float>(ir::OpType::PadV2, ir::DType::Float32, {1}, {3}, {2, 0}, {}, -1.5f);
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({4})}),
             (std::vector<float>{-1.5f, -1.5f, 4}));
  }

  void checkRejectsOutputShapeMismatch() {
    const auto graph =
        padGraph<float>(ir::OpType::Pad, ir::DType::Float32, {2, 2}, {3, 3}, {1, 1, 0, 1});
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("dimension 0 is 3; expected 2 + 1 + 1") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsNonConstantPaddings() {
    GraphBuilder b;
    const int i = b.tensor("in", ir::DType::Float32, {2});
    const int p = b.tensor("paddings", ir::DType::Int32, {1, 2});
    const int o = b.tensor("out", ir::DType::Float32, {4});
    b.op(ir::OpType::Pad, {i, p}, {o});
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("must be a constant int32 tensor") != std::string::npos, reason->c_str());
  }

  void checkRejectsConstantWithOtherQuantisation() {
    GraphBuilder b;
    const int i = b.tensor("in", ir::DType::Int8, {2}, perTensor(0.5f, -5));
    const int p = b.constant("paddings", ir::DType::Int32, {1, 2}, std::vector<std::int32_t>{1, 1});
    const int v = b.constant("value", ir::DType::Int8, {1}, std::vector<std::int8_t>{0},
                             perTensor(0.25f, -5));
    const int o = b.tensor("out", ir::DType::Int8, {4}, perTensor(0.5f, -5));
    b.op(ir::OpType::PadV2, {i, p, v}, {o});
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("must have the output's scale and zero point") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsUnsupportedType() {
    const auto graph = padGraph<std::uint8_t>(ir::OpType::Pad, ir::DType::UInt8, {2}, {4}, {1, 1});
    const auto reason = test::checkReason(graph);
    QVERIFY(reason);
    QVERIFY2(reason->find("input uint8") != std::string::npos, reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(PadTest)

}  // namespace pad_test

#include "pad_test.moc"
