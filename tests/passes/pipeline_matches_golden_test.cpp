// The default graph pipeline preserves bit-exactness: for every model of
// tests/data/models and every golden set, the reference interpreter run on
// the graph after infer_shapes_and_types, fold_constants, legalize,
// fuse_operators and eliminate_dead_code gives the golden outputs (integer
// models byte for byte, float32 within the golden suite's few ulp), and every
// tensor the pipelined graph still computes equals the imported graph's, byte
// for byte. The SEANet per-layer cases go through the pipeline too. The vela
// model (one CUSTOM ethos-u operator) only passes through.
#include <QtTest>

#include <map>

#include "frontend/tflite_importer.h"
#include "golden_compare.h"
#include "golden_sets.h"
#include "ir/graph_printer.h"
#include "passes/pass_manager.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;
using loupe::test::GoldenSet;

namespace {

#define FAIL_ON_EXCEPTION(body)           \
  try {                                   \
    body                                  \
  } catch (const std::exception& error) { \
    QFAIL(error.what());                  \
  }

ir::Graph pipelined(const ir::Graph& graph) {
  passes::StageTimeline timeline;
  return passes::runGraphPipeline(graph, timeline);
}

std::string dtypeOf(const ir::Tensor& tensor) {
  return std::string(ir::dtypeName(tensor.dtype));
}

// Every tensor an operator of `graph` writes.
std::vector<int> computedTensors(const ir::Graph& graph) {
  std::vector<int> tensors;
  for (const auto& op : graph.operators) {
    tensors.insert(tensors.end(), op.outputs.begin(), op.outputs.end());
  }
  return tensors;
}

}  // namespace

class PipelineMatchesGolden : public QObject {
  Q_OBJECT

  std::vector<GoldenSet> sets_ = test::goldenSets();
  std::vector<test::SeanetCase> seanet_ = test::seanetCases();
  std::map<std::string, std::pair<ir::Graph, ir::Graph>> graphs_;  // model -> (imported, pipelined)

  const std::pair<ir::Graph, ir::Graph>& graphsOf(const std::filesystem::path& model) {
    const std::string key = model.string();
    auto it = graphs_.find(key);
    if (it == graphs_.end()) {
      auto imported = frontend::importTfliteFile(model);
      auto after = pipelined(imported);
      it = graphs_.emplace(key, std::pair{std::move(imported), std::move(after)}).first;
    }
    return it->second;
  }

 private slots:
  void initTestCase() { QVERIFY2(sets_.size() >= 40, "the golden sets are missing"); }

  void outputsMatch_data() {
    QTest::addColumn<int>("set");
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      QTest::newRow(sets_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void outputsMatch() {
    QFETCH(int, set);
    FAIL_ON_EXCEPTION({
      const GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
      const auto& graphs = graphsOf(golden.model);
      const ir::Graph& after = graphs.second;
      reference::ReferenceInterpreter before(graphs.first);
      reference::ReferenceInterpreter interpreter(after);
      for (std::size_t i = 0; i < golden.inputs.size(); ++i) {
        const auto bytes = test::readBytes(golden.inputs[i]);
        before.setInput(i, bytes);
        interpreter.setInput(i, bytes);
      }
      before.invoke();
      interpreter.invoke();
      for (std::size_t i = 0; i < golden.outputs.size(); ++i) {
        const auto expected = test::readBytes(golden.outputs[i]);
        const auto dtype = golden.manifest["outputs"][i]["dtype"].get<std::string>();
        const QString difference = test::compareBytes(interpreter.output(i), expected, dtype);
        QVERIFY2(difference.isEmpty(), qPrintable(QString("output %1: %2").arg(i).arg(difference)));
      }
      int compared = 0;
      for (int tensor : computedTensors(after)) {
        const QString difference =
            test::compareBytes(interpreter.tensorBytes(tensor), before.tensorBytes(tensor),
                               dtypeOf(after.tensor(tensor)), 0);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QString("tensor %1 '%2': %3")
                                .arg(tensor)
                                .arg(QString::fromStdString(after.tensor(tensor).name))
                                .arg(difference)));
        ++compared;
      }
      QVERIFY(compared > 0);
    })
  }

  void seanetCasesMatch_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < seanet_.size(); ++i) {
      QTest::newRow(seanet_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void seanetCasesMatch() {
    QFETCH(int, index);
    FAIL_ON_EXCEPTION({
      const auto& c = seanet_[static_cast<std::size_t>(index)];
      const auto graph = pipelined(frontend::importTfliteFile(c.model));
      reference::ReferenceInterpreter interpreter(graph);
      const auto inputs = c.inputBytes();
      for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
      interpreter.invoke();
      const QString difference =
          test::compareBytes(interpreter.output(0), c.expectedBytes(), "int16");
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    })
  }

  // What the pipeline did to each model, for the log (and a check that it
  // did legalise every window and mark the RESHAPEs as views).
  void pipelineSummary() {
    std::vector<std::filesystem::path> models;
    for (const auto& set : sets_) {
      if (models.empty() || models.back() != set.model) models.push_back(set.model);
    }
    for (const auto& model : models) {
      const auto& [imported, after] = graphsOf(model);
      int fused = 0, views = 0, windows = 0, explicitWindows = 0;
      for (const auto& op : after.operators) {
        fused += op.sourceOperators.size() > 1;
        views += op.isView;
        std::visit(
            [&](const auto& attrs) {
              if constexpr (requires { attrs.explicitPadding; }) {
                ++windows;
                explicitWindows += attrs.explicitPadding.has_value();
              }
            },
            op.attributes);
      }
      qInfo("%s: %zu operators -> %zu; %d fused, %d views, %d/%d windows with explicit padding",
            model.parent_path().filename().string().c_str(), imported.operators.size(),
            after.operators.size(), fused, views, explicitWindows, windows);
      QCOMPARE(explicitWindows, windows);
      for (const auto& op : after.operators) {
        if (op.type == ir::OpType::Reshape) QVERIFY(op.isView);
      }
    }
  }

  void velaModelOnlyPassesThrough() {
    const auto path = test::modelsDir() / "vela" / "person_detect_vela.tflite";
    frontend::ImportOptions options;
    options.keepUnsupportedOperators = true;
    const auto imported = frontend::importTfliteFile(path, options);
    const auto after = pipelined(imported);
    QCOMPARE(after.operators.size(), std::size_t{1});
    QCOMPARE(after.operators[0].type, ir::OpType::EthosU);
    QCOMPARE(ir::printGraph(after), ir::printGraph(imported));
    qInfo(
        "vela/person_detect_vela.tflite: its only operator is %s (a precompiled Ethos-U command "
        "stream), checked against the golden data by golden_vela_reference",
        after.operators[0].typeName().c_str());
  }
};

QTEST_APPLESS_MAIN(PipelineMatchesGolden)
#include "pipeline_matches_golden_test.moc"
