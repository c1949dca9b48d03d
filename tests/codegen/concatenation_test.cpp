// CONCATENATION through TIR and generated C, byte for byte against the
// reference interpreter: every element type the reference kernel accepts
// (float32, int8, int16, int32, int64, bool), ranks 1 to 5, two to four
// inputs, positive and negative axes, constant inputs, an input used twice
// and inputs that are empty along the axis. Along the last axis every
// output row is a few contiguous copies, along the first the copies are
// flat. Inputs quantised differently from the output and fused activations
// are refused with the reference kernel's reason (TFLite Micro copies values
// without requantising and implements no activation).
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace concatenation_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct ConcatenationCase {
  const char* name;
  ir::DType dtype;
  std::vector<ir::Shape> inputs;
  int axis;
  int constantInput = -1;  // this input is a constant tensor, not a model input
};

const ConcatenationCase kCases[] = {
    {"float32 rank 2 last axis", ir::DType::Float32, {{2, 3}, {2, 5}}, 1},
    {"float32 rank 5 axis 3", ir::DType::Float32, {{2, 1, 3, 2, 2}, {2, 1, 3, 1, 2}}, 3},
    {"int8 rank 3 first axis three inputs", ir::DType::Int8, {{2, 3, 4}, {1, 3, 4}, {3, 3, 4}}, 0},
    {"int8 rank 4 axis -1 channels", ir::DType::Int8, {{1, 4, 4, 3}, {1, 4, 4, 5}}, -1},
    {"int8 rank 4 axis 2 four inputs",
     ir::DType::Int8,
     {{2, 3, 1, 4}, {2, 3, 2, 4}, {2, 3, 3, 4}, {2, 3, 1, 4}},
     2},
    {"int8 one element per row", ir::DType::Int8, {{6, 1}, {6, 1}, {6, 1}}, 1},
    {"int16 rank 4 axis 2 four inputs",
     ir::DType::Int16,
     {{1, 2, 2, 3}, {1, 2, 5, 3}, {1, 2, 1, 3}, {1, 2, 3, 3}},
     2},
    {"int16 rank 3 axis -2", ir::DType::Int16, {{3, 2, 7}, {3, 4, 7}}, -2},
    {"int32 rank 1", ir::DType::Int32, {{5}, {11}, {1}}, 0},
    {"int32 constant input", ir::DType::Int32, {{2, 3}, {2, 2}}, -1, 1},
    {"int64 rank 2 axis -2", ir::DType::Int64, {{2, 3}, {4, 3}}, -2},
    {"int64 rank 2 last axis", ir::DType::Int64, {{3, 1}, {3, 2}}, 1},
    {"bool rank 3 axis 1", ir::DType::Bool, {{2, 3, 5}, {2, 1, 5}, {2, 2, 5}}, 1},
    {"bool rank 1", ir::DType::Bool, {{9}, {4}}, 0},
    {"int8 input empty along the axis", ir::DType::Int8, {{2, 3}, {2, 0}, {2, 4}}, 1},
};

ir::Quantization quantizationOf(ir::DType dtype) {
  if (dtype == ir::DType::Int8) return test::perTensor(0.25f, -3);
  if (dtype == ir::DType::Int16) return test::perTensor(0.002f, 0);
  return {};
}

// Deterministic bytes for a constant input of `shape`.
std::vector<std::uint8_t> constantBytes(ir::DType dtype, const ir::Shape& shape) {
  const auto size = static_cast<std::size_t>(ir::elementCount(shape)) * ir::dtypeSize(dtype);
  return test::randomValues<std::uint8_t>(size, 0, 255, 99);
}

ir::Shape outputShape(const std::vector<ir::Shape>& inputs, int axis) {
  ir::Shape out = inputs.front();
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + static_cast<int>(out.size()) : axis);
  out[a] = 0;
  for (const ir::Shape& s : inputs) out[a] += s[a];
  return out;
}

// The inputs are tensors of the case's shapes; `quantizations` overrides the
// output's quantisation per input when given.
ir::Graph concatenationGraph(const ConcatenationCase& c,
                             const std::vector<ir::Quantization>& quantizations = {},
                             ir::Activation activation = ir::Activation::None) {
  GraphBuilder g;
  const ir::Quantization q = quantizationOf(c.dtype);
  std::vector<int> inputs, modelInputs;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const ir::Quantization qi = i < quantizations.size() ? quantizations[i] : q;
    const std::string name = "in" + std::to_string(i);
    if (static_cast<int>(i) == c.constantInput) {
      inputs.push_back(
          g.constant(name, c.dtype, c.inputs[i], constantBytes(c.dtype, c.inputs[i]), qi));
    } else {
      inputs.push_back(g.tensor(name, c.dtype, c.inputs[i], qi));
      modelInputs.push_back(inputs.back());
    }
  }
  const int out = g.tensor("out", c.dtype, outputShape(c.inputs, c.axis), q);
  g.op(ir::OpType::Concatenation, inputs, {out}, ir::ConcatenationAttrs{c.axis, activation});
  return g.inputs(modelInputs).outputs({out}).build();
}

