// SVDF through TIR and generated C, byte for byte against the reference
// interpreter over several consecutive runs, so the variable state must be
// carried from run to run exactly as the interpreter carries it: float32
// (every fused activation, with and without bias), int8 with int16 state and
// int8 with int8 state (zero points on input and state), ranks 1 to 3,
// memory sizes 1 to 10, batches. Also: the hand-computed example of the
// reference tests, resetting the state, a state tensor that carries data in
// the model (ignored, as TFLite Micro does), how state is reported, and the
// variable tensors generated code refuses.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "mlf/compiled_model_export.h"
#include "passes/pass_manager.h"
#include "test_group.h"

namespace svdf_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct SvdfCase {
  const char* name;
  ir::DType inputType = ir::DType::Int8;
  ir::DType stateType = ir::DType::Int16;  // and weights_time (int8 SVDF)
  int batches = 1, inputSize = 6, units = 4, rank = 1, memory = 4;
  ir::Activation activation = ir::Activation::None;
  bool bias = true;
  int inputZeroPoint = -5;
  int stateZeroPoint = 0;
};

ir::Graph svdfGraph(const SvdfCase& c) {
  const int filters = c.units * c.rank;
  const auto featureCount = static_cast<std::size_t>(filters * c.inputSize);
  const auto timeCount = static_cast<std::size_t>(filters * c.memory);
  GraphBuilder g;
  int in, wf, wt, bias = ir::kNoTensor, state, out;
  if (c.inputType == ir::DType::Float32) {
    in = g.tensor("in", ir::DType::Float32, {c.batches, c.inputSize});
    wf = g.constant("weights_feature", ir::DType::Float32, {filters, c.inputSize},
                    test::randomFloats(featureCount, 3));
    wt = g.constant("weights_time", ir::DType::Float32, {filters, c.memory},
                    test::randomFloats(timeCount, 4));
    if (c.bias) {
      bias = g.constant("bias", ir::DType::Float32, {c.units},
                        test::randomFloats(static_cast<std::size_t>(c.units), 5));
    }
    state = g.tensor("svdf_state", ir::DType::Float32, {c.batches, c.memory * filters});
    out = g.tensor("out", ir::DType::Float32, {c.batches, c.units});
  } else {
    // Scales that keep most features inside the state's range and most
    // outputs inside int8, with some saturation in both.
    const bool int16State = c.stateType == ir::DType::Int16;
    const float stateScale = int16State ? 0.0008f : 0.12f;
    const float timeScale = 0.02f;
    in = g.tensor("in", ir::DType::Int8, {c.batches, c.inputSize},
                  test::perTensor(0.05f, c.inputZeroPoint));
    wf = g.constant("weights_feature", ir::DType::Int8, {filters, c.inputSize},
                    test::randomValues<std::int8_t>(featureCount, -127, 127, 3),
                    test::perTensor(0.01f, 0));
    if (int16State) {
      wt = g.constant("weights_time", ir::DType::Int16, {filters, c.memory},
                      test::randomValues<std::int16_t>(timeCount, -127, 127, 4),
                      test::perTensor(timeScale, 0));
    } else {
      wt = g.constant("weights_time", ir::DType::Int8, {filters, c.memory},
                      test::randomValues<std::int8_t>(timeCount, -127, 127, 4),
                      test::perTensor(timeScale, 0));
    }
    bias = g.constant(
        "bias", ir::DType::Int32, {c.units},
        test::randomValues<std::int32_t>(static_cast<std::size_t>(c.units), -20000, 20000, 5),
        test::perTensor(stateScale * timeScale, 0));
    state = g.tensor("svdf_state", c.stateType, {c.batches, c.memory * filters},
                     test::perTensor(stateScale, c.stateZeroPoint));
    const float outScale = 0.06f * static_cast<float>(c.rank * c.memory);
    out = g.tensor("out", ir::DType::Int8, {c.batches, c.units}, test::perTensor(outScale, 3));
  }
  g.op(ir::OpType::Svdf, {in, wf, wt, bias, state}, {out}, ir::SvdfAttrs{c.rank, c.activation});
  ir::Graph graph = g.inputs({in}).outputs({out}).build();
  graph.tensor(state).isVariable = true;
  return graph;
}

