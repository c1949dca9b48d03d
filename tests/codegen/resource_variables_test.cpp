// TFLite's resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE)
// and CALL_ONCE's init subgraph, in a model written here with the schema's
// object API as the TFLite converter writes a stateful model: an accumulator
// `acc` that the init subgraph sets to {10, 20} and every run adds its input
// to. The importer turns the variable into state; the reference interpreter
// and the generated C carry it from run to run alike.
#include <QtTest>

#include "codegen_checks.h"
#include "test_group.h"
#include "tflite_model_writer.h"

namespace resource_variables_test {

using namespace loupe;

namespace {

test::Bytes floatBytes(const std::vector<float>& values) {
  return test::bytesOf(values);
}

std::vector<float> floatsOf(const test::Bytes& bytes) {
  return test::valuesOf<float>(bytes);
}

using ModelWriter = test::TfliteModelWriter;

tflite::VarHandleOptionsT handleNamed(const std::string& name) {
  tflite::VarHandleOptionsT options;
  options.shared_name = name;
  return options;
}

// The accumulator. `init` picks the init subgraph: none (the variable starts
// at TFLM's default, 0), constants, or one that computes (refused).
enum class Init { None, Constants, Computes };

// TFLite's builtin operator codes.
constexpr std::int32_t kAdd = 0, kCallOnce = 129, kVarHandle = 142, kReadVariable = 143,
                       kAssignVariable = 144;

ir::Graph accumulator(Init init) {
  using tflite::TensorType;
  ModelWriter w;
  tflite::SubGraphT& main = w.subgraph();
  const int x = w.tensor(main, "x", TensorType::FLOAT32, {2});
  const int handle = w.tensor(main, "acc_handle", TensorType::RESOURCE, {});
  const int value = w.tensor(main, "acc_value", TensorType::FLOAT32, {2});
  const int y = w.tensor(main, "y", TensorType::FLOAT32, {2});
  main.inputs = {x};
  main.outputs = {y};
  if (init != Init::None) {
    tflite::CallOnceOptionsT callOnce;
    callOnce.init_subgraph_index = 1;
    w.op(main, kCallOnce, {}, {}, callOnce);
  }
  w.op(main, kVarHandle, {}, {handle}, handleNamed("acc"));
  w.op(main, kReadVariable, {handle}, {value}, tflite::ReadVariableOptionsT{});
  w.op(main, kAdd, {value, x}, {y}, tflite::AddOptionsT{});
  w.op(main, kAssignVariable, {handle, y}, {}, tflite::AssignVariableOptionsT{});
  if (init != Init::None) {
    tflite::SubGraphT& first = w.subgraph();
    const int h = w.tensor(first, "acc_handle", TensorType::RESOURCE, {});
    int start = w.tensor(first, "acc_start", TensorType::FLOAT32, {2}, floatBytes({10, 20}));
    w.op(first, kVarHandle, {}, {h}, handleNamed("acc"));
    if (init == Init::Computes) {
      const int doubled = w.tensor(first, "acc_doubled", TensorType::FLOAT32, {2});
      w.op(first, kAdd, {start, start}, {doubled}, tflite::AddOptionsT{});
      start = doubled;
    }
    w.op(first, kAssignVariable, {h, start}, {}, tflite::AssignVariableOptionsT{});
  }
  return w.import();
}

}  // namespace

class ResourceVariablesTest : public QObject {
  Q_OBJECT

 private slots:
  void theImporterMakesTheVariableState() {
    const ir::Graph graph = accumulator(Init::Constants);
    QCOMPARE(graph.operators.size(), std::size_t{3});  // READ, ADD, ASSIGN
    QCOMPARE(graph.operators[0].type, ir::OpType::ReadVariable);
    QCOMPARE(graph.operators[2].type, ir::OpType::AssignVariable);
    const ir::Tensor& acc = graph.tensor(graph.operators[0].inputs.at(0));
    QCOMPARE(acc.name, std::string("acc"));
    QVERIFY(acc.isVariable);
    QVERIFY(!acc.isConstant);
    QCOMPARE(floatsOf(acc.initialContents), (std::vector<float>{10, 20}));
    QCOMPARE(graph.operators[2].inputs.at(0), acc.index);
  }

  void theInitSubgraphRunsOnce() {
    const ir::Graph graph = accumulator(Init::Constants);
    const test::Invocation x = {floatBytes({1, 2})};
    const auto reference = test::runReferenceInvocations(graph, {x, x, x});
    QCOMPARE(floatsOf(reference[0][0]), (std::vector<float>{11, 22}));
    QCOMPARE(floatsOf(reference[1][0]), (std::vector<float>{12, 24}));
    QCOMPARE(floatsOf(reference[2][0]), (std::vector<float>{13, 26}));
    QCOMPARE(test::runGeneratedCInvocations(graph, {x, x, x}), reference);
  }

  void withoutInitTheVariableStartsAtZero() {
    const ir::Graph graph = accumulator(Init::None);
    const test::Invocation x = {floatBytes({1, 2})};
    const auto reference = test::runReferenceInvocations(graph, {x, x});
    QCOMPARE(floatsOf(reference[0][0]), (std::vector<float>{1, 2}));
    QCOMPARE(floatsOf(reference[1][0]), (std::vector<float>{2, 4}));
    QCOMPARE(test::runGeneratedCInvocations(graph, {x, x}), reference);
  }

  void resetReturnsToTheInitValues() {
    const ir::Graph graph = accumulator(Init::Constants);
    const std::string difference = test::differenceOverInvocations(graph, 4, 2, 2);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void anInitSubgraphThatComputesIsRefused() {
    try {
      accumulator(Init::Computes);
      QFAIL("the import should fail");
    } catch (const frontend::ImportError& error) {
      const std::string message = error.what();
      QVERIFY2(message.find("subgraph 1 operator 1 (ADD)") != std::string::npos, error.what());
      QVERIFY2(message.find("assign constants") != std::string::npos, error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(ResourceVariablesTest)

}  // namespace resource_variables_test

#include "resource_variables_test.moc"
