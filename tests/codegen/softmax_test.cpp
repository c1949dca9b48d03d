// SOFTMAX through TIR and generated C, byte for byte against the reference
// interpreter: float32, int8 -> int8, int8 -> int16 and int16 -> int16, rows
// from 1 to 1000 elements (small int8 tensors evaluate exp, large ones read a
// table), several input scales and betas; and the real SOFTMAX of
// kws_ref_model, vww_96_int8, ic_resnet8_int8 and micro_speech.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "test_data.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace softmax_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct SoftmaxCase {
  const char* name;
  ir::DType input, output;
  ir::Shape shape;
  float inputScale;
  float beta = 1.0f;
};

const SoftmaxCase kCases[] = {
    {"int8 1x12", ir::DType::Int8, ir::DType::Int8, {1, 12}, 0.1f},
    {"int8 3x10 beta 0.5", ir::DType::Int8, ir::DType::Int8, {3, 10}, 0.1f, 0.5f},
    {"int8 2x5x7 coarse scale", ir::DType::Int8, ir::DType::Int8, {2, 5, 7}, 0.5f},
    {"int8 fine scale", ir::DType::Int8, ir::DType::Int8, {4, 9}, 0.0625f / 8},
    {"int8 1x1", ir::DType::Int8, ir::DType::Int8, {1, 1}, 0.1f},
    {"int8 4x64 table", ir::DType::Int8, ir::DType::Int8, {4, 64}, 0.1f},
    {"int8 1x1000 table coarse", ir::DType::Int8, ir::DType::Int8, {1, 1000}, 0.3f},
    {"int8 to int16 2x10", ir::DType::Int8, ir::DType::Int16, {2, 10}, 0.1f},
    {"int8 to int16 2x300 table", ir::DType::Int8, ir::DType::Int16, {2, 300}, 0.05f},
    {"int16 2x10", ir::DType::Int16, ir::DType::Int16, {2, 10}, 0.001f},
    {"int16 1x200 beta 2", ir::DType::Int16, ir::DType::Int16, {1, 200}, 0.0003f, 2.0f},
    {"int16 3x1", ir::DType::Int16, ir::DType::Int16, {3, 1}, 0.001f},
    {"float32 2x10", ir::DType::Float32, ir::DType::Float32, {2, 10}, 0.0f},
    {"float32 1x100 beta 0.5", ir::DType::Float32, ir::DType::Float32, {1, 100}, 0.0f, 0.5f},
};

ir::Graph softmaxGraph(const SoftmaxCase& c) {
  ir::Quantization qIn, qOut;
  if (c.input == ir::DType::Int8) qIn = test::perTensor(c.inputScale, 5);
  if (c.input == ir::DType::Int16) qIn = test::perTensor(c.inputScale, 0);
  if (c.input == ir::DType::Int8 && c.output == ir::DType::Int8) {
    qOut = test::perTensor(1.0f / 256, -128);
  } else if (c.input == ir::DType::Int8) {
    qOut = test::perTensor(1.0f / 65536, -32768);
  } else if (c.input == ir::DType::Int16) {
    qOut = test::perTensor(1.0f / 32768, 0);
  }
  GraphBuilder g;
  const int in = g.tensor("in", c.input, c.shape, qIn);
  const int out = g.tensor("out", c.output, c.shape, qOut);
  ir::SoftmaxAttrs attrs;
  attrs.beta = c.beta;
  g.op(ir::OpType::Softmax, {in}, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

std::string tirOf(const ir::Graph& graph) {
  return tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
}

}  // namespace

class SoftmaxCodegen : public QObject {
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
    const ir::Graph graph = softmaxGraph(kCases[static_cast<std::size_t>(index)]);
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void int8RowsCallTheSharedHelpers() {
    const std::string tir = tirOf(softmaxGraph(kCases[0]));
    for (const char* helper :
         {"loupe.softmax_exp_q31", "loupe.softmax_sum_term", "loupe.softmax_reciprocal",
          "loupe.softmax_reciprocal_exponent", "loupe.softmax_output"}) {
      QVERIFY2(tir.find(std::string("\"") + helper + "\"") != std::string::npos, tir.c_str());
    }
  }

  void largeInt8TensorsReadExponentialsFromATable() {
    const std::string tir = tirOf(softmaxGraph(kCases[5]));
    QVERIFY2(tir.find("exp_table") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("loupe.softmax_exp_q31") == std::string::npos, tir.c_str());
  }

  void modelSoftmaxMatchesReference_data() {
    QTest::addColumn<QString>("model");
    for (const char* model :
         {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "micro_speech_quantized"}) {
      QTest::newRow(model) << QString(model);
    }
  }

  void modelSoftmaxMatchesReference() {
    QFETCH(QString, model);
    const ir::Graph graph =
        frontend::importTfliteFile(test::modelsDir() / model.toStdString() / "model.tflite");
    const int op = test::firstOperatorOf(graph, ir::OpType::Softmax);
    QVERIFY(op >= 0);
    const std::string difference =
        test::differenceFromReference(test::oneOperatorGraph(graph, op), {1, 2, 3, 4});
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(SoftmaxCodegen)

}  // namespace softmax_test

#include "softmax_test.moc"
