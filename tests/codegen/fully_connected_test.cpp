// FULLY_CONNECTED through TIR and generated C, against the reference
// interpreter on random inputs: every dtype combination the lowering covers.
#include <QtTest>

#include "codegen_checks.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace fully_connected_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct FcCase {
  ir::DType activations = ir::DType::Int8;
  bool perChannel = false;
  std::int64_t weightsZeroPoint = 0;
  ir::DType biasType = ir::DType::Int32;
  bool bias = true;
  ir::Activation activation = ir::Activation::None;
  int batches = 2, depth = 37, units = 11;
};

ir::Graph fcGraph(const FcCase& c) {
  GraphBuilder g;
  const bool int16 = c.activations == ir::DType::Int16;
  const int in =
      g.tensor("in", c.activations, {c.batches, c.depth}, test::perTensor(0.05f, int16 ? 0 : -7));
  const ir::Quantization wq = c.perChannel ? test::perChannel(std::vector<float>(c.units, 0.01f), 0)
                                           : test::perTensor(0.01f, c.weightsZeroPoint);
  ir::Quantization pc = wq;
  if (c.perChannel) {
    for (int u = 0; u < c.units; ++u) pc.scales[u] = 0.004f + 0.001f * u;
  }
  const int w = g.constant("w", ir::DType::Int8, {c.units, c.depth},
                           test::randomValues<std::int8_t>(c.units * c.depth, -127, 127, 3), pc);
  int b = ir::kNoTensor;
  if (c.bias && c.biasType == ir::DType::Int64) {
    b = g.constant("b", ir::DType::Int64, {c.units},
                   test::randomValues<std::int64_t>(c.units, -40000, 40000, 4));
  } else if (c.bias) {
    b = g.constant("b", ir::DType::Int32, {c.units},
                   test::randomValues<std::int32_t>(c.units, -900, 900, 4));
  }
  const int out = g.tensor("out", c.activations, {c.batches, c.units},
                           test::perTensor(int16 ? 0.02f : 0.11f, int16 ? 0 : 5));
  ir::FullyConnectedAttrs attrs;
  attrs.activation = c.activation;
  g.op(ir::OpType::FullyConnected, {in, w, b}, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

ir::Graph floatFcGraph(bool bias) {
  GraphBuilder g;
  const int in = g.tensor("in", ir::DType::Float32, {3, 19});
  std::vector<float> weights(19 * 7);
  std::mt19937 random(9);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  for (auto& v : weights) v = value(random);
  const int w = g.constant("w", ir::DType::Float32, {7, 19}, weights);
  const int b =
      bias ? g.constant("b", ir::DType::Float32, {7}, std::vector<float>(7, 0.25f)) : ir::kNoTensor;
  const int out = g.tensor("out", ir::DType::Float32, {3, 7});
  ir::FullyConnectedAttrs attrs;
  attrs.activation = ir::Activation::Relu;
  g.op(ir::OpType::FullyConnected, {in, w, b}, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

}  // namespace

class FullyConnectedCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("variant");
    QTest::newRow("int8 per-tensor") << 0;
    QTest::newRow("int8 per-channel relu6") << 1;
    QTest::newRow("int8 weights zero point") << 2;
    QTest::newRow("int8 no bias") << 3;
    QTest::newRow("16x8 int64 bias") << 4;
    QTest::newRow("16x8 int32 bias relu") << 5;
    QTest::newRow("16x8 no bias (int64 sum, as TFLM)") << 6;
  }

  void matchesReference() {
    QFETCH(int, variant);
    FcCase c;
    if (variant == 1) c.perChannel = true, c.activation = ir::Activation::Relu6;
    if (variant == 2) c.weightsZeroPoint = 3;
    if (variant == 3) c.bias = false;
    if (variant == 4) c.activations = ir::DType::Int16, c.biasType = ir::DType::Int64;
    if (variant == 5) c.activations = ir::DType::Int16, c.activation = ir::Activation::Relu;
    if (variant == 6) c.activations = ir::DType::Int16, c.bias = false;
    const ir::Graph graph = fcGraph(c);
    for (std::uint32_t seed : {1u, 2u}) test::expectMatchesReference(graph, seed);
  }

  void floatMatchesReferenceExactly() {
    // Same order of float operations as the reference: identical bits.
    for (bool bias : {true, false}) {
      const ir::Graph graph = floatFcGraph(bias);
      test::expectMatchesReference(graph, 5);
    }
  }

  void inputOffsetIsFoldedIntoTheBiasTable() {
    // The inner loop of symmetric int8 weights is a plain multiply-add: the
    // input zero point appears nowhere in the TIR.
    const ir::Graph graph = fcGraph({});
    const auto model = codegen::compileToC(graph, {});
    const std::string tir = tir::printPrimFunc(model.functions.at(0));
    QVERIFY2(tir.find("acc[0] = acc[0] + (T.Cast(\"int32\", weights[(u * 37) + d]) * "
                      "T.Cast(\"int32\", input[(b * 37) + d]))") != std::string::npos,
             tir.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(FullyConnectedCodegen)

}  // namespace fully_connected_test

#include "fully_connected_test.moc"
