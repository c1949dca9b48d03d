// MEAN through TIR and generated C, byte for byte against the reference
// interpreter, for each of the reference kernel's arithmetics: float32
// sums and int8/int16 fixed-point requantisation (with the same or different
// quantisation in and out), including outputs that saturate, and the
// MobileNetV2 pooling case against TFLite Micro's own bytes. Ranks 1 to 5, one or two reduced axes
// (negative, repeated, of length 1 or 0), with and without keep_dims. MEAN over H and W of NHWC is
// one loop over the pixels per channel, and the requantisation calls the helper the reference
// calls. Three distinct axes and a non-constant axis operand are refused with the reference
// kernel's reason.
#include <QtTest>

#include <algorithm>
#include <regex>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"
#include "tflm_mean_pooling_case.h"
#include "tir/tir_printer.h"

namespace mean_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct MeanCase {
  const char* name;
  ir::DType dtype;
  ir::Shape shape;
  std::vector<std::int32_t> axes;
  bool keepDims;
  ir::Quantization in = {}, out = {};  // unquantised for float32
};

const ir::Quantization kInt8Q = test::perTensor(0.05f, -3);
const ir::Quantization kInt16Q = test::perTensor(0.001f, 0);

const MeanCase kCases[] = {
    {"float32 NHWC over H and W keep_dims", ir::DType::Float32, {1, 4, 4, 3}, {1, 2}, true},
    {"float32 last axis", ir::DType::Float32, {2, 3, 4}, {-1}, false},
    {"float32 first axis", ir::DType::Float32, {5, 3, 4}, {0}, false},
    {"float32 long sum in input order", ir::DType::Float32, {2, 7, 9, 5}, {1, 2}, true},
    {"float32 rank 5 axes 1 and 3", ir::DType::Float32, {2, 3, 2, 4, 3}, {1, 3}, false},
    {"float32 rank 1 to a scalar", ir::DType::Float32, {9}, {0}, false},
    {"float32 repeated axis", ir::DType::Float32, {3, 4}, {1, -1}, true},
    {"float32 empty reduced axis", ir::DType::Float32, {2, 0, 3}, {1}, false},
    {"int8 same quantisation NHWC", ir::DType::Int8, {2, 4, 4, 8}, {1, 2}, true, kInt8Q, kInt8Q},
    {"int8 same quantisation last axis", ir::DType::Int8, {3, 10}, {1}, false, kInt8Q, kInt8Q},
    {"int8 same quantisation outer and inner",
     ir::DType::Int8,
     {3, 4, 5},
     {0, 2},
     false,
     kInt8Q,
     kInt8Q},
    {"int8 requantised NHWC",
     ir::DType::Int8,
     {1, 5, 5, 6},
     {1, 2},
     true,
     kInt8Q,
     test::perTensor(0.02f, 5)},
    {"int8 requantised coarser",
     ir::DType::Int8,
     {4, 6},
     {-2},
     false,
     test::perTensor(0.1f, 10),
     test::perTensor(0.5f, -20)},
    {"int8 requantised saturating",
     ir::DType::Int8,
     {2, 3, 4},
     {2},
     true,
     test::perTensor(1.0f, 0),
     test::perTensor(0.01f, 3)},
    {"int8 requantised rank 5 length-1 axis",
     ir::DType::Int8,
     {2, 1, 3, 2, 4},
     {1, 4},
     false,
     kInt8Q,
     test::perTensor(0.03f, -7)},
    {"int8 requantised empty reduced axis",
     ir::DType::Int8,
     {2, 0},
     {1},
     false,
     kInt8Q,
     test::perTensor(0.02f, 5)},
    {"int16 same quantisation NHWC",
     ir::DType::Int16,
     {2, 6, 5, 4},
     {1, 2},
     true,
     kInt16Q,
     kInt16Q},
    {"int16 same quantisation first axis", ir::DType::Int16, {7, 3}, {-2}, false, kInt16Q, kInt16Q},
    {"int16 requantised",
     ir::DType::Int16,
     {3, 8, 2},
     {0, 1},
     false,
     kInt16Q,
     test::perTensor(0.0007f, 0)},
    {"int16 requantised saturating",
     ir::DType::Int16,
     {4, 5},
     {1},
     true,
     kInt16Q,
     test::perTensor(0.0001f, 0)},
};

