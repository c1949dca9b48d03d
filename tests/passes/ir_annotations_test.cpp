// The graph IR's pass annotations: explicit padding, the model operators a
// fused operator stands for, and views. The importer sets none of them; the
// printer shows each in a compact form and shows nothing for an imported
// graph.
#include <QtTest>

#include <filesystem>

#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "test_data.h"

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

std::vector<std::filesystem::path> sharedModels() {
  std::vector<std::filesystem::path> models;
  for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir())) {
    if (std::filesystem::exists(entry.path() / "model.tflite")) {
      models.push_back(entry.path() / "model.tflite");
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

const std::optional<ir::ExplicitPadding>* explicitPaddingOf(const ir::Operator& op) {
  if (const auto* a = std::get_if<ir::Conv2DAttrs>(&op.attributes)) return &a->explicitPadding;
  if (const auto* a = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) {
    return &a->explicitPadding;
  }
  if (const auto* a = std::get_if<ir::Pool2DAttrs>(&op.attributes)) return &a->explicitPadding;
  return nullptr;
}

}  // namespace

class IrAnnotations : public QObject {
  Q_OBJECT

 private slots:
  void importerSetsNoAnnotations() {
    const auto models = sharedModels();
    QVERIFY(models.size() >= 7);
    int windowed = 0;
    for (const auto& path : models) {
      const auto graph = frontend::importTfliteFile(path);
      for (const auto& op : graph.operators) {
        QVERIFY(op.sourceOperators.empty());
        QVERIFY(!op.isView);
        QCOMPARE(op.modelOperators(), std::vector<int>{op.index});
        if (const auto* padding = explicitPaddingOf(op)) {
          QVERIFY(!padding->has_value());
          ++windowed;
        }
      }
      const std::string text = ir::printGraph(graph);
      QVERIFY(text.find("explicit(") == std::string::npos);
      QVERIFY(text.find("fused from") == std::string::npos);
      QVERIFY(text.find(" view\n") == std::string::npos);
    }
    QVERIFY(windowed > 40);  // kws, vww, ic_resnet8, micro_speech convolutions and pools
  }

  void printerShowsExplicitPadding() {
    ir::Conv2DAttrs conv;
    conv.strideH = conv.strideW = 2;
    QCOMPARE(ir::attributesToString(conv), std::string("padding=SAME stride=2x2 dilation=1x1"));
    conv.explicitPadding = ir::ExplicitPadding{0, 1, 0, 1};
    QCOMPARE(ir::attributesToString(conv),
             std::string("padding=explicit(t=0,b=1,l=0,r=1) stride=2x2 dilation=1x1"));
    ir::Pool2DAttrs pool;
    pool.padding = ir::Padding::Valid;
    pool.explicitPadding = ir::ExplicitPadding{2, 3, 4, 5};
    QVERIFY(ir::attributesToString(pool).starts_with("padding=explicit(t=2,b=3,l=4,r=5) "));
    ir::DepthwiseConv2DAttrs depthwise;
    depthwise.explicitPadding = ir::ExplicitPadding{1, 1, 1, 1};
    QVERIFY(ir::attributesToString(depthwise).starts_with("padding=explicit(t=1,b=1,l=1,r=1) "));
  }

  void printerShowsFusedSourcesAndViews() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 4});
    const int mid = b.tensor("mid", ir::DType::Float32, {1, 4});
    const int out = b.tensor("out", ir::DType::Float32, {4});
    b.op(ir::OpType::Relu, {in}, {mid});
    b.op(ir::OpType::Reshape, {mid}, {out});
    auto graph = b.inputs({in}).outputs({out}).build();
    graph.operators[0].sourceOperators = {3, 4};
    graph.operators[1].sourceOperators = {6};
    graph.operators[1].isView = true;
    const std::string text = ir::printGraph(graph);
    QVERIFY2(text.find("// op 0 v1 fused from #3,#4\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("// op 1 v1 from #6 view\n") != std::string::npos, text.c_str());
    // A source list that is just the operator itself prints nothing extra.
    graph.operators[0].sourceOperators = {0};
    graph.operators[1].isView = false;
    graph.operators[1].sourceOperators.clear();
    const std::string plain = ir::printGraph(graph);
    QVERIFY2(plain.find("// op 0 v1\n") != std::string::npos, plain.c_str());
    QVERIFY2(plain.find("// op 1 v1\n") != std::string::npos, plain.c_str());
  }
};

QTEST_APPLESS_MAIN(IrAnnotations)
#include "ir_annotations_test.moc"
