// Partitioning (annotate_targets, merge_target_regions, partition_graph):
// every operator goes to the first target that accepts it with the others'
// reasons; regions merge only where no path leaves the target and comes
// back; each region becomes an external function with its inputs and
// outputs; main calls them in an order that respects every dependency. On
// the shared models: every model partitions, kws_ref_model's convolutions
// all go to the accelerator, and the generated C does not change.
#include <QtTest>

#include <filesystem>

#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "passes/annotate_targets.h"
#include "passes/merge_target_regions.h"
#include "passes/partition_graph.h"
#include "passes/pass_manager.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perTensor;

namespace {

// An accelerator for these tests, so that partitioning is checked apart from
// any real target's rules: it takes convolutions and ADD/SUB/MUL, and says
// why not for the rest.
class TestAccelerator : public target::Target {
 public:
  explicit TestAccelerator(target::TargetOptions options) : Target("acc", std::move(options)) {}
  std::string displayName() const override { return "Test accelerator"; }
  target::TargetVerdict accepts(const ir::Graph&, const ir::Operator& op) const override {
    switch (op.type) {
      case ir::OpType::Add:
      case ir::OpType::Sub:
      case ir::OpType::Mul:
      case ir::OpType::Conv2D:
      case ir::OpType::DepthwiseConv2D:
        return target::TargetVerdict::accept();
      default:
        return target::TargetVerdict::reject(
            {"operator type " + op.typeName() + " is not supported by acc"});
    }
  }
};

const char* const kAccThenC = "acc, c";

target::TargetList targetList(const char* text) {
  target::TargetRegistry registry = targets::builtinTargetRegistry();
  registry.add({"acc", {}, [](const target::TargetOptions& options) {
                  return std::make_shared<const TestAccelerator>(options);
                }});
  return target::parseTargetString(text, registry);
}

// int8 [1,4,4,8] activations, one scale: ADD/SUB/MUL go to the
// accelerator, RELU (not one of its operators) stays on the CPU.
struct Diagram {
  GraphBuilder b;
  int tensor(const char* name) {
    return b.tensor(name, ir::DType::Int8, {1, 4, 4, 8}, perTensor(0.5f, 0));
  }
  int add(int x, int y, int out) {
    return b.op(ir::OpType::Add, {x, y}, {out}, ir::ElementwiseAttrs{});
  }
  int relu(int x, int out) { return b.op(ir::OpType::Relu, {x}, {out}); }
};

ir::Graph partitioned(ir::Graph graph, const char* targets = kAccThenC) {
  passes::StageTimeline timeline;
  passes::PassContext context;
  return passes::runPartitionPipeline(std::move(graph), targetList(targets), timeline, context);
}

std::vector<int> regions(const ir::Graph& graph) {
  std::vector<int> result;
  for (const auto& op : graph.operators) result.push_back(op.placement.region);
  return result;
}

std::string mainText(const ir::Graph& graph) {
  std::string text;
  for (const ir::MainCall& call : graph.mainCalls) {
    text += (text.empty() ? "" : " ") +
            (call.externalFunction >= 0
                 ? graph.externalFunctions[static_cast<std::size_t>(call.externalFunction)].name
                 : "op" + std::to_string(call.operatorIndex));
  }
  return text;
}

std::vector<std::filesystem::path> sharedModels() {
  std::vector<std::filesystem::path> models;
  for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir())) {
    const auto model = entry.path() / "model.tflite";
    if (std::filesystem::exists(model)) models.push_back(model);
  }
  std::sort(models.begin(), models.end());
  return models;
}

ir::Graph pipelineGraph(const std::filesystem::path& model) {
  passes::StageTimeline timeline;
  return passes::runGraphPipeline(frontend::importTfliteFile(model), timeline);
}

}  // namespace

class PartitionGraph : public QObject {
  Q_OBJECT