ir::Shape reducedShape(const ir::Shape& shape, const std::vector<std::int32_t>& axes,
                       bool keepDims) {
  ir::Shape out;
  const auto rank = static_cast<std::int32_t>(shape.size());
  for (std::int32_t d = 0; d < rank; ++d) {
    const bool reduced = std::any_of(axes.begin(), axes.end(),
                                     [&](std::int32_t a) { return (a < 0 ? a + rank : a) == d; });
    if (!reduced) {
      out.push_back(shape[static_cast<std::size_t>(d)]);
    } else if (keepDims) {
      out.push_back(1);
    }
  }
  return out;
}

ir::Graph meanGraph(const MeanCase& c) {
  GraphBuilder g;
  const int in = g.tensor("in", c.dtype, c.shape, c.in);
  const int axis = g.constant("axis", ir::DType::Int32, {static_cast<int>(c.axes.size())}, c.axes);
  const int out = g.tensor("out", c.dtype, reducedShape(c.shape, c.axes, c.keepDims), c.out);
  g.op(ir::OpType::Mean, {in, axis}, {out}, ir::ReducerAttrs{c.keepDims});
  return g.inputs({in}).outputs({out}).build();
}

std::string tirOf(const ir::Graph& graph) {
  return tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
}

int loopCount(const std::string& tir) {
  static const std::regex loop(R"(\bfor \w+ in )");
  return static_cast<int>(
      std::distance(std::sregex_iterator(tir.begin(), tir.end(), loop), std::sregex_iterator()));
}

template <typename T>
test::Bytes bytesOf(const std::vector<T>& values) {
  test::Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string loweringError(const ir::Graph& graph) {
  try {
    codegen::compileToC(graph, {});
  } catch (const lowering::LoweringError& error) {
    return error.what();
  }
  return {};
}

}  // namespace

class MeanCodegen : public QObject {
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
    const ir::Graph graph = meanGraph(kCases[static_cast<std::size_t>(index)]);
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void extremeInputsSaturateAlike() {
    // Rows of the type's extremes, mixed, and values that round at .5: the
    // requantised means saturate at both ends of the output type.
    const MeanCase& int8Case = kCases[13];  // [2,3,4] over the last axis, x100 / 1
    const std::vector<std::int8_t> int8Input = {-128, -128, -128, -128, 127, 127, 127, 127,
                                                -128, 127,  -128, 127,  0,   0,   0,   1,
                                                -1,   0,    0,    0,    1,   -1,  1,   -1};
    const ir::Graph int8Graph = meanGraph(int8Case);
    const auto int8Expected = test::runReference(int8Graph, {bytesOf(int8Input)});
    QCOMPARE(test::runGeneratedC(int8Graph, {bytesOf(int8Input)}), int8Expected);
    // The first two outputs are the clamps -128 and 127.
    QCOMPARE(static_cast<std::int8_t>(int8Expected.at(0).at(0)), std::int8_t{-128});
    QCOMPARE(static_cast<std::int8_t>(int8Expected.at(0).at(1)), std::int8_t{127});

    const MeanCase& int16Case = kCases[19];  // [4,5] over the last axis, x10
    const std::vector<std::int16_t> int16Input = {
        -32768, -32768, -32768, -32768, -32768, 32767, 32767, 32767, 32767, 32767,
        3276,   3277,   3276,   3277,   3276,   -1,    0,     1,     2,     -3};
    const ir::Graph int16Graph = meanGraph(int16Case);
    const auto int16Expected = test::runReference(int16Graph, {bytesOf(int16Input)});
    QCOMPARE(test::runGeneratedC(int16Graph, {bytesOf(int16Input)}), int16Expected);
    std::vector<std::int16_t> means(4);
    std::memcpy(means.data(), int16Expected.at(0).data(), 8);
    QCOMPARE(means[0], std::int16_t{-32768});
    QCOMPARE(means[1], std::int16_t{32767});
  }

