// PAD and PADV2 through TIR and generated C, byte for byte against the
// reference interpreter: int8 (zero point as pad value), int16, float32 and
// int32, ranks 1 to 5, padding in any subset of dimensions, PADV2's constant
// value given as a constant or as a model input; every TFLM SEANet PAD case
// against its golden output; non-constant paddings refused.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace pad_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct PadCase {
  const char* name;
  ir::DType dtype;
  ir::Shape shape;
  std::vector<std::int32_t> pads;  // before, after per dimension
};

const PadCase kCases[] = {
    {"int8 spatial", ir::DType::Int8, {1, 5, 6, 3}, {0, 0, 1, 2, 2, 0, 0, 0}},
    {"int8 every dimension", ir::DType::Int8, {2, 3, 4, 2}, {1, 0, 0, 2, 1, 1, 2, 1}},
    {"int8 last dimension", ir::DType::Int8, {3, 4}, {0, 0, 1, 2}},
    {"int8 no padding", ir::DType::Int8, {2, 3}, {0, 0, 0, 0}},
    {"int8 rank 5", ir::DType::Int8, {2, 1, 3, 2, 2}, {0, 1, 1, 0, 0, 0, 2, 1, 0, 1}},
    {"int16 rank 3", ir::DType::Int16, {4, 5, 2}, {0, 0, 3, 1, 0, 0}},
    {"int16 leading dimension", ir::DType::Int16, {3, 8}, {2, 1, 0, 0}},
    {"float32 rank 2", ir::DType::Float32, {3, 3}, {1, 1, 1, 1}},
    {"int32 rank 1", ir::DType::Int32, {7}, {3, 4}},
};

ir::Shape paddedShape(const PadCase& c) {
  ir::Shape out = c.shape;
  for (std::size_t d = 0; d < out.size(); ++d) out[d] += c.pads[2 * d] + c.pads[2 * d + 1];
  return out;
}

ir::Quantization quantizationOf(ir::DType dtype) {
  if (dtype == ir::DType::Int8) return test::perTensor(0.05f, -7);
  if (dtype == ir::DType::Int16) return test::perTensor(0.001f, 0);
  return {};
}

// PAD, or PADV2 with a constant value (`valueAsInput`: the value is a model
// input instead).
ir::Graph padGraph(const PadCase& c, bool v2 = false, bool valueAsInput = false) {
  GraphBuilder g;
  const ir::Quantization q = quantizationOf(c.dtype);
  const int in = g.tensor("in", c.dtype, c.shape, q);
  const int pads =
      g.constant("paddings", ir::DType::Int32, {static_cast<int>(c.shape.size()), 2}, c.pads);
  std::vector<int> inputs = {in, pads};
  std::vector<int> modelInputs = {in};
  if (v2) {
    int value = 0;
    if (valueAsInput) {
      value = g.tensor("value", c.dtype, {1}, q);
      modelInputs.push_back(value);
    } else if (c.dtype == ir::DType::Float32) {
      value = g.constant("value", c.dtype, {1}, std::vector<float>{-2.5f});
    } else if (c.dtype == ir::DType::Int8) {
      value = g.constant("value", c.dtype, {1}, std::vector<std::int8_t>{42}, q);
    } else if (c.dtype == ir::DType::Int16) {
      value = g.constant("value", c.dtype, {1}, std::vector<std::int16_t>{-1234}, q);
    } else {
      value = g.constant("value", c.dtype, {1}, std::vector<std::int32_t>{99999});
    }
    inputs.push_back(value);
  }
  const int out = g.tensor("out", c.dtype, paddedShape(c), q);
  g.op(v2 ? ir::OpType::PadV2 : ir::OpType::Pad, inputs, {out});
  return g.inputs(modelInputs).outputs({out}).build();
}

}  // namespace

class PadCodegen : public QObject {
  Q_OBJECT

  std::vector<test::SeanetCase> seanet_ = test::seanetCasesOf("pad");

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("variant");
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
      QTest::newRow((std::string("pad ") + kCases[i].name).c_str()) << static_cast<int>(i) << 0;
      QTest::newRow((std::string("padv2 constant ") + kCases[i].name).c_str())
          << static_cast<int>(i) << 1;
      QTest::newRow((std::string("padv2 input value ") + kCases[i].name).c_str())
          << static_cast<int>(i) << 2;
    }
  }

  void matchesReference() {
    QFETCH(int, index);
    QFETCH(int, variant);
    const ir::Graph graph =
        padGraph(kCases[static_cast<std::size_t>(index)], variant > 0, variant == 2);
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void unpaddedInnerDimensionsAreOneCopy() {
    // [1,5,6,3] padded in H and W only: each input row of 6*3 elements is one
    // loop, never a loop over channels.
    const std::string tir =
        tir::printPrimFunc(codegen::compileToC(padGraph(kCases[0]), {}).functions.at(0));
    QVERIFY2(tir.find("in range(18)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("in range(3)") == std::string::npos, tir.c_str());
  }

  void nonConstantPaddingsAreRefused() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {2, 3}, test::perTensor(0.1f, 0));
    const int pads = g.tensor("paddings", ir::DType::Int32, {2, 2});
    const int out = g.tensor("out", ir::DType::Int8, {4, 5}, test::perTensor(0.1f, 0));
    g.op(ir::OpType::Pad, {in, pads}, {out});
    const ir::Graph graph = g.inputs({in, pads}).outputs({out}).build();
    try {
      codegen::compileToC(graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(std::string(error.what()).find("constant") != std::string::npos, error.what());
    }
  }

  void seanetPadMatchesGolden_data() {
    QTest::addColumn<int>("index");
    QVERIFY(!seanet_.empty());
    for (std::size_t i = 0; i < seanet_.size(); ++i) {
      QTest::newRow(seanet_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void seanetPadMatchesGolden() {
    QFETCH(int, index);
    const std::string difference =
        test::differenceFromGolden(seanet_[static_cast<std::size_t>(index)]);
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(PadCodegen)

}  // namespace pad_test

#include "pad_test.moc"
