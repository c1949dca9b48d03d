// infer_shapes_and_types: derives every output's shape and type from the
// inputs and attributes, accepts consistent graphs unchanged, and names the
// operator, the tensor, the expected and the found type on a mismatch.
#include <QtTest>

#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/infer_shapes_and_types.h"
#include "test_data.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perTensor;

namespace {

// A float convolution [1,in,in,2] -> `outShape` with a [3,k,k,2] filter.
ir::Graph convGraph(int in, int k, ir::Conv2DAttrs attrs, ir::Shape outShape,
                    ir::DType outType = ir::DType::Float32) {
  GraphBuilder b;
  const int i = b.tensor("in", ir::DType::Float32, {1, in, in, 2});
  const int w = b.constant("w", ir::DType::Float32, {3, k, k, 2},
                           std::vector<float>(static_cast<std::size_t>(3 * k * k * 2), 0.5f));
  const int o = b.tensor("conv_out", outType, outShape);
  b.op(ir::OpType::Conv2D, {i, w, ir::kNoTensor}, {o}, attrs);
  return b.inputs({i}).outputs({o}).build();
}

// The PassError the pass throws on `graph`, or an empty message.
std::string errorOf(const ir::Graph& graph,
                    std::vector<passes::PassDiagnostic>* diagnostics = nullptr) {
  try {
    test::runPass(passes::inferShapesAndTypes, graph);
  } catch (const passes::PassError& error) {
    if (diagnostics) *diagnostics = error.diagnostics();
    return error.what();
  }
  return {};
}

}  // namespace

class InferShapesAndTypes : public QObject {
  Q_OBJECT