  void nhwcOverHeightAndWidthIsOneLoopPerChannel() {
    // [2,4,4,8] over H and W with the same quantisation: batch, channel,
    // then the 16 pixels (8 apart), requantised like any other int8 MEAN.
    const std::string tir = tirOf(meanGraph(kCases[8]));
    QCOMPARE(loopCount(tir), 3);
    QVERIFY2(tir.find("for r0 in range(16)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("input[((k0 * 128) + (r0 * 8)) + k1]") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("mean_requantize") != std::string::npos, tir.c_str());
  }

  void int8GlobalPoolingMatchesTfliteMicro() {
    const auto actual =
        test::runGeneratedC(test::tflmMeanPoolingGraph(), {test::tflmMeanPoolingInput()});
    QCOMPARE(actual.size(), std::size_t{1});
    QCOMPARE(actual[0], test::tflmMeanPoolingExpected());
  }

  void requantisationCallsTheSharedHelper() {
    const std::string tir = tirOf(meanGraph(kCases[11]));
    QVERIFY2(tir.find("\"loupe.mean_requantize\"") != std::string::npos, tir.c_str());
    const std::string source = codegen::compileToC(meanGraph(kCases[11]), {}).sources.at(0).text;
    QVERIFY2(source.find("#include \"loupe/quantized_mean.h\"") != std::string::npos,
             source.c_str());
    // The input zero point -3 times the 25 summed values.
    QVERIFY2(source.find("loupe_mean_requantize(acc[0], -75, ") != std::string::npos,
             source.c_str());
  }

  void shortSumsAreUnrolled() {
    // [4,6] over axis 0: each of the 6 outputs adds 4 inputs, written out
    // without a loop.
    QCOMPARE(loopCount(tirOf(meanGraph(kCases[12]))), 1);
  }

  void largeInt16SumsWrapWithoutUndefinedOverflow() {
    // 65536 int16 values can sum past int32; the generated C adds with the
    // wrapping helper. 4096 values cannot, and add plainly.
    const MeanCase large{"", ir::DType::Int16, {1, 256, 256}, {1, 2}, false, kInt16Q, kInt16Q};
    QVERIFY(tirOf(meanGraph(large)).find("loupe.wrapping_add_i32") != std::string::npos);
    const MeanCase small{"", ir::DType::Int16, {1, 64, 64}, {1, 2}, false, kInt16Q, kInt16Q};
    QVERIFY(tirOf(meanGraph(small)).find("loupe.wrapping_add_i32") == std::string::npos);
    const std::string difference = test::differenceFromReference(meanGraph(large), {4});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void threeDistinctAxesAreRefused() {
    const MeanCase c{"", ir::DType::Float32, {2, 3, 4}, {0, 1, 2}, false};
    const std::string error = loweringError(meanGraph(c));
    QVERIFY2(error.find("#0 MEAN: MEAN over 3 distinct axes is not supported") != std::string::npos,
             error.c_str());
  }

  void nonConstantAxisIsRefused() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Float32, {2, 3});
    const int axis = g.tensor("axis", ir::DType::Int32, {1});
    const int out = g.tensor("out", ir::DType::Float32, {2});
    g.op(ir::OpType::Mean, {in, axis}, {out}, ir::ReducerAttrs{false});
    const std::string error = loweringError(g.inputs({in, axis}).outputs({out}).build());
    QVERIFY2(error.find("axis operand 'axis' is not a constant") != std::string::npos,
             error.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(MeanCodegen)

}  // namespace mean_test

#include "mean_test.moc"
