// DEPTHWISE_CONV_2D through TIR and generated C, byte for byte against the
// reference interpreter on random inputs: int8 per-channel and per-tensor,
// 16x8 with int64 or no bias, float32; strides, dilation, SAME and VALID
// padding with odd and even totals, filters larger than the input, batches,
// depth multipliers, fused activations; then every DEPTHWISE_CONV_2D of the
// shared models as a graph of its own.
#include <QtTest>

#include <random>

#include "codegen_checks.h"
#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "reference/quantized_params.h"
#include "test_data.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace depthwise_conv2d_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct DepthwiseCase {
  ir::DType activations = ir::DType::Int8;
  bool bias = true;
  bool perChannel = true;
  int inputZeroPoint = 5;
  int batches = 1, height = 7, width = 9, depth = 16, depthMultiplier = 1;
  int filterHeight = 3, filterWidth = 3;
  int stride = 1, strideW = 0, dilation = 1;  // strideW 0: stride
  ir::Padding padding = ir::Padding::Same;
  ir::Activation activation = ir::Activation::None;
  float outputScale = 0;  // 0: a scale that keeps most outputs inside the range
};

ir::Graph depthwiseGraph(const DepthwiseCase& c) {
  ir::DepthwiseConv2DAttrs attrs;
  attrs.padding = c.padding;
  attrs.strideH = c.stride;
  attrs.strideW = c.strideW > 0 ? c.strideW : c.stride;
  attrs.dilationH = attrs.dilationW = c.dilation;
  attrs.depthMultiplier = c.depthMultiplier;
  attrs.activation = c.activation;
  const reference::WindowGeometry geometry = reference::computeWindowGeometry(
      c.padding, c.height, c.width, c.filterHeight, c.filterWidth, attrs.strideH, attrs.strideW,
      attrs.dilationH, attrs.dilationW);
  const int channels = c.depth * c.depthMultiplier;
  const ir::Shape inShape = {c.batches, c.height, c.width, c.depth};
  const ir::Shape filterShape = {1, c.filterHeight, c.filterWidth, channels};
  const ir::Shape outShape = {c.batches, geometry.outHeight, geometry.outWidth, channels};
  const auto filterCount = static_cast<std::size_t>(ir::elementCount(filterShape));
  const auto channelCount = static_cast<std::size_t>(channels);

  GraphBuilder g;
  int in, w, b = ir::kNoTensor, out;
  if (c.activations == ir::DType::Float32) {
    in = g.tensor("in", ir::DType::Float32, inShape);
    w = g.constant("w", ir::DType::Float32, filterShape, test::randomFloats(filterCount, 3));
    if (c.bias)
      b = g.constant("b", ir::DType::Float32, {channels}, test::randomFloats(channelCount, 4));
    out = g.tensor("out", ir::DType::Float32, outShape);
  } else {
    const bool int16 = c.activations == ir::DType::Int16;
    in = g.tensor("in", c.activations, inShape,
                  test::perTensor(int16 ? 0.002f : 0.05f, int16 ? 0 : c.inputZeroPoint));
    std::vector<float> scales;
    for (int oc = 0; oc < channels; ++oc) scales.push_back(0.01f + 0.0013f * oc);
    const ir::Quantization filterQuant =
        c.perChannel ? test::perChannel(scales, 3) : test::perTensor(0.02f, 0);
    w = g.constant("w", ir::DType::Int8, filterShape,
                   test::randomValues<std::int8_t>(filterCount, -127, 127, 3), filterQuant);
    if (c.bias && int16) {
      b = g.constant("b", ir::DType::Int64, {channels},
                     test::randomValues<std::int64_t>(channelCount, -60000, 60000, 4));
    } else if (c.bias) {
      b = g.constant("b", ir::DType::Int32, {channels},
                     test::randomValues<std::int32_t>(channelCount, -3000, 3000, 4));
    }
    const float outScale = c.outputScale > 0 ? c.outputScale : int16 ? 0.02f : 0.04f;
    out = g.tensor("out", c.activations, outShape, test::perTensor(outScale, int16 ? 0 : -6));
  }
  g.op(ir::OpType::DepthwiseConv2D, {in, w, b}, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

}  // namespace

class DepthwiseConv2DCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("variant");
    const char* names[] = {
        "int8 3x3 SAME stride 1",
        "int8 3x3 SAME stride 2, even input (odd total padding)",
        "int8 3x3 SAME stride 2, odd input (even total padding)",
        "int8 5x3 VALID stride 2",
        "int8 dilation 2 SAME",
        "int8 dilation 2 VALID stride 2x1",
        "int8 1x1",
        "int8 5x5 filter larger than the 3x4 input, SAME",
        "int8 batches 2",
        "int8 depth multiplier 2",
        "int8 depth multiplier 3, odd depth",
        "int8 relu",
        "int8 relu6",
        "int8 per-tensor",
        "int8 zero point 0",
        "int8 no bias",
        "16x8 int64 bias",
        "16x8 no bias relu",
        "16x8 depth multiplier 2, stride 2",
        "float32 SAME stride 1",
        "float32 SAME stride 2 relu6 no bias",
        "float32 dilation 2 batches 2 depth multiplier 2",
        "float32 filter larger than the input",
        "int8 multipliers from 0.8 to 1.5 (left shifts)",
    };
    for (int i = 0; i < static_cast<int>(std::size(names)); ++i) QTest::newRow(names[i]) << i;
  }

  void matchesReference() {
    QFETCH(int, variant);
    DepthwiseCase c;
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
        c.filterHeight = 5, c.stride = 2, c.padding = ir::Padding::Valid;
        break;
      case 4:
        c.dilation = 2;
        break;
      case 5:
        c.dilation = 2, c.stride = 2, c.strideW = 1, c.padding = ir::Padding::Valid;
        break;
      case 6:
        c.filterHeight = c.filterWidth = 1;
        break;
      case 7:
        c.height = 3, c.width = 4, c.filterHeight = c.filterWidth = 5;
        break;
      case 8:
        c.batches = 2;
        break;
      case 9:
        c.depthMultiplier = 2, c.depth = 8;
        break;
      case 10:
        c.depthMultiplier = 3, c.depth = 5;
        break;
      case 11:
        c.activation = ir::Activation::Relu;
        break;
      case 12:
        c.activation = ir::Activation::Relu6;
        break;
      case 13:
        c.perChannel = false;
        break;
      case 14:
        c.inputZeroPoint = 0;
        break;
      case 15:
        c.bias = false;
        break;
      case 16:
        c.activations = ir::DType::Int16;
        break;
      case 17:
        c.activations = ir::DType::Int16, c.bias = false, c.activation = ir::Activation::Relu;
        break;
      case 18:
        c.activations = ir::DType::Int16, c.depthMultiplier = 2, c.depth = 6, c.stride = 2;
        break;
      case 19:
        c.activations = ir::DType::Float32;
        break;
      case 20:
        c.activations = ir::DType::Float32, c.stride = 2, c.bias = false,
        c.activation = ir::Activation::Relu6;
        break;
      case 21:
        c.activations = ir::DType::Float32, c.dilation = 2, c.batches = 2, c.depthMultiplier = 2,
        c.depth = 4;
        break;
      case 22:
        c.activations = ir::DType::Float32, c.height = 2, c.width = 3,
        c.filterHeight = c.filterWidth = 4;
        break;
      case 23:
        c.outputScale = 0.0005f;
        break;
      default:
        QFAIL("unknown variant");
    }
    const ir::Graph graph = depthwiseGraph(c);
    for (std::uint32_t seed : {1u, 2u}) test::expectMatchesReference(graph, seed);
  }

  void channelsAccumulateInAScratchRow() {
    // Each pixel accumulates all 16 channels in a row of the function's
    // workspace scratch (64 bytes, lifted out of the stack): one loop over
    // the channels sums every tap; in the interior it starts from the table
    // with the input zero point folded in and adds no offset per tap. No
    // bounds check remains.
    const auto model = codegen::compileToC(depthwiseGraph({}), {});
    const std::string tir = tir::printPrimFunc(model.functions.at(0));
    QVERIFY2(tir.find("T.allocate((16,), \"int32\", \"workspace\")  # loupe_scratch[0:64]") !=
                 std::string::npos,
             tir.c_str());
    QCOMPARE(model.functions.at(0).scratchBytes, std::int64_t{64});
    QVERIFY2(tir.find("acc[c] = ((((((((acc_init[c] + (T.Cast(\"int32\", filter[c]) * "
                      "T.Cast(\"int32\", input[") != std::string::npos,
             tir.c_str());
    QVERIFY2(tir.find("if ") == std::string::npos, tir.c_str());
  }

  void everyDepthwiseConvolutionOfTheSharedModels_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("kws_ref_model") << "kws_ref_model";
    QTest::newRow("vww_96_int8") << "vww_96_int8";
  }

  void everyDepthwiseConvolutionOfTheSharedModels() {
    QFETCH(QString, model);
    const ir::Graph graph =
        frontend::importTfliteFile(test::modelsDir() / model.toStdString() / "model.tflite");
    int layers = 0;
    for (const ir::Operator& op : graph.operators) {
      if (op.type != ir::OpType::DepthwiseConv2D) continue;
      test::expectMatchesReference(test::oneOperatorGraph(graph, op.index), 7);
      if (QTest::currentTestFailed()) qWarning("operator #%d", op.index);
      ++layers;
    }
    QVERIFY(layers > 0);
  }
};

LOUPE_TEST_APPLESS_MAIN(DepthwiseConv2DCodegen)

}  // namespace depthwise_conv2d_test

#include "depthwise_conv2d_test.moc"