std::vector<SvdfCase> cases() {
  using ir::Activation;
  using ir::DType;
  return {
      {"int8/int16 state rank 1 memory 4"},
      {.name = "int8/int16 state rank 2 memory 10 batches 2",
       .batches = 2,
       .rank = 2,
       .memory = 10},
      {.name = "int8/int16 state rank 1 memory 1", .memory = 1},
      {.name = "int8/int16 state rank 3 memory 3 input zero point 0",
       .units = 3,
       .rank = 3,
       .memory = 3,
       .inputZeroPoint = 0},
      {.name = "int8/int8 state zero point 4 rank 1 memory 5",
       .stateType = DType::Int8,
       .memory = 5,
       .stateZeroPoint = 4},
      {.name = "int8/int8 state zero point -7 rank 2 memory 8 batches 3",
       .stateType = DType::Int8,
       .batches = 3,
       .rank = 2,
       .memory = 8,
       .stateZeroPoint = -7},
      {.name = "float32 rank 1 memory 4", .inputType = DType::Float32},
      {.name = "float32 rank 2 memory 10 batches 2 RELU",
       .inputType = DType::Float32,
       .batches = 2,
       .rank = 2,
       .memory = 10,
       .activation = Activation::Relu},
      {.name = "float32 rank 1 memory 1 no bias",
       .inputType = DType::Float32,
       .memory = 1,
       .bias = false},
      {.name = "float32 RELU6", .inputType = DType::Float32, .activation = Activation::Relu6},
      {.name = "float32 RELU_N1_TO_1 rank 3",
       .inputType = DType::Float32,
       .rank = 3,
       .activation = Activation::ReluN1To1},
      {.name = "float32 TANH memory 7",
       .inputType = DType::Float32,
       .memory = 7,
       .activation = Activation::Tanh},
      {.name = "float32 SIGN_BIT", .inputType = DType::Float32, .activation = Activation::SignBit},
  };
}

template <typename T>
test::Bytes bytesOf(const std::vector<T>& values) {
  test::Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The hand-computed example of tests/reference/svdf_test.cpp: two filters
// over two inputs, memory 2, rank 1, bias {1, -1}.
ir::Graph handExample() {
  GraphBuilder g;
  const int in = g.tensor("in", ir::DType::Float32, {1, 2});
  const int wf =
      g.constant("weights_feature", ir::DType::Float32, {2, 2}, std::vector<float>{1, 2, 3, -1});
  const int wt =
      g.constant("weights_time", ir::DType::Float32, {2, 2}, std::vector<float>{1, 10, 2, 20});
  const int bias = g.constant("bias", ir::DType::Float32, {2}, std::vector<float>{1, -1});
  const int state = g.tensor("state", ir::DType::Float32, {1, 4});
  const int out = g.tensor("out", ir::DType::Float32, {1, 2});
  g.op(ir::OpType::Svdf, {in, wf, wt, bias, state}, {out}, ir::SvdfAttrs{1, ir::Activation::None});
  ir::Graph graph = g.inputs({in}).outputs({out}).build();
  graph.tensor(state).isVariable = true;
  return graph;
}

int stateTensor(const ir::Graph& graph) {
  return graph.operators.at(0).inputs.at(4);
}

}  // namespace

class SvdfCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReferenceOverConsecutiveRuns_data() {
    QTest::addColumn<int>("index");
    const auto all = cases();
    for (std::size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
  }

