// TRANSPOSE_CONV through TIR and generated C, byte for byte against the
// reference interpreter on random inputs: float32, int8 (per-channel and
// per-tensor weights, input zero points, int32 bias or none) and 16x8 (int64,
// int16 or no bias); strides 1, 2 and 3, unequal strides, kernels larger and
// smaller than the stride (outputs no input reaches), SAME and VALID
// padding, output sizes that leave padding on one side, batches, fused
// activations, and biases large enough for 64-bit accumulators.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace transpose_conv_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct TransposeConvCase {
  const char* name;
  ir::DType activations = ir::DType::Int8;
  ir::DType biasType = ir::DType::Int32;  // the type of the bias, when there is one
  bool bias = true;
  bool perChannel = true;
  int inputZeroPoint = -3;
  int batches = 1, height = 4, width = 5, depth = 3, outChannels = 4;
  int filterHeight = 3, filterWidth = 3;
  int strideH = 1, strideW = 1;
  ir::Padding padding = ir::Padding::Same;
  int outHeightTrim = 0;  // output rows fewer than the padding's natural size
  ir::Activation activation = ir::Activation::None;
  std::int64_t biasMagnitude = 3000;
  std::int64_t firstBias = 0;  // nonzero: channel 0's bias instead of a random one
  float outputScale = 0;       // 0: a scale that keeps most outputs inside the range
};

// TFLite's output size of a transposed convolution: the input size the
// forward convolution (same padding, stride and kernel) maps onto it.
int naturalOutSize(ir::Padding padding, int in, int stride, int kernel) {
  return padding == ir::Padding::Same ? in * stride : (in - 1) * stride + kernel;
}

ir::Graph transposeConvGraph(const TransposeConvCase& c) {
  const int outHeight =
      naturalOutSize(c.padding, c.height, c.strideH, c.filterHeight) - c.outHeightTrim;
  const int outWidth = naturalOutSize(c.padding, c.width, c.strideW, c.filterWidth);
  const ir::Shape inShape = {c.batches, c.height, c.width, c.depth};
  const ir::Shape filterShape = {c.outChannels, c.filterHeight, c.filterWidth, c.depth};
  const ir::Shape outShape = {c.batches, outHeight, outWidth, c.outChannels};
  const auto filterCount = static_cast<std::size_t>(ir::elementCount(filterShape));
  const auto channels = static_cast<std::size_t>(c.outChannels);

  GraphBuilder g;
  const int shape = g.constant<std::int32_t>("output_shape", ir::DType::Int32, {4},
                                             {c.batches, outHeight, outWidth, c.outChannels});
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
    for (int oc = 0; oc < c.outChannels; ++oc) scales.push_back(0.004f + 0.0009f * oc);
    const ir::Quantization filterQuant =
        c.perChannel ? test::perChannel(scales, 0) : test::perTensor(0.006f, 0);
    w = g.constant("w", ir::DType::Int8, filterShape,
                   test::randomValues<std::int8_t>(filterCount, -127, 127, 3), filterQuant);
    const std::int64_t m = c.biasMagnitude;
    if (c.bias && c.biasType == ir::DType::Int64) {
      b = g.constant("b", ir::DType::Int64, {c.outChannels},
                     test::randomValues<std::int64_t>(channels, -m * 20, m * 20, 4));
    } else if (c.bias && c.biasType == ir::DType::Int16) {
      b = g.constant("b", ir::DType::Int16, {c.outChannels},
                     test::randomValues<std::int16_t>(channels, -m, m, 4));
    } else if (c.bias) {
      auto values = test::randomValues<std::int32_t>(channels, -m, m, 4);
      if (c.firstBias != 0) values[0] = static_cast<std::int32_t>(c.firstBias);
      b = g.constant("b", ir::DType::Int32, {c.outChannels}, values);
    }
    const float outScale = c.outputScale > 0 ? c.outputScale : 0.02f;
    out = g.tensor("out", c.activations, outShape, test::perTensor(outScale, int16 ? 0 : 4));
  }
  ir::TransposeConvAttrs attrs;
  attrs.padding = c.padding;
  attrs.strideH = c.strideH;
  attrs.strideW = c.strideW;
  attrs.activation = c.activation;
  std::vector<int> inputs{shape, w, in};
  if (b != ir::kNoTensor) inputs.push_back(b);
  g.op(ir::OpType::TransposeConv, inputs, {out}, attrs);
  return g.inputs({in}).outputs({out}).build();
}

