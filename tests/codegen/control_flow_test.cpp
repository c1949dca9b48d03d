// IF and WHILE in models written here with the schema's object API: TFLite
// Micro's own kernel-test models (IF choosing between an ADD and a MUL
// subgraph, WHILE adding while LESS holds) with the values its tests expect,
// then a loop whose body holds an IF, intermediate tensors and constants.
// The reference interpreter must give TFLM's values and the generated C
// (the subgraphs inlined into one function per operator) the reference's bytes.
#include <QtTest>

#include "codegen/model_compiler.h"
#include "codegen_checks.h"
#include "control_flow_models.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace control_flow_test {

using namespace loupe;

namespace {

using namespace test::control_flow;
using test::bytesOf;
using test::valuesOf;

test::Bytes boolBytes(bool value) {
  return {static_cast<std::uint8_t>(value ? 1 : 0)};
}

std::string importError(const std::function<ir::Graph()>& build) {
  try {
    build();
  } catch (const frontend::ImportError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

class ControlFlowTest : public QObject {
  Q_OBJECT

 private slots:
  void theImporterAttachesTheSubgraphs() {
    const ir::Graph graph = ifModel();
    QCOMPARE(graph.operators.size(), std::size_t{1});
    const ir::Operator& op = graph.operators[0];
    QCOMPARE(op.type, ir::OpType::If);
    QCOMPARE(op.subgraphs.size(), std::size_t{2});
    QCOMPARE(op.subgraphs[0]->operators.at(0).type, ir::OpType::Add);
    QCOMPARE(op.subgraphs[1]->operators.at(0).type, ir::OpType::Mul);
    QCOMPARE(std::get<ir::OptionAttrs>(op.attributes).get("else_subgraph_index"), 2);
  }

  // if_test.cc: x = {2, 5}, y = {3, 7}; then (ADD) {5, 12}, else (MUL) {6, 35}.
  void ifRunsTheBranchItsConditionPicks() {
    const ir::Graph graph = ifModel();
    const auto x = bytesOf(std::vector<float>{2, 5}), y = bytesOf(std::vector<float>{3, 7});
    const std::vector<test::Invocation> runs = {{boolBytes(true), x, y}, {boolBytes(false), x, y}};
    const auto reference = test::runReferenceInvocations(graph, runs);
    QCOMPARE(valuesOf<float>(reference[0][0]), (std::vector<float>{5, 12}));
    QCOMPARE(valuesOf<float>(reference[1][0]), (std::vector<float>{6, 35}));
    QCOMPARE(test::runGeneratedCInvocations(graph, runs), reference);
  }

  // while_test.cc: (3, 2) never runs the body, (2, 3) once -> (5, 3),
  // (-5, 3) three times -> (4, 3).
  void whileLoopsAsLongAsItsConditionHolds() {
    const ir::Graph graph = whileModel();
    std::vector<test::Invocation> runs;
    for (const auto& [a, b] : {std::pair{3.0f, 2.0f}, {2.0f, 3.0f}, {-5.0f, 3.0f}}) {
      runs.push_back({bytesOf(std::vector<float>{a}), bytesOf(std::vector<float>{b})});
    }
    const auto reference = test::runReferenceInvocations(graph, runs);
    const std::vector<std::pair<float, float>> expected = {{3, 2}, {5, 3}, {4, 3}};
    for (std::size_t r = 0; r < runs.size(); ++r) {
      QCOMPARE(valuesOf<float>(reference[r][0]), std::vector<float>{expected[r].first});
      QCOMPARE(valuesOf<float>(reference[r][1]), std::vector<float>{expected[r].second});
    }
    QCOMPARE(test::runGeneratedCInvocations(graph, runs), reference);
  }

  // i = 0: iterations i = 1, 2 triple, i = 3, 4, 5 add the bias; i = 4: one step.
  void aLoopWithABranchInItsBody() {
    const ir::Graph graph = countingLoopModel();
    const std::vector<float> acc = {1, 2, 3, 4, -1, -2, -3, -4};
    const std::vector<test::Invocation> runs = {
        {bytesOf(std::vector<std::int32_t>{0}), bytesOf(acc)},
        {bytesOf(std::vector<std::int32_t>{4}), bytesOf(acc)}};
    const auto reference = test::runReferenceInvocations(graph, runs);
    QCOMPARE(valuesOf<std::int32_t>(reference[0][0]), std::vector<std::int32_t>{5});
    QCOMPARE(valuesOf<float>(reference[0][1]), countingLoopExpected(0, acc));
    QCOMPARE(valuesOf<std::int32_t>(reference[1][0]), std::vector<std::int32_t>{5});
    QCOMPARE(valuesOf<float>(reference[1][1]), countingLoopExpected(4, acc));
    QCOMPARE(test::runGeneratedCInvocations(graph, runs), reference);
  }

  // One function: the loop, the branch inside it, the subgraphs' operators
  // and constants inlined.
  void theGeneratedCLoopsAndBranches() {
    codegen::CompileOptions options;
    options.modelName = "loop";
    const codegen::CompiledModel model = codegen::compileToC(countingLoopModel(), options);
    QCOMPARE(model.functions.size(), std::size_t{1});
    const std::string& c = model.sources.at(0).text;
    for (const char* part :
         {"while (", "} else {", "then_t2_doubled[8]", "body_op2_else_op0_", "cond_again_op0_"}) {
      QVERIFY2(c.find(part) != std::string::npos, part);
    }
  }

  // The then branch is the main subgraph, which is running the IF.
  void recursionIsRefused() {
    const std::string message = importError([] { return ifModel(0); });
    QVERIFY2(message.find("operator 0 (IF) runs subgraph 0, which is already running") !=
                 std::string::npos,
             message.c_str());
  }

  void aSubgraphIndexOutsideTheModelIsRefused() {
    const std::string message = importError([] { return ifModel(7); });
    QVERIFY2(message.find("then_subgraph_index is 7, but the model has 3 subgraphs") !=
                 std::string::npos,
             message.c_str());
  }

  void aBranchOfTheWrongArityIsNamed() {
    test::TfliteModelWriter w;
    tflite::SubGraphT& main = w.subgraph();
    const int cond = w.tensor(main, "cond", TensorType::BOOL, {1});
    const int x = w.tensor(main, "x", TensorType::FLOAT32, {1, 2});
    const int out = w.tensor(main, "out", TensorType::FLOAT32, {1, 2});
    main.inputs = {cond, x};
    main.outputs = {out};
    w.op(main, kIf, {cond, x}, {out}, ifOptions(1, 2));
    binarySubgraph(w, kAdd);  // two inputs where the IF passes one
    binarySubgraph(w, kMul);
    const ir::Graph graph = w.import();
    const auto problems = reference::findUnsupportedOperators(graph);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].reason.find("the then subgraph (1) inputs has 2; 1 expected") !=
                 std::string::npos,
             problems[0].reason.c_str());
  }

  // Subgraph k runs subgraph k + 1 in both branches: 2^20 operators once
  // inlined. Refused, and found without visiting them all.
  void subgraphsThatMultiplyAreRefused() {
    constexpr int kDepth = 20;
    test::TfliteModelWriter w;
    for (int k = 0; k <= kDepth; ++k) {
      tflite::SubGraphT& g = w.subgraph();
      const int c = w.tensor(g, "c", TensorType::BOOL, {1});
      const int x = w.tensor(g, "x", TensorType::FLOAT32, {1});
      g.inputs = {c, x};
      if (k == kDepth) {
        g.outputs = {x};
        continue;
      }
      const int y = w.tensor(g, "y", TensorType::FLOAT32, {1});
      g.outputs = {y};
      w.op(g, kIf, {c, c, x}, {y}, ifOptions(k + 1, k + 1));
    }
    const ir::Graph graph = w.import();
    const auto problems = reference::findUnsupportedOperators(graph);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(
        problems[0].reason.find("more than 10000 operators in one function") != std::string::npos,
        problems[0].reason.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(ControlFlowTest)

}  // namespace control_flow_test

#include "control_flow_test.moc"
