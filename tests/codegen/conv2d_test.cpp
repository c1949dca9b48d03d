// CONV_2D through TIR and generated C, byte for byte against the reference
// interpreter on random inputs: every dtype combination (int8 per-channel and
// per-tensor, 16x8 with int64, int32 or no bias, float32), strides, dilation,
// SAME and VALID padding with odd and even totals, filters larger than the
// input, batches, groups, fused activations; then every CONV_2D of the
// shared models as a graph of its own.
#include <QtTest>

#include <random>

#include "codegen_checks.h"
#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "lowering/conv_lowering_common.h"
#include "test_data.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace conv2d_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct ConvCase {
  ir::DType activations = ir::DType::Int8;
  ir::DType biasType = ir::DType::Int32;  // the type of the bias, when there is one
  bool bias = true;
  bool perChannel = true;
  int inputZeroPoint = -3;
  int batches = 1, height = 7, width = 9, depth = 5;
  int outChannels = 6, filterHeight = 3, filterWidth = 3, filterDepth = 0;  // 0: depth
  int stride = 1, strideW = 0, dilation = 1;                                // strideW 0: stride
  ir::Padding padding = ir::Padding::Same;
  ir::Activation activation = ir::Activation::None;
  float outputScale = 0;  // 0: a scale that keeps most outputs inside the range
  std::int64_t biasMagnitude = 2000;
};

