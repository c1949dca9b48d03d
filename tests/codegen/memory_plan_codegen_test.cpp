// The memory plan drives the generated code: calls follow the chosen
// execution order, element-wise operators write in place (without
// `restrict`), several pools become several arrays or the members of
// struct tvmgen_<name>_workspace_pools, and in every case the outputs equal
// the reference interpreter's byte for byte.
#include <QtTest>

#include "codegen/c_function_printer.h"
#include "codegen_checks.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "memory/memory_pools.h"
#include "memory/planner_registry.h"
#include "test_group.h"

namespace memory_plan_codegen_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

// in -> FC(16->256) -> FC(256->16) on two branches, added: in the model's
// order both 256-byte tensors are alive together; branch by branch they
// never are. The ADD writes over its first input; a second ADD in place too.
ir::Graph twoBranchGraph() {
  GraphBuilder g;
  const auto q = test::perTensor(0.05f, -7);
  const int in = g.tensor("in", ir::DType::Int8, {1, 16}, q);
  auto fc = [&](int input, int depth, int units, const std::string& name, std::uint32_t seed) {
    const int w = g.constant(name + "_w", ir::DType::Int8, {units, depth},
                             test::randomValues<std::int8_t>(units * depth, -127, 127, seed),
                             test::perTensor(0.01f, 0));
    const int b = g.constant(name + "_b", ir::DType::Int32, {units},
                             test::randomValues<std::int32_t>(units, -900, 900, seed + 1));
    const int out = g.tensor(name, ir::DType::Int8, {1, units}, test::perTensor(0.11f, 5));
    g.op(ir::OpType::FullyConnected, {input, w, b}, {out}, ir::FullyConnectedAttrs{});
    return out;
  };
  const int wideA = fc(in, 16, 256, "wide_a", 3);
  const int wideB = fc(in, 16, 256, "wide_b", 5);
  const int narrowA = fc(wideA, 256, 16, "narrow_a", 7);
  const int narrowB = fc(wideB, 256, 16, "narrow_b", 9);
  const int sum = g.tensor("sum", ir::DType::Int8, {1, 16}, test::perTensor(0.2f, 1));
  g.op(ir::OpType::Add, {narrowA, narrowB}, {sum}, ir::ElementwiseAttrs{});
  const int out = g.tensor("out", ir::DType::Int8, {1, 16}, test::perTensor(0.3f, -2));
  g.op(ir::OpType::Add, {sum, in}, {out}, ir::ElementwiseAttrs{});
  return g.inputs({in}).outputs({out}).build();
}

std::string runSource(const codegen::CompiledModel& model) {
  for (const auto& f : model.sources) {
    if (f.name == "tvmgen_" + model.modelName + "_lib0.c") return f.text;
  }
  return {};
}

}  // namespace

class MemoryPlanCodegen : public QObject {
  Q_OBJECT