std::vector<TransposeConvCase> cases() {
  std::vector<TransposeConvCase> all;
  auto add = [&](TransposeConvCase c) { all.push_back(c); };
  using ir::Activation;
  using ir::DType;
  using ir::Padding;
  // int8
  add({"int8 3x3 SAME stride 1"});
  add({.name = "int8 3x3 SAME stride 2", .strideH = 2, .strideW = 2});
  add({.name = "int8 3x3 VALID stride 2", .strideH = 2, .strideW = 2, .padding = Padding::Valid});
  add({.name = "int8 2x2 VALID stride 2 (no overlap)",
       .filterHeight = 2,
       .filterWidth = 2,
       .strideH = 2,
       .strideW = 2,
       .padding = Padding::Valid});
  add({.name = "int8 1x1 SAME stride 3 (gaps)",
       .filterHeight = 1,
       .filterWidth = 1,
       .strideH = 3,
       .strideW = 3});
  add({.name = "int8 5x3 strides 2x1",
       .filterHeight = 5,
       .filterWidth = 3,
       .strideH = 2,
       .strideW = 1});
  add({.name = "int8 4x4 SAME stride 2, output one row short",
       .filterHeight = 4,
       .filterWidth = 4,
       .strideH = 2,
       .strideW = 2,
       .outHeightTrim = 1});
  add({.name = "int8 no bias", .bias = false});
  add({.name = "int8 per-tensor weights, zero point 0", .perChannel = false, .inputZeroPoint = 0});
  add({.name = "int8 batches 2 RELU", .batches = 2, .activation = Activation::Relu});
  add({.name = "int8 RELU6 stride 2",
       .strideH = 2,
       .strideW = 2,
       .activation = Activation::Relu6,
       .outputScale = 0.03f});
  add({.name = "int8 deep input",
       .height = 2,
       .width = 2,
       .depth = 40,
       .outChannels = 3,
       .strideH = 2,
       .strideW = 2});
  // A bias 2^21 below INT32_MAX with 360 products per output: an int32 sum
  // could overflow in the worst case, so the lowering sums in int64 (these
  // inputs stay inside int32, where the reference's int32 sum is defined).
  add({.name = "int8 bias near INT32_MAX, int64 accumulator",
       .depth = 40,
       .firstBias = 2147483647 - (1 << 21),
       .outputScale = 4000.0f});
  // 16x8
  add({.name = "16x8 int64 bias SAME stride 2",
       .activations = DType::Int16,
       .biasType = DType::Int64,
       .strideH = 2,
       .strideW = 2});
  add({.name = "16x8 int16 bias VALID",
       .activations = DType::Int16,
       .biasType = DType::Int16,
       .padding = Padding::Valid});
  add({.name = "16x8 no bias RELU",
       .activations = DType::Int16,
       .bias = false,
       .activation = Activation::Relu});
  add({.name = "16x8 large int64 bias",
       .activations = DType::Int16,
       .biasType = DType::Int64,
       .biasMagnitude = 400000000,
       .outputScale = 4.0f});
  // float32
  add({.name = "float32 3x3 SAME stride 1", .activations = DType::Float32});
  add({.name = "float32 3x3 SAME stride 2 batches 2",
       .activations = DType::Float32,
       .batches = 2,
       .strideH = 2,
       .strideW = 2});
  add({.name = "float32 5x2 VALID strides 3x2 no bias",
       .activations = DType::Float32,
       .bias = false,
       .filterHeight = 5,
       .filterWidth = 2,
       .strideH = 3,
       .strideW = 2,
       .padding = Padding::Valid});
  add({.name = "float32 RELU_N1_TO_1 deep",
       .activations = DType::Float32,
       .depth = 17,
       .activation = Activation::ReluN1To1});
  return all;
}

}  // namespace

class TransposeConvCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("index");
    const auto all = cases();
    for (std::size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
  }

  void matchesReference() {
    QFETCH(int, index);
    const ir::Graph graph = transposeConvGraph(cases().at(static_cast<std::size_t>(index)));
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void gathersWithoutTestingTaps() {
    // The covering input range is computed per output row and column; no
    // condition is left inside the loops, and requantisation is the shared
    // helper.
    const std::string tir =
        tir::printPrimFunc(codegen::compileToC(transposeConvGraph(cases()[1]), {}).functions.at(0));
    QVERIFY2(tir.find("iy_begin") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("if ") == std::string::npos, tir.c_str());
    QVERIFY2(tir.find("loupe.requantize_i32") != std::string::npos, tir.c_str());
  }

  void refusesNonConstantWeights() {
    ir::Graph graph = transposeConvGraph(cases()[0]);
    const int weights = graph.operators[0].inputs[1];
    graph.tensor(weights).isConstant = false;
    graph.tensor(weights).data.clear();
    graph.inputs.push_back(weights);
    try {
      codegen::compileToC(graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(std::string(error.what())
                       .find("TRANSPOSE_CONV: the weights must be constant to compile to C") !=
                   std::string::npos,
               error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeConvCodegen)

}  // namespace transpose_conv_test

#include "transpose_conv_test.moc"
