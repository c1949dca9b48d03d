// AVERAGE_POOL_2D and MAX_POOL_2D through TIR and generated C, byte for byte
// against the reference interpreter: int8, int16 and float32, SAME and VALID
// padding, windows from 1x1 to the whole input, fused activations; and the
// real AVERAGE_POOL_2D of kws_ref_model.
#include <QtTest>

#include "codegen_checks.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "reference/quantized_params.h"
#include "test_data.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace pool2d_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct PoolCase {
  const char* name;
  int height, width, channels;
  int filterH, filterW, strideH, strideW;
  ir::Padding padding;
  ir::Activation activation = ir::Activation::None;
};

const PoolCase kCases[] = {
    {"2x2 stride 2 valid", 8, 8, 3, 2, 2, 2, 2, ir::Padding::Valid},
    {"3x3 stride 1 same", 7, 6, 4, 3, 3, 1, 1, ir::Padding::Same},
    {"3x3 stride 2 same odd", 9, 7, 2, 3, 3, 2, 2, ir::Padding::Same},
    {"3x3 stride 2 same even", 8, 8, 2, 3, 3, 2, 2, ir::Padding::Same},
    {"5x5 stride 1 same (computed borders)", 9, 10, 3, 5, 5, 1, 1, ir::Padding::Same},
    {"7x7 on 7x7 same (all border)", 7, 7, 2, 7, 7, 1, 1, ir::Padding::Same},
    {"3x2 stride 2x1 same relu", 6, 5, 3, 3, 2, 2, 1, ir::Padding::Same, ir::Activation::Relu},
    {"1x1 stride 1 valid relu6", 4, 4, 5, 1, 1, 1, 1, ir::Padding::Valid, ir::Activation::Relu6},
    {"global valid", 5, 6, 8, 5, 6, 1, 1, ir::Padding::Valid},
    {"4x4 stride 3 valid n1to1", 11, 10, 2, 4, 4, 3, 3, ir::Padding::Valid,
     ir::Activation::ReluN1To1},
    {"window larger than stride same", 10, 3, 2, 4, 3, 1, 2, ir::Padding::Same},
};

ir::Graph poolGraph(ir::OpType type, ir::DType dtype, const PoolCase& c) {
  ir::Pool2DAttrs attrs;
  attrs.padding = c.padding;
  attrs.filterH = c.filterH;
  attrs.filterW = c.filterW;
  attrs.strideH = c.strideH;
  attrs.strideW = c.strideW;
  attrs.activation = c.activation;
  const reference::WindowGeometry g = reference::computeWindowGeometry(
      c.padding, c.height, c.width, c.filterH, c.filterW, c.strideH, c.strideW);
  ir::Quantization q;
  if (dtype == ir::DType::Int8) q = test::perTensor(0.05f, -3);
  if (dtype == ir::DType::Int16) q = test::perTensor(0.002f, 0);
  GraphBuilder b;
  const int in = b.tensor("in", dtype, {2, c.height, c.width, c.channels}, q);
  const int out = b.tensor("out", dtype, {2, g.outHeight, g.outWidth, c.channels}, q);
  b.op(type, {in}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

}  // namespace

class Pool2DCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("shape");
    for (auto [type, typeName] : {std::pair{ir::OpType::AveragePool2D, "average"},
                                  std::pair{ir::OpType::MaxPool2D, "max"}}) {
      for (auto [dtype, dtypeName] :
           {std::pair{ir::DType::Int8, "int8"}, std::pair{ir::DType::Int16, "int16"},
            std::pair{ir::DType::Float32, "float32"}}) {
        for (std::size_t i = 0; i < std::size(kCases); ++i) {
          const std::string row = std::string(typeName) + " " + dtypeName + " " + kCases[i].name;
          QTest::newRow(row.c_str())
              << static_cast<int>(type) << static_cast<int>(dtype) << static_cast<int>(i);
        }
      }
    }
  }

  void matchesReference() {
    QFETCH(int, type);
    QFETCH(int, dtype);
    QFETCH(int, shape);
    const ir::Graph graph = poolGraph(static_cast<ir::OpType>(type), static_cast<ir::DType>(dtype),
                                      kCases[static_cast<std::size_t>(shape)]);
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void interiorWindowsDivideByAConstant() {
    // 3x3 SAME stride 1: the interior run divides by 9 without counting; the
    // window loops are unrolled, so no loop over fy/fx remains there.
    const ir::Graph graph = poolGraph(ir::OpType::AveragePool2D, ir::DType::Int8, kCases[1]);
    const auto model = codegen::compileToC(graph, {});
    const std::string tir = tir::printPrimFunc(model.functions.at(0));
    QVERIFY2(tir.find("T.call_intrin(\"int32\", \"loupe.average_pool_round\", acc[0], 9)") !=
                 std::string::npos,
             tir.c_str());
    QVERIFY2(tir.find("for fy") == std::string::npos, tir.c_str());
  }

  void largeWindowsComputeTheirBorders() {
    // 5x5 SAME: the two border rows on each side share one loop whose window
    // bounds are computed per row, instead of one loop nest per row.
    const ir::Graph graph = poolGraph(ir::OpType::AveragePool2D, ir::DType::Int8, kCases[4]);
    const std::string tir = tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
    QVERIFY2(tir.find("iy_first") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("T.call_intrin(\"int32\", \"loupe.average_pool_round\", acc[0], 25)") !=
                 std::string::npos,
             tir.c_str());
  }

  void kwsAveragePoolMatchesReference() {
    const ir::Graph model =
        frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite");
    const int op = test::firstOperatorOf(model, ir::OpType::AveragePool2D);
    QVERIFY(op >= 0);
    const ir::Graph graph = test::oneOperatorGraph(model, op);
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(Pool2DCodegen)

}  // namespace pool2d_test

#include "pool2d_test.moc"