std::string tirOf(const ir::Graph& graph) {
  return tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
}

// The LoweringError message of compiling `graph`, or "" when it compiles.
std::string loweringError(const ir::Graph& graph) {
  try {
    codegen::compileToC(graph, {});
  } catch (const lowering::LoweringError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

class ConcatenationCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
      QTest::newRow(kCases[i].name) << static_cast<int>(i);
    }
  }

  void matchesReference() {
    QFETCH(int, index);
    const ir::Graph graph = concatenationGraph(kCases[static_cast<std::size_t>(index)]);
    const std::string difference = test::differenceFromReference(graph, {1, 2});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void oneTensorTwiceMatchesReference() {
    GraphBuilder g;
    const auto q = test::perTensor(0.1f, 4);
    const int in = g.tensor("in", ir::DType::Int8, {2, 3}, q);
    const int out = g.tensor("out", ir::DType::Int8, {2, 6}, q);
    g.op(ir::OpType::Concatenation, {in, in}, {out}, ir::ConcatenationAttrs{1});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const std::string difference = test::differenceFromReference(graph, {3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void extremeValuesAreCopiedUnchanged() {
    // Saturated int16 and int8 values and float infinities survive the copy.
    GraphBuilder g;
    const int a = g.tensor("a", ir::DType::Int16, {1, 2}, test::perTensor(0.5f, 0));
    const int b = g.tensor("b", ir::DType::Int16, {1, 2}, test::perTensor(0.5f, 0));
    const int out = g.tensor("out", ir::DType::Int16, {1, 4}, test::perTensor(0.5f, 0));
    g.op(ir::OpType::Concatenation, {a, b}, {out}, ir::ConcatenationAttrs{-1});
    const ir::Graph graph = g.inputs({a, b}).outputs({out}).build();
    const std::vector<test::Bytes> inputs = {{0x00, 0x80, 0xff, 0x7f}, {0x01, 0x80, 0xfe, 0x7f}};
    const auto expected = test::runReference(graph, inputs);
    QCOMPARE(expected.at(0), (test::Bytes{0x00, 0x80, 0xff, 0x7f, 0x01, 0x80, 0xfe, 0x7f}));
    QCOMPARE(test::runGeneratedC(graph, inputs), expected);
  }

  void lastAxisIsContiguousCopiesPerRow() {
    // [1,4,4,3] ++ [1,4,4,5] on channels: 16 rows of a 3- and a 5-element
    // copy (unrolled), no loop over the other dimensions.
    const std::string tir = tirOf(concatenationGraph(kCases[3]));
    QVERIFY2(tir.find("in range(16)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("range(4)") == std::string::npos, tir.c_str());
    QVERIFY2(tir.find("output[(o * 8) + 7] = input1[(o * 5) + 4]") != std::string::npos,
             tir.c_str());
  }

  void firstAxisIsOneFlatCopyPerInput() {
    const std::string tir = tirOf(concatenationGraph(kCases[2]));
    for (const char* loop : {"in range(24)", "in range(12)", "in range(36)"}) {
      QVERIFY2(tir.find(loop) != std::string::npos, tir.c_str());
    }
    QVERIFY2(tir.find(" o ") == std::string::npos, tir.c_str());
  }

  void differentlyQuantisedInputsAreRefused() {
    // TFLite Micro copies without requantising; the reference refuses, and
    // so does the lowering, for int8 and int16, in any input slot.
    const ConcatenationCase& int8Case = kCases[4];
    for (std::size_t slot = 0; slot < int8Case.inputs.size(); ++slot) {
      std::vector<ir::Quantization> q(int8Case.inputs.size(), quantizationOf(ir::DType::Int8));
      q[slot] = slot % 2 == 0 ? test::perTensor(0.5f, -3) : test::perTensor(0.25f, 7);
      const std::string error = loweringError(concatenationGraph(int8Case, q));
      QVERIFY2(error.find("#0 CONCATENATION: input " + std::to_string(slot)) != std::string::npos,
               error.c_str());
      QVERIFY2(error.find("without requantising") != std::string::npos, error.c_str());
    }
    const ConcatenationCase& int16Case = kCases[7];
    const std::string error = loweringError(
        concatenationGraph(int16Case, {test::perTensor(0.002f, 0), test::perTensor(0.004f, 0)}));
    QVERIFY2(error.find("without requantising") != std::string::npos, error.c_str());
  }

  void fusedActivationIsRefused() {
    for (ir::Activation activation : {ir::Activation::Relu, ir::Activation::Relu6}) {
      const std::string error = loweringError(concatenationGraph(kCases[0], {}, activation));
      QVERIFY2(error.find("fused activation") != std::string::npos, error.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(ConcatenationCodegen)

}  // namespace concatenation_test

#include "concatenation_test.moc"