  void matchesReferenceOverConsecutiveRuns() {
    QFETCH(int, index);
    const ir::Graph graph = svdfGraph(cases().at(static_cast<std::size_t>(index)));
    const std::string difference = test::differenceOverInvocations(graph, 4);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void compilesAfterTheDefaultGraphPasses() {
    // What loupec compiles: the graph after the pass pipeline, which must
    // keep the state tensor a variable the operator updates.
    for (const SvdfCase& c : {cases()[1], cases()[5], cases()[7]}) {
      passes::StageTimeline timeline;
      const ir::Graph graph = passes::runGraphPipeline(svdfGraph(c), timeline);
      const std::string difference = test::differenceOverInvocations(graph, 3);
      QVERIFY2(difference.empty(), (std::string(c.name) + ": " + difference).c_str());
    }
  }

  void handExampleCarriesTheStateIntoTheSecondRun() {
    // Run 1, input (1, 1): 31, 39. Run 2, input (2, -1): 4, 143 — only with
    // the first run's features still in the state.
    const auto outputs = test::runGeneratedCInvocations(
        handExample(), {{bytesOf(std::vector<float>{1, 1})}, {bytesOf(std::vector<float>{2, -1})}});
    QCOMPARE(outputs.at(0).at(0), bytesOf(std::vector<float>{31, 39}));
    QCOMPARE(outputs.at(1).at(0), bytesOf(std::vector<float>{4, 143}));
  }

  void theSameInputGivesDifferentOutputsAsTheStateFills() {
    // Runs 0 and 3 see the same input but not the same state.
    const ir::Graph graph = svdfGraph(cases()[0]);
    std::vector<test::Invocation> runs;
    for (std::uint32_t seed : {1u, 2u, 3u, 1u}) runs.push_back(test::randomInputs(graph, seed));
    const auto outputs = test::runGeneratedCInvocations(graph, runs);
    QVERIFY(outputs[0] != outputs[3]);
    QVERIFY2(test::differenceOverInvocations(graph, 6, -1, 3).empty(), "repeated inputs");
  }

  void resetRestoresTheInitialState() {
    // Runs 0-2, reset, then runs 0-2's inputs again: the same outputs as
    // the first three runs, for int8 state starting at its zero point too.
    for (const SvdfCase& c : {cases()[0], cases()[4], cases()[6]}) {
      const ir::Graph graph = svdfGraph(c);
      std::vector<test::Invocation> runs;
      for (std::uint32_t seed : {1u, 2u, 3u, 1u, 2u, 3u}) {
        runs.push_back(test::randomInputs(graph, seed));
      }
      const auto outputs = test::runGeneratedCInvocations(graph, runs, 3);
      for (int run = 0; run < 3; ++run) QCOMPARE(outputs[run + 3], outputs[run]);
      QVERIFY2(test::differenceOverInvocations(graph, 6, 3, 3).empty(), c.name);
    }
  }

  void dataOfTheStateTensorIsIgnored() {
    // TFLite Micro allocates variables fresh and resets them (int8 to the
    // zero point); a buffer in the model does not make them constant.
    for (const SvdfCase& c : {cases()[4], cases()[6]}) {
      ir::Graph graph = svdfGraph(c);
      ir::Tensor& state = graph.tensor(stateTensor(graph));
      state.isConstant = true;
      state.data.assign(static_cast<std::size_t>(state.byteSize()), 0x5a);
      const std::string difference = test::differenceOverInvocations(graph, 3);
      QVERIFY2(difference.empty(), difference.c_str());
      QCOMPARE(test::runGeneratedCInvocations(graph, {test::randomInputs(graph, 1)}),
               test::runGeneratedCInvocations(svdfGraph(c), {test::randomInputs(graph, 1)}));
    }
  }

  void stateIsStaticStorageOutsideTheWorkspace() {
    const SvdfCase c = cases()[4];  // int8 state, zero point 4: [1, 5 * 4] bytes
    const ir::Graph graph = svdfGraph(c);
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    QCOMPARE(model.state.size(), std::size_t{1});
    QCOMPARE(model.state[0].tensor, stateTensor(graph));
    QCOMPARE(model.state[0].symbol, std::string("tvmgen_default_state_svdf_state"));
    QCOMPARE(model.stateBytes, std::int64_t{20});
    for (const auto& buffer : model.memoryPlan.analysis.buffers) {
      QVERIFY(buffer.tensor != stateTensor(graph));
    }

    const std::string& header = model.headers.at(0).text;
    QVERIFY2(header.find("#define TVMGEN_DEFAULT_STATE_SIZE 20") != std::string::npos,
             header.c_str());
    QVERIFY2(header.find("void tvmgen_default_reset_state(void);") != std::string::npos,
             header.c_str());
    std::string run;
    for (const auto& f : model.sources) {
      if (f.name == "tvmgen_default_lib0.c") run = f.text;
    }
    QVERIFY2(run.find("static int8_t tvmgen_default_state_svdf_state[20] = {") != std::string::npos,
             run.c_str());

    const mlf::MlfContents contents = mlf::mlfContentsOf(model, {});
    const nlohmann::json metadata = mlf::mlfMetadata(contents)["modules"]["default"];
    const nlohmann::json& main = metadata["memory"]["functions"]["main"][0];
    QCOMPARE(main["state_size_bytes"], nlohmann::json(20));
    const nlohmann::json& op = metadata["memory"]["functions"]["operator_functions"][0];
    QCOMPARE(op["workspace"][0]["state_size_bytes"], nlohmann::json(20));
    // io: the int8 input [1, 6] and output [1, 4]; the state is not io.
    QCOMPARE(op["workspace"][0]["io_size_bytes"], nlohmann::json(10));
    QCOMPARE(metadata["memory_plan"]["state_bytes"], nlohmann::json(20));
    QCOMPARE(metadata["memory_plan"]["state"][0]["symbol"],
             nlohmann::json("tvmgen_default_state_svdf_state"));
  }

  void stateStaysInternalWithAnExternalWorkspace() {
    // The application's workspace holds intermediate tensors only; the state
    // is the generated code's own either way.
    const ir::Graph graph = svdfGraph(cases()[1]);
    codegen::CompileOptions options;
    options.externalWorkspace = true;
    const codegen::CompiledModel model = codegen::compileToC(graph, options);
    QCOMPARE(model.stateBytes, std::int64_t{2 * 10 * 8 * 2});  // int16 [2, 10 * 8]
    const auto inputs = test::randomInputs(graph, 1);
    QCOMPARE(test::runGeneratedC(graph, inputs, options), test::runReference(graph, inputs));
  }

  void modelsWithoutStateHaveNoStateInterface() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Float32, {1, 4});
    const int out = g.tensor("out", ir::DType::Float32, {4});
    g.op(ir::OpType::Reshape, {in}, {out});
    const codegen::CompiledModel model =
        codegen::compileToC(g.inputs({in}).outputs({out}).build(), {});
    QVERIFY(model.state.empty());
    QVERIFY(model.headers.at(0).text.find("STATE_SIZE") == std::string::npos);
    QVERIFY(model.headers.at(0).text.find("reset_state") == std::string::npos);
  }

  void refusesStateThatIsAModelInput() {
    ir::Graph graph = svdfGraph(cases()[0]);
    graph.inputs.push_back(stateTensor(graph));
    try {
      codegen::compileToC(graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(std::string(error.what())
                       .find("variable tensor 'svdf_state' (tensor 4) is a model "
                             "input") != std::string::npos,
               error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(SvdfCodegen)

}  // namespace svdf_test

#include "svdf_test.moc"