 private slots:
  void callsFollowTheChosenOrderAndAddsWriteInPlace() {
    const ir::Graph graph = twoBranchGraph();
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    const memory::MemoryPlan& plan = model.memoryPlan;
    QVERIFY(plan.order.changed());
    QCOMPARE(plan.order.operators, (std::vector<int>{0, 2, 1, 3, 4, 5}));
    QCOMPARE(plan.lowerBound, std::int64_t{256 + 16 + 16});
    QCOMPARE(model.workspaceBytes(), plan.lowerBound);
    std::vector<int> calls;
    for (const auto& call : model.calls) calls.push_back(call.operatorIndex);
    QCOMPARE(calls, (std::vector<int>{0, 2, 1, 3, 4, 5}));
    // The first ADD writes over narrow_a; its C function has no restrict.
    QCOMPARE(plan.analysis.inPlaceOperators.size(), std::size_t{1});
    QVERIFY(plan.analysis.inPlaceOperators.contains(4));
    int inPlaceFunctions = 0;
    for (const auto& f : model.functions) {
      const bool restricted = codegen::cPrototype(f).find("restrict") != std::string::npos;
      if (f.attrs.contains("in_place")) {
        ++inPlaceFunctions;
        QCOMPARE(QString::fromStdString(f.attrs.at("in_place")), QString("output over narrow_a"));
        QVERIFY(!restricted);
      } else {
        QVERIFY(restricted);
      }
    }
    QCOMPARE(inPlaceFunctions, 1);
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void everyPlannerAndNoReorderOrInPlaceMatch() {
    const ir::Graph graph = twoBranchGraph();
    const auto inputs = test::randomInputs(graph, 4);
    const auto expected = test::runReference(graph, inputs);
    for (const memory::PlannerInfo& p : memory::planners()) {
      for (const bool simple : {false, true}) {
        codegen::CompileOptions options;
        options.memory.planner = std::string(p.name);
        options.memory.reorder = !simple;
        options.memory.inPlace = !simple;
        const auto actual = test::runGeneratedC(graph, inputs, options);
        QCOMPARE(actual.size(), expected.size());
        QVERIFY2(
            actual[0] == expected[0],
            (std::string(p.name) + ": " + test::firstDifference(actual[0], expected[0])).c_str());
      }
    }
  }

  void twoPoolsStaticAndExternal() {
    const ir::Graph graph = twoBranchGraph();
    const auto inputs = test::randomInputs(graph, 6);
    const auto expected = test::runReference(graph, inputs);
    for (const bool external : {false, true}) {
      codegen::CompileOptions options;
      options.externalWorkspace = external;
      options.memory.pools = memory::parsePoolSpec("dtcm:size=64;sram:size=4K,alignment=32");
      const codegen::CompiledModel model = codegen::compileToC(graph, options);
      // The two narrow tensors (rounded to sram's 32-byte alignment) fit the
      // fast pool; the wide ones spill.
      const auto& bytes = model.memoryPlan.result.poolBytes;
      QCOMPARE(bytes, (std::vector<std::int64_t>{64, 256}));
      QCOMPARE(model.workspaceBytes(), model.memoryPlan.lowerBound);
      const std::string header = model.headers.at(0).text;
      QVERIFY(header.find("#define TVMGEN_DEFAULT_DTCM_POOL_SIZE 64") != std::string::npos);
      QVERIFY(header.find("#define TVMGEN_DEFAULT_SRAM_POOL_SIZE 256") != std::string::npos);
      QVERIFY(header.find("#define TVMGEN_DEFAULT_WORKSPACE_SIZE 320") != std::string::npos);
      const std::string text = runSource(model);
      if (external) {
        QVERIFY(header.find("struct tvmgen_default_workspace_pools {") != std::string::npos);
        QVERIFY(text.find("context->workspace[1]") != std::string::npos);
      } else {
        QVERIFY(text.find("static uint64_t tvmgen_default_dtcm_storage[8]") != std::string::npos);
        QVERIFY(text.find("tvmgen_default_sram_storage[32] TVMGEN_DEFAULT_ALIGNED(32)") !=
                std::string::npos);
      }
      const auto actual = test::runGeneratedC(graph, inputs, options);
      QVERIFY2(actual.at(0) == expected.at(0),
               test::firstDifference(actual[0], expected[0]).c_str());
    }
  }

  void oneInputOperatorsWriteInPlace() {
    // FC -> RELU6 -> LOGISTIC -> TANH: each activation writes over its
    // input, so the chain needs one intermediate buffer, not three.
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16}, test::perTensor(0.05f, -7));
    const int w = g.constant("w", ir::DType::Int8, {64, 16},
                             test::randomValues<std::int8_t>(64 * 16, -127, 127, 3),
                             test::perTensor(0.01f, 0));
    const int fc = g.tensor("fc", ir::DType::Int8, {1, 64}, test::perTensor(0.11f, 5));
    g.op(ir::OpType::FullyConnected, {in, w, ir::kNoTensor}, {fc}, ir::FullyConnectedAttrs{});
    const int relu = g.tensor("relu", ir::DType::Int8, {1, 64}, test::perTensor(0.11f, 5));
    g.op(ir::OpType::Relu6, {fc}, {relu});
    const int sigmoid =
        g.tensor("sigmoid", ir::DType::Int8, {1, 64}, test::perTensor(1.f / 256, -128));
    g.op(ir::OpType::Logistic, {relu}, {sigmoid});
    const int out = g.tensor("out", ir::DType::Int8, {1, 64}, test::perTensor(1.f / 128, 0));
    g.op(ir::OpType::Tanh, {sigmoid}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    QCOMPARE(model.memoryPlan.analysis.inPlaceOperators.size(), std::size_t{2});
    QCOMPARE(model.memoryPlan.analysis.buffers.size(), std::size_t{1});
    QCOMPARE(model.workspaceBytes(), std::int64_t{64});
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void tooSmallPoolsFailTheCompileWithTheNumbers() {
    codegen::CompileOptions options;
    options.memory.pools = memory::parsePoolSpec("sram:size=256");
    try {
      codegen::compileToC(twoBranchGraph(), options);
      QFAIL("compiled into a pool smaller than the lower bound");
    } catch (const memory::MemoryPlanError& error) {
      QVERIFY2(QString(error.what()).contains("needs 288 bytes"), error.what());
      QVERIFY2(QString(error.what()).contains("32 bytes short of what the pools hold"),
               error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(MemoryPlanCodegen)

}  // namespace memory_plan_codegen_test

#include "memory_plan_codegen_test.moc"