 private slots:
  void firstAcceptingTargetWinsAndOthersSayWhy() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), r = d.tensor("r");
    d.add(x, x, a);
    d.relu(a, r);
    const ir::Graph graph = passes::annotateOperatorTargets(d.b.inputs({x}).outputs({r}).build(),
                                                            targetList(kAccThenC));
    QCOMPARE(graph.operators[0].placement.target, std::string("acc"));
    QVERIFY(graph.operators[0].placement.rejections.empty());
    QCOMPARE(graph.operators[1].placement.target, std::string("c"));
    QCOMPARE(graph.operators[1].placement.rejections.size(), std::size_t{1});
    QCOMPARE(graph.operators[1].placement.rejections[0].target, std::string("acc"));
    QCOMPARE(graph.operators[1].placement.rejections[0].reasons,
             std::vector<std::string>{"operator type RELU is not supported by acc"});
  }

  void anOperatorNoTargetAcceptsIsAnError() {
    Diagram d;
    const int x = d.tensor("x"), r = d.tensor("r");
    d.relu(x, r);
    try {
      partitioned(d.b.inputs({x}).outputs({r}).build(), "acc");
      QFAIL("annotate_targets accepted an operator no target accepts");
    } catch (const passes::PassError& error) {
      QCOMPARE(error.pass(), std::string("annotate_targets"));
      const std::string message = error.what();
      QVERIFY2(message.find("operator 0 (RELU)") != std::string::npos, error.what());
      QVERIFY2(message.find("acc: operator type RELU is not supported by acc") != std::string::npos,
               error.what());
    }
  }

  void cpuOnlyLeavesNoRegions() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), s = d.tensor("s");
    d.add(x, x, a);
    d.add(a, a, s);
    const ir::Graph graph = partitioned(d.b.inputs({x}).outputs({s}).build(), "c");
    QCOMPARE(regions(graph), (std::vector<int>{-1, -1}));
    QVERIFY(graph.externalFunctions.empty());
    QVERIFY(graph.mainCalls.empty());
  }

  void aChainOnTheAcceleratorIsOneRegion() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), s = d.tensor("s"), r = d.tensor("r");
    d.add(x, x, a);
    d.add(a, x, s);
    d.relu(s, r);
    const ir::Graph graph = partitioned(d.b.inputs({x}).outputs({r}).build());
    QCOMPARE(regions(graph), (std::vector<int>{0, 0, -1}));
    QCOMPARE(graph.externalFunctions.size(), std::size_t{1});
    const ir::ExternalFunction& f = graph.externalFunctions[0];
    QCOMPARE(f.name, std::string("acc_0"));
    QCOMPARE(f.target, std::string("acc"));
    QCOMPARE(f.operators, (std::vector<int>{0, 1}));
    QCOMPARE(f.inputs, std::vector<int>{x});
    QCOMPARE(f.outputs, std::vector<int>{s});  // a is only read inside
    QCOMPARE(mainText(graph), std::string("acc_0 op2"));
  }

  // x -> A(acc) -> B(c) -> D(acc)
  //        \----> C(acc) --/
  // A and C merge; D cannot join them: the path A -> B -> D leaves the accelerator
  // and comes back, so one call could not run A, C and D.
  void aDiamondThroughTheCpuIsNotMergedAcross() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), b = d.tensor("b"), c = d.tensor("c"),
              out = d.tensor("out");
    d.add(x, x, a);    // A, op 0
    d.relu(a, b);      // B, op 1
    d.add(a, a, c);    // C, op 2
    d.add(b, c, out);  // D, op 3
    const ir::Graph graph = partitioned(d.b.inputs({x}).outputs({out}).build());
    QCOMPARE(regions(graph), (std::vector<int>{0, -1, 0, 1}));
    QCOMPARE(graph.externalFunctions.size(), std::size_t{2});
    const ir::ExternalFunction& first = graph.externalFunctions[0];
    QCOMPARE(first.operators, (std::vector<int>{0, 2}));
    QCOMPARE(first.inputs, std::vector<int>{x});
    QCOMPARE(first.outputs, (std::vector<int>{a, c}));  // a for B, c for D
    const ir::ExternalFunction& second = graph.externalFunctions[1];
    QCOMPARE(second.name, std::string("acc_1"));
    QCOMPARE(second.operators, std::vector<int>{3});
    QCOMPARE(second.inputs, (std::vector<int>{b, c}));
    QCOMPARE(second.outputs, std::vector<int>{out});
    QCOMPARE(mainText(graph), std::string("acc_0 op1 acc_1"));
  }

  // The same diamond with B on the accelerator is convex: one region.
  void aDiamondOnTheAcceleratorIsOneRegion() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), b = d.tensor("b"), c = d.tensor("c"),
              out = d.tensor("out");
    d.add(x, x, a);
    d.add(a, x, b);
    d.add(a, a, c);
    d.add(b, c, out);
    const ir::Graph graph = partitioned(d.b.inputs({x}).outputs({out}).build());
    QCOMPARE(regions(graph), (std::vector<int>{0, 0, 0, 0}));
    QCOMPARE(graph.externalFunctions[0].outputs, std::vector<int>{out});
  }

  // Accelerator operators that do not feed each other directly still share a region
  // when no path between them leaves the accelerator; main calls the region once
  // everything it reads is written, here after a CPU operator that comes
  // between them in execution order.
  void mainOrderFollowsDependencies() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), r = d.tensor("r"), s = d.tensor("s");
    d.add(x, x, a);  // op 0, acc
    d.relu(x, r);    // op 1, c
    d.add(a, r, s);  // op 2, acc: reads op 0 and op 1
    const ir::Graph graph = partitioned(d.b.inputs({x}).outputs({s}).build());
    QCOMPARE(regions(graph), (std::vector<int>{0, -1, 0}));
    QCOMPARE(graph.externalFunctions[0].inputs, (std::vector<int>{x, r}));
    QCOMPARE(mainText(graph), std::string("op1 acc_0"));
  }

  void stagesAndPrinterShowThePartition() {
    Diagram d;
    const int x = d.tensor("x"), a = d.tensor("a"), r = d.tensor("r");
    d.add(x, x, a);
    d.relu(a, r);
    passes::StageTimeline timeline;
    passes::PassContext context;
    const ir::Graph graph = passes::runPartitionPipeline(d.b.inputs({x}).outputs({r}).build(),
                                                         targetList(kAccThenC), timeline, context);
    std::vector<std::string> names;
    for (const auto& stage : timeline.stages()) names.push_back(stage.name);
    QCOMPARE(names, (std::vector<std::string>{"annotate_targets", "merge_target_regions",
                                              "compile_target_regions", "partition_graph"}));
    const std::string& text = timeline.find("partition_graph")->text;
    QCOMPARE(text, ir::printGraph(graph));
    QVERIFY2(text.find("// op 0 v1 target acc region acc_0\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("// op 1 v1 target c\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("def @acc_0(%0) -> (%1) target acc {ops 0; consts }\n") != std::string::npos,
             text.c_str());
    QVERIFY2(text.find("def @main: @acc_0, op 1\n") != std::string::npos, text.c_str());
  }

  void kwsConvolutionsAllGoToTheAccelerator() {
    const ir::Graph graph =
        partitioned(pipelineGraph(test::modelsDir() / "kws_ref_model" / "model.tflite"));
    int convolutions = 0;
    for (const auto& op : graph.operators) {
      if (op.type != ir::OpType::Conv2D && op.type != ir::OpType::DepthwiseConv2D) continue;
      ++convolutions;
      QVERIFY2(op.placement.target == "acc", op.typeName().c_str());
      QVERIFY(op.placement.region >= 0);
    }
    QCOMPARE(convolutions, 9);
  }

  // Every shared model partitions, as imported (what loupec info shows) and
  // after the graph pipeline (what compile does); the counts are printed.
  void everySharedModelPartitions() {
    const auto models = sharedModels();
    QVERIFY(models.size() >= 7);
    for (const auto& model : models) {
      frontend::ImportOptions inspect;
      inspect.keepUnsupportedOperators = true;
      const ir::Graph imported = passes::annotateOperatorTargets(
          frontend::importTfliteFile(model, inspect), targetList(kAccThenC));
      for (const auto& op : imported.operators) QVERIFY(!op.placement.target.empty());
      const ir::Graph graph = partitioned(pipelineGraph(model));
      int onAcc = 0;
      for (const auto& op : graph.operators) {
        QVERIFY(op.placement.target == "acc" || op.placement.target == "c");
        QCOMPARE(op.placement.region >= 0, op.placement.target == "acc");
        onAcc += op.placement.target == "acc";
      }
      qInfo("%s: %d of %zu operators on acc in %zu region(s)",
            model.parent_path().filename().c_str(), onAcc, graph.operators.size(),
            graph.externalFunctions.size());
    }
  }

  // The partition is recorded, not yet used: the C is the same with or
  // without it.
  void partitionDoesNotChangeGeneratedCode() {
    const ir::Graph graph = pipelineGraph(test::modelsDir() / "kws_ref_model" / "model.tflite");
    const codegen::CompiledModel plain = codegen::compileToC(graph, {});
    const codegen::CompiledModel withAcc = codegen::compileToC(partitioned(graph), {});
    QCOMPARE(withAcc.sources.size(), plain.sources.size());
    for (std::size_t i = 0; i < plain.sources.size(); ++i) {
      QCOMPARE(withAcc.sources[i].text, plain.sources[i].text);
    }
  }
};

QTEST_APPLESS_MAIN(PartitionGraph)
#include "partition_graph_test.moc"