ir::Graph convGraph(const ConvCase& c) {
  const int filterDepth = c.filterDepth > 0 ? c.filterDepth : c.depth;
  ir::Conv2DAttrs attrs;
  attrs.padding = c.padding;
  attrs.strideH = c.stride;
  attrs.strideW = c.strideW > 0 ? c.strideW : c.stride;
  attrs.dilationH = attrs.dilationW = c.dilation;
  attrs.activation = c.activation;
  const reference::WindowGeometry geometry = reference::computeWindowGeometry(
      c.padding, c.height, c.width, c.filterHeight, c.filterWidth, attrs.strideH, attrs.strideW,
      attrs.dilationH, attrs.dilationW);
  const ir::Shape inShape = {c.batches, c.height, c.width, c.depth};
  const ir::Shape filterShape = {c.outChannels, c.filterHeight, c.filterWidth, filterDepth};
  const ir::Shape outShape = {c.batches, geometry.outHeight, geometry.outWidth, c.outChannels};
  const auto filterCount = static_cast<std::size_t>(ir::elementCount(filterShape));
  const auto channels = static_cast<std::size_t>(c.outChannels);

  GraphBuilder g;
  int in, w, b = ir::kNoTensor, out;
  if (c.activations == ir::DType::Float32) {
    in = g.tensor("in", ir::DType::Float32, inShape);
    w = g.constant("w", ir::DType::Float32, filterShape, test::randomFloats(filterCount, 3));
    if (c.bias)
      b = g.constant("b", ir::DType::Float32, {c.outChannels}, test::randomFloats(channels, 4));
    out = g.tensor("out", ir::DType::Float32, outShape);
  } else {
    const bool int16 = c.activations == ir::DType::Int16;
    in = g.tensor("in", c.activations, inShape,
                  test::perTensor(int16 ? 0.002f : 0.05f, int16 ? 0 : c.inputZeroPoint));
    std::vector<float> scales;
    for (int oc = 0; oc < c.outChannels; ++oc) scales.push_back(0.004f + 0.0007f * oc);
    const ir::Quantization filterQuant =
        c.perChannel ? test::perChannel(scales, 0) : test::perTensor(0.006f, 0);
    w = g.constant("w", ir::DType::Int8, filterShape,
                   test::randomValues<std::int8_t>(filterCount, -127, 127, 3), filterQuant);
    if (c.bias && c.biasType == ir::DType::Int64) {
      b = g.constant("b", ir::DType::Int64, {c.outChannels},
                     test::randomValues<std::int64_t>(channels, -c.biasMagnitude * 20,
                                                      c.biasMagnitude * 20, 4));
    } else if (c.bias) {
      b = g.constant(
          "b", ir::DType::Int32, {c.outChannels},
          test::randomValues<std::int32_t>(channels, -c.biasMagnitude, c.biasMagnitude, 4));
    }
    // Output scales that keep most values inside the range but still clamp.
    const float outScale = c.outputScale > 0 ? c.outputScale : int16 ? 0.05f : 0.03f;
    out = g.tensor("out", c.activations, outShape, test::perTensor(outScale, int16 ? 0 : 4));
  }
  g.op(ir::OpType::Conv2D, {in, w, b}, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

}  // namespace

class Conv2DCodegen : public QObject {
  Q_OBJECT

 private slots:
  void windowRunsSplitBorderFromInterior() {
    // SAME, 3 taps, stride 1 over 5 positions: the first and last windows
    // clip one tap each, the three between are complete.
    const auto runs = lowering::windowRuns(5, 5, 3, 1, 1, 1);
    QCOMPARE(runs.size(), std::size_t{3});
    QCOMPARE(runs[0].outCount, 1);
    QCOMPARE(runs[0].tapBegin, 1);
    QCOMPARE(runs[1].outBegin, 1);
    QCOMPARE(runs[1].outCount, 3);
    QVERIFY(runs[1].complete);
    QCOMPARE(runs[2].tapEnd, 2);
    // Dilation 2, 3 taps reaching 2 before the input: the first two windows
    // both drop tap 0 (inputs -2 and -1).
    const auto dilated = lowering::windowRuns(4, 4, 3, 1, 2, 2);
    QCOMPARE(dilated[0].outCount, 2);
    QCOMPARE(dilated[0].tapBegin, 1);
    // A filter larger than the input: no position is complete.
    for (const auto& run : lowering::windowRuns(3, 3, 5, 1, 1, 2)) QVERIFY(!run.complete);
  }

  void matchesReference_data() {
    QTest::addColumn<int>("variant");
    const char* names[] = {
        "int8 3x3 SAME stride 1",
        "int8 3x3 SAME stride 2, even input (odd total padding)",
        "int8 3x3 SAME stride 2, odd input (even total padding)",
        "int8 4x3 VALID stride 2",
        "int8 dilation 2 SAME",
        "int8 dilation 2 VALID stride 1x2",
        "int8 1x1",
        "int8 1x1 stride 2 VALID",
        "int8 5x5 filter larger than the 3x4 input, SAME",
        "int8 batches 2",
        "int8 relu",
        "int8 relu6",
        "int8 per-tensor",
        "int8 zero point 0",
        "int8 no bias",
        "int8 groups 2",
        "int8 filter as wide as the input",
        "int8 huge bias (int64 accumulator)",
        "16x8 int64 bias",
        "16x8 int32 bias relu",
        "16x8 no bias",
        "16x8 deep window (int64 accumulator)",
        "16x8 int64 bias, groups 3 dilation 2",
        "float32 SAME stride 1",
        "float32 SAME stride 2 relu6 no bias",
        "float32 dilation 2 batches 2",
        "float32 filter larger than the input",
        "float32 groups 2 VALID",
        "int8 multipliers from 0.8 to 1.5 (left shifts)",
    };
    for (int i = 0; i < static_cast<int>(std::size(names)); ++i) QTest::newRow(names[i]) << i;
  }

  void matchesReference() {
    QFETCH(int, variant);
    ConvCase c;
    switch (variant) {
      case 0:
        break;
      case 1:
        c.height = c.width = 8, c.stride = 2;
        break;
      case 2:
        c.height = 9, c.width = 7, c.stride = 2;
        break;
      case 3:
        c.filterHeight = 4, c.stride = 2, c.padding = ir::Padding::Valid;
        break;
      case 4:
        c.dilation = 2;
        break;
      case 5:
        c.dilation = 2, c.strideW = 2, c.padding = ir::Padding::Valid;
        break;
      case 6:
        c.filterHeight = c.filterWidth = 1, c.depth = 16, c.outChannels = 8;
        break;
      case 7:
        c.filterHeight = c.filterWidth = 1, c.stride = 2, c.padding = ir::Padding::Valid;
        break;
      case 8:
        c.height = 3, c.width = 4, c.filterHeight = c.filterWidth = 5;
        break;
      case 9:
        c.batches = 2;
        break;
      case 10:
        c.activation = ir::Activation::Relu;
        break;
      case 11:
        c.activation = ir::Activation::Relu6;
        break;
      case 12:
        c.perChannel = false;
        break;
      case 13:
        c.inputZeroPoint = 0;
        break;
      case 14:
        c.bias = false;
        break;
      case 15:
        c.depth = 6, c.filterDepth = 3, c.outChannels = 4;
        break;
      case 16:
        c.width = 4, c.filterWidth = 4, c.filterHeight = 2, c.padding = ir::Padding::Valid;
        break;
      case 17:
        c.biasMagnitude = 2147000000;
        break;
      case 18:
        c.activations = ir::DType::Int16, c.biasType = ir::DType::Int64;
        break;
      case 19:
        c.activations = ir::DType::Int16, c.activation = ir::Activation::Relu;
        break;
      case 20:
        c.activations = ir::DType::Int16, c.bias = false;
        break;
      case 21:
        c.activations = ir::DType::Int16, c.depth = 64, c.filterHeight = c.filterWidth = 3;
        break;
      case 22:
        c.activations = ir::DType::Int16, c.biasType = ir::DType::Int64, c.depth = 6,
        c.filterDepth = 2, c.dilation = 2;
        break;
      case 23:
        c.activations = ir::DType::Float32;
        break;
      case 24:
        c.activations = ir::DType::Float32, c.stride = 2, c.bias = false,
        c.activation = ir::Activation::Relu6;
        break;
      case 25:
        c.activations = ir::DType::Float32, c.dilation = 2, c.batches = 2;
        break;
      case 26:
        c.activations = ir::DType::Float32, c.height = 2, c.width = 3,
        c.filterHeight = c.filterWidth = 4;
        break;
      case 27:
        c.activations = ir::DType::Float32, c.depth = 4, c.filterDepth = 2,
        c.padding = ir::Padding::Valid;
        break;
      case 28:
        c.filterHeight = c.filterWidth = 1, c.depth = 2, c.outputScale = 0.00025f;
        break;
      default:
        QFAIL("unknown variant");
    }
    const ir::Graph graph = convGraph(c);
    for (std::uint32_t seed : {1u, 2u}) test::expectMatchesReference(graph, seed);
  }

  void eachChannelIsOneDotProductOverThePatch() {
    // The window (3 x 3 x 5 = 45 values, padded to 48) is gathered once per
    // pixel with the input offset added; each output channel is then a plain
    // multiply-accumulate over the patch. No bounds check remains.
    const auto model = codegen::compileToC(convGraph({}), {});
    const std::string tir = tir::printPrimFunc(model.functions.at(0));
    QVERIFY2(tir.find("acc[0] = acc[0] + (T.Cast(\"int32\", filter[(oc * 48) + i]) * "
                      "T.Cast(\"int32\", patch[i]))") != std::string::npos,
             tir.c_str());
    QVERIFY2(tir.find("patch[((ky * 15) + j) + 5] = T.Cast(\"int16\", T.Cast(\"int32\", "
                      "input[((ky * 45) + j) + -45]) + 3)") != std::string::npos,
             tir.c_str());
    QVERIFY2(tir.find("if ") == std::string::npos, tir.c_str());
  }

  void windowsTooLargeForAPatchReadTheInputDirectly() {
    // 3 x 3 x 512 values exceed the patch limit: the interior reads filter
    // rows of 3 x 512 contiguous values straight from the input, its starting
    // values with the input zero point folded in.
    ConvCase c;
    c.height = 4, c.width = 5, c.depth = 512, c.outChannels = 3;
    const ir::Graph graph = convGraph(c);
    const std::string tir = tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
    QVERIFY2(tir.find("patch") == std::string::npos, tir.c_str());
    QVERIFY2(tir.find("for i in range(1536):") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("acc_init[oc]") != std::string::npos, tir.c_str());
    test::expectMatchesReference(graph, 3);
    // The same with two groups of 512 channels and dilation 2: taps one by one.
    c.depth = 1024, c.filterDepth = 512, c.outChannels = 4, c.dilation = 2;
    test::expectMatchesReference(convGraph(c), 4);
  }

  void everyConvolutionOfTheSharedModels_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("kws_ref_model") << "kws_ref_model";
    QTest::newRow("vww_96_int8") << "vww_96_int8";
    QTest::newRow("ic_resnet8_int8") << "ic_resnet8_int8";
  }

  void everyConvolutionOfTheSharedModels() {
    QFETCH(QString, model);
    const ir::Graph graph =
        frontend::importTfliteFile(test::modelsDir() / model.toStdString() / "model.tflite");
    int layers = 0;
    for (const ir::Operator& op : graph.operators) {
      if (op.type != ir::OpType::Conv2D) continue;
      const ir::Graph layer = test::oneOperatorGraph(graph, op.index);
      test::expectMatchesReference(layer, 7);
      if (QTest::currentTestFailed()) qWarning("operator #%d", op.index);
      ++layers;
    }
    QVERIFY(layers > 0);
  }
};

LOUPE_TEST_APPLESS_MAIN(Conv2DCodegen)

}  // namespace conv2d_test

#include "conv2d_test.moc"