 private slots:
  void everySharedModelIsConsistent() {
    for (const char* name : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                             "micro_speech_quantized", "hello_world_int8", "hello_world_float"}) {
      const auto graph = frontend::importTfliteFile(test::modelsDir() / name / "model.tflite");
      passes::PassContext context;
      const auto after = passes::inferShapesAndTypes(graph, context);
      QCOMPARE(ir::printGraph(after), ir::printGraph(graph));
      QCOMPARE(context.remarks.size(), std::size_t{1});
      // Every operator of these models has a rule.
      const std::string all = std::to_string(graph.operators.size()) + " of " +
                              std::to_string(graph.operators.size()) + " operators";
      QVERIFY2(context.remarks[0].starts_with(all), context.remarks[0].c_str());
    }
  }

  void convolutionShapesFollowThePadding_data() {
    QTest::addColumn<int>("padding");  // 0 SAME, 1 VALID, 2 explicit t1 b0 l0 r2
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("expected");  // output height
    QTest::addColumn<int>("expectedWidth");
    QTest::newRow("SAME stride 2 on 7") << 0 << 2 << 4 << 4;
    QTest::newRow("VALID stride 2 on 7") << 1 << 2 << 3 << 3;
    QTest::newRow("explicit stride 1 on 7") << 2 << 1 << 6 << 7;
  }
  void convolutionShapesFollowThePadding() {
    QFETCH(int, padding);
    QFETCH(int, stride);
    QFETCH(int, expected);
    QFETCH(int, expectedWidth);
    ir::Conv2DAttrs attrs;
    attrs.padding = padding == 1 ? ir::Padding::Valid : ir::Padding::Same;
    if (padding == 2) attrs.explicitPadding = ir::ExplicitPadding{1, 0, 0, 2};
    attrs.strideH = attrs.strideW = stride;
    const auto graph = convGraph(7, 3, attrs, {1, 1, 1, 3});
    const auto inferred = passes::inferOutput(graph, graph.operators[0]);
    QVERIFY(inferred.has_value());
    QVERIFY(inferred->problem.empty());
    QCOMPARE(inferred->shape, (ir::Shape{1, expected, expectedWidth, 3}));
    QCOMPARE(inferred->dtypes, std::vector<ir::DType>{ir::DType::Float32});
  }

  void mismatchNamesOperatorTensorExpectedAndFound() {
    ir::Conv2DAttrs attrs;
    attrs.strideH = attrs.strideW = 2;
    const auto graph = convGraph(7, 3, attrs, {1, 3, 4, 3});
    std::vector<passes::PassDiagnostic> diagnostics;
    const std::string message = errorOf(graph, &diagnostics);
    QCOMPARE(diagnostics.size(), std::size_t{1});
    QCOMPARE(diagnostics[0].operatorIndex, 0);
    QCOMPARE(diagnostics[0].operatorType, std::string("CONV_2D"));
    QCOMPARE(diagnostics[0].tensorIndex, 2);
    QCOMPARE(diagnostics[0].tensorName, std::string("conv_out"));
    QCOMPARE(diagnostics[0].expected, std::string("float32[1,4,4,3]"));
    QCOMPARE(diagnostics[0].found, std::string("float32[1,3,4,3]"));
    QCOMPARE(message, std::string("infer_shapes_and_types: operator 0 (CONV_2D), tensor 2 "
                                  "'conv_out': expected float32[1,4,4,3], found float32[1,3,4,3]"));
  }

  void wrongElementTypeIsReported() {
    ir::Conv2DAttrs attrs;
    const auto graph = convGraph(4, 3, attrs, {1, 4, 4, 3}, ir::DType::Int8);
    QVERIFY(errorOf(graph).find("expected float32[1,4,4,3], found int8[1,4,4,3]") !=
            std::string::npos);
  }

  void everyMismatchIsListed() {
    GraphBuilder b;
    const int x = b.tensor("x", ir::DType::Int8, {2, 1, 3}, perTensor(0.1f, 0));
    const int y = b.tensor("y", ir::DType::Int8, {4, 1}, perTensor(0.1f, 0));
    const int sum = b.tensor("sum", ir::DType::Int8, {2, 4, 3}, perTensor(0.2f, 0));
    const int wrongSum = b.tensor("wrong", ir::DType::Int8, {2, 4, 4}, perTensor(0.2f, 0));
    const int relu = b.tensor("relu", ir::DType::Int8, {2, 4}, perTensor(0.2f, 0));
    b.op(ir::OpType::Add, {x, y}, {sum});  // broadcast: [2,4,3], right
    b.op(ir::OpType::Mul, {x, y}, {wrongSum});
    b.op(ir::OpType::Relu, {sum}, {relu});
    const auto graph = b.inputs({x, y}).outputs({wrongSum, relu}).build();
    std::vector<passes::PassDiagnostic> diagnostics;
    errorOf(graph, &diagnostics);
    QCOMPARE(diagnostics.size(), std::size_t{2});
    QCOMPARE(diagnostics[0].operatorType, std::string("MUL"));
    QCOMPARE(diagnostics[0].expected, std::string("int8[2,4,3]"));
    QCOMPARE(diagnostics[1].operatorType, std::string("RELU"));
    QCOMPARE(diagnostics[1].expected, std::string("int8[2,4,3]"));
  }

  void inconsistentInputsAreAProblem() {
    GraphBuilder b;
    const int x = b.tensor("x", ir::DType::Float32, {2, 3});
    const int y = b.tensor("y", ir::DType::Float32, {4});
    const int sum = b.tensor("sum", ir::DType::Float32, {2, 3});
    b.op(ir::OpType::Add, {x, y}, {sum});
    const auto graph = b.inputs({x, y}).outputs({sum}).build();
    const std::string message = errorOf(graph);
    QVERIFY2(message.find("to broadcast") != std::string::npos, message.c_str());
  }

  void shapeOperatorRules() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 6, 1, 4}, perTensor(0.5f, 1));
    const int shape = b.constant("shape", ir::DType::Int32, {2}, std::vector<std::int32_t>{-1, 8});
    const int reshaped = b.tensor("reshaped", ir::DType::Int8, {3, 8}, perTensor(0.5f, 1));
    const int squeezed = b.tensor("squeezed", ir::DType::Int8, {6, 4}, perTensor(0.5f, 1));
    const int axis = b.constant("axis", ir::DType::Int32, {1}, std::vector<std::int32_t>{-1});
    const int expanded = b.tensor("expanded", ir::DType::Int8, {6, 4, 1}, perTensor(0.5f, 1));
    const int pads =
        b.constant("pads", ir::DType::Int32, {3, 2}, std::vector<std::int32_t>{1, 0, 0, 2, 0, 0});
    const int padded = b.tensor("padded", ir::DType::Int8, {7, 6, 1}, perTensor(0.5f, 1));
    const int concat = b.tensor("concat", ir::DType::Int8, {7, 12, 1}, perTensor(0.5f, 1));
    const int axes = b.constant("axes", ir::DType::Int32, {2}, std::vector<std::int32_t>{0, -2});
    const int mean = b.tensor("mean", ir::DType::Int8, {1}, perTensor(0.5f, 1));
    const int perm = b.constant("perm", ir::DType::Int32, {3}, std::vector<std::int32_t>{2, 0, 1});
    const int transposed = b.tensor("transposed", ir::DType::Int8, {1, 7, 12}, perTensor(0.5f, 1));
    b.op(ir::OpType::Reshape, {in, shape}, {reshaped});
    ir::SqueezeAttrs squeeze;
    squeeze.squeezeDims = {0, 2};
    b.op(ir::OpType::Squeeze, {in}, {squeezed}, squeeze);
    b.op(ir::OpType::ExpandDims, {squeezed, axis}, {expanded});
    b.op(ir::OpType::Pad, {expanded, pads}, {padded});
    ir::ConcatenationAttrs concatenation;
    concatenation.axis = 1;
    b.op(ir::OpType::Concatenation, {padded, padded}, {concat}, concatenation);
    b.op(ir::OpType::Mean, {concat, axes}, {mean}, ir::ReducerAttrs{false});
    b.op(ir::OpType::Transpose, {concat, perm}, {transposed});
    const auto graph = b.inputs({in}).outputs({reshaped, mean, transposed}).build();
    QCOMPARE(errorOf(graph), std::string());

    // Each rule is really applied: a wrong output is caught.
    for (int output : {reshaped, squeezed, expanded, padded, concat, mean, transposed}) {
      auto broken = graph;
      broken.tensor(output).shape.back() += 1;
      const std::string message = errorOf(broken);
      QVERIFY2(message.find("'" + broken.tensor(output).name + "'") != std::string::npos,
               broken.tensor(output).name.c_str());
    }
  }

  void softmaxMayWidenInt8ToInt16() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 4}, perTensor(0.5f, 1));
    const int out16 = b.tensor("out16", ir::DType::Int16, {1, 4}, perTensor(1.0f / 32768, 0));
    b.op(ir::OpType::Softmax, {in}, {out16}, ir::SoftmaxAttrs{});
    const auto graph = b.inputs({in}).outputs({out16}).build();
    QCOMPARE(errorOf(graph), std::string());
    auto wrong = graph;
    wrong.tensor(out16).dtype = ir::DType::Int32;
    QVERIFY(errorOf(wrong).find("expected int8 or int16[1,4], found int32[1,4]") !=
            std::string::npos);
  }

  void fullyConnectedKeepsOrFlattensDimensions() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2, 3, 4});
    const int w = b.constant("w", ir::DType::Float32, {5, 4}, std::vector<float>(20, 1.0f));
    const int out = b.tensor("out", ir::DType::Float32, {6, 5});
    b.op(ir::OpType::FullyConnected, {in, w, ir::kNoTensor}, {out}, ir::FullyConnectedAttrs{});
    auto graph = b.inputs({in}).outputs({out}).build();
    QCOMPARE(errorOf(graph), std::string());
    std::get<ir::FullyConnectedAttrs>(graph.operators[0].attributes).keepNumDims = true;
    QVERIFY(errorOf(graph).find("expected float32[2,3,5], found float32[6,5]") !=
            std::string::npos);
  }
};

QTEST_APPLESS_MAIN(InferShapesAndTypes)
#include "infer_shapes_and_types_test.moc"
