// The pass manager and the stage timeline: the default pipeline's passes in
// order, one Graph stage per pass after "imported", each with the printed
// graph it holds; later stages of other kinds can be appended; a failing
// pass leaves the stages before it and reports its diagnostics.
#include <QtTest>

#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/pass_manager.h"
#include "test_data.h"

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

ir::Graph renameGraph(ir::Graph graph, passes::PassContext& context) {
  graph.name += "+";
  context.remark("renamed");
  return graph;
}

ir::Graph failingPass(ir::Graph graph, passes::PassContext&) {
  passes::PassDiagnostic diagnostic = passes::diagnosticAt(
      graph, graph.operators.at(0), graph.operators[0].outputs[0], "something", "something else");
  throw passes::PassError("failing", {diagnostic});
}

}  // namespace

class PassManager : public QObject {
  Q_OBJECT

 private slots:
  void defaultPipelineOrder() {
    std::vector<std::string> names;
    for (const auto& pass : passes::defaultGraphPipeline()) names.push_back(pass.name);
    QCOMPARE(names,
             (std::vector<std::string>{"infer_shapes_and_types", "fold_constants", "legalize",
                                       "fuse_operators", "eliminate_dead_code"}));
    for (const auto& pass : passes::partitionPipeline()) names.push_back(pass.name);
    QCOMPARE(names.size(), std::size_t{9});
    QCOMPARE(names.back(), std::string("partition_graph"));
    QCOMPARE(passes::allGraphPasses().size(), names.size());
    QVERIFY(passes::findGraphPass("legalize") != nullptr);
    QCOMPARE(passes::findGraphPass("legalize")->name, std::string("legalize"));
    QVERIFY(passes::findGraphPass("no_such_pass") == nullptr);
  }

  void timelineHasOneGraphStagePerPass() {
    const auto imported =
        frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite");
    passes::StageTimeline timeline;
    passes::PassContext context;
    const auto result = passes::runGraphPipeline(imported, timeline, context);
    std::vector<std::string> names;
    for (const auto& stage : timeline.stages()) {
      names.push_back(stage.name);
      QCOMPARE(stage.kind, passes::StageKind::Graph);
      QVERIFY(stage.graph.has_value());
      QCOMPARE(stage.text, ir::printGraph(*stage.graph));
      QVERIFY(stage.milliseconds >= 0.0);
    }
    QCOMPARE(names,
             (std::vector<std::string>{"imported", "infer_shapes_and_types", "fold_constants",
                                       "legalize", "fuse_operators", "eliminate_dead_code"}));
    QCOMPARE(timeline.find("imported")->text, ir::printGraph(imported));
    QCOMPARE(timeline.stages().back().text, ir::printGraph(result));
    QCOMPARE(timeline.last(passes::StageKind::Graph), &timeline.stages().back());
    QVERIFY(timeline.find("legalize")->text.find("padding=explicit(") != std::string::npos);
    QVERIFY(timeline.find("fold_constants")->text.find("padding=explicit(") == std::string::npos);
    QVERIFY(timeline.find("tir") == nullptr);
    QVERIFY(!context.remarks.empty());
    QVERIFY(context.remarks.front().starts_with("infer_shapes_and_types: "));
    QVERIFY(context.currentPass.empty());

    // Later stages append their own kinds.
    timeline.add({"lowered", passes::StageKind::Tir, "primfunc ...", 1.5, std::nullopt});
    QCOMPARE(timeline.stages().size(), std::size_t{7});
    QCOMPARE(timeline.find("lowered")->kind, passes::StageKind::Tir);
    QCOMPARE(timeline.last(passes::StageKind::Graph)->name, std::string("eliminate_dead_code"));
    QCOMPARE(passes::stageKindName(passes::StageKind::MemoryPlan), std::string_view("memory_plan"));
  }

  void anImportedStageAlreadyRecordedIsKept() {
    const auto imported =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    passes::StageTimeline timeline;
    timeline.add({"imported", passes::StageKind::Graph, ir::printGraph(imported), 12.0, imported});
    passes::runGraphPipeline(imported, timeline);
    QCOMPARE(timeline.stages().size(), std::size_t{6});
    QCOMPARE(timeline.stages().front().milliseconds, 12.0);
  }

  void customPassListsRunInOrder() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2});
    const int out = b.tensor("out", ir::DType::Float32, {2});
    b.op(ir::OpType::Relu, {in}, {out});
    auto graph = b.inputs({in}).outputs({out}).build();
    graph.name = "g";
    const passes::PassManager manager({{"rename", renameGraph}, {"rename_again", renameGraph}});
    passes::StageTimeline timeline;
    passes::PassContext context;
    const auto result = manager.run(graph, timeline, context);
    QCOMPARE(result.name, std::string("g++"));
    QCOMPARE(timeline.stages().size(), std::size_t{2});
    QCOMPARE(timeline.stages()[0].graph->name, std::string("g+"));
    QCOMPARE(context.remarks,
             (std::vector<std::string>{"rename: renamed", "rename_again: renamed"}));
  }

  void aFailingPassKeepsEarlierStagesAndReportsWhere() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2});
    const int out = b.tensor("relu_out", ir::DType::Float32, {2});
    b.op(ir::OpType::Relu, {in}, {out});
    const auto graph = b.inputs({in}).outputs({out}).build();
    const passes::PassManager manager(
        {{"rename", renameGraph}, {"failing", failingPass}, {"never", renameGraph}});
    passes::StageTimeline timeline;
    passes::PassContext context;
    try {
      manager.run(graph, timeline, context);
      QFAIL("the failing pass did not throw");
    } catch (const passes::PassError& error) {
      QCOMPARE(error.pass(), std::string("failing"));
      QCOMPARE(error.diagnostics().size(), std::size_t{1});
      QCOMPARE(std::string(error.what()),
               std::string("failing: operator 0 (RELU), tensor 1 'relu_out': expected something, "
                           "found something else"));
    }
    QCOMPARE(timeline.stages().size(), std::size_t{1});
    QCOMPARE(timeline.stages()[0].name, std::string("rename"));
    QCOMPARE(context.currentPass, std::string("failing"));
  }

  void shapeErrorsStopTheDefaultPipeline() {
    auto graph =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    graph.tensor(graph.operators[0].outputs[0]).shape = {1, 17};
    passes::StageTimeline timeline;
    QVERIFY_THROWS_EXCEPTION(passes::PassError, passes::runGraphPipeline(graph, timeline));
    QCOMPARE(timeline.stages().size(), std::size_t{1});  // just "imported"
  }
};

QTEST_APPLESS_MAIN(PassManager)
#include "pass_manager_test.moc"
