// UNIDIRECTIONAL_SEQUENCE_LSTM through TIR and generated C, byte for byte
// against the reference interpreter over several consecutive runs, so the
// hidden and cell states must carry over from run to run as in the
// interpreter: float32, int8 x int8 -> int16 and int16 x int8 -> int16,
// batch-major and time-major, with and without cell clipping, zero points on
// input, hidden state and weights, cell-state scales on both sides of the
// int16 TANH's shift, 64-bit accumulators. Also: the int8 and int16 results
// the reference tests transcribed from TFLite Micro, resetting the state,
// and what is refused.
#include <QtTest>

#include <array>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"

namespace sequence_lstm_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

constexpr std::array<const char*, 4> kGates = {"input", "forget", "cell", "output"};

// Gate order of every array: input, forget, cell, output.
template <typename W, typename Bias>
struct LstmWeights {
  std::array<std::vector<W>, 4> input;      // [state, input] each
  std::array<std::vector<W>, 4> recurrent;  // [state, state] each
  std::array<std::vector<Bias>, 4> bias;    // [state] each
};

struct LstmCase {
  const char* name;
  ir::DType activations = ir::DType::Int8;
  int batches = 2, timeSteps = 3, inputSize = 5, stateSize = 4;
  bool timeMajor = false;
  float cellClip = 0.0f;
  int inputZeroPoint = 3, hiddenZeroPoint = -2, weightsZeroPoint = 0;
  float cellScale = 1.0f / 2048;  // 2^-11
  std::int64_t bigBias = 0;       // nonzero: the input gate's bias of unit 0
};

struct LstmGraph {
  ir::Graph graph;
  int hidden = -1, cell = -1;
};

template <typename W, typename Bias>
LstmGraph lstmGraph(const LstmCase& c, const LstmWeights<W, Bias>& w) {
  const bool isFloat = c.activations == ir::DType::Float32;
  const bool int16 = c.activations == ir::DType::Int16;
  const ir::DType weightType = isFloat ? ir::DType::Float32 : ir::DType::Int8;
  const ir::DType biasType = isFloat ? ir::DType::Float32
                             : int16 ? ir::DType::Int64
                                     : ir::DType::Int32;
  ir::Quantization inputQ, hiddenQ, cellQ, inputWeightsQ, recurrentWeightsQ;
  if (!isFloat) {
    inputQ = test::perTensor(int16 ? 1.0f / 4096 : 1.0f / 64, int16 ? 0 : c.inputZeroPoint);
    hiddenQ = test::perTensor(int16 ? 1.0f / 8192 : 1.0f / 128, int16 ? 0 : c.hiddenZeroPoint);
    cellQ = test::perTensor(c.cellScale, 0);
    inputWeightsQ = test::perTensor(int16 ? 1.0f / 128 : 1.0f / 64, c.weightsZeroPoint);
    recurrentWeightsQ = test::perTensor(int16 ? 1.0f / 64 : 1.0f / 32, c.weightsZeroPoint);
  }
  GraphBuilder g;
  const int B = c.batches, T = c.timeSteps, I = c.inputSize, S = c.stateSize;
  const ir::Shape inShape = c.timeMajor ? ir::Shape{T, B, I} : ir::Shape{B, T, I};
  std::vector<int> inputs(24, ir::kNoTensor);
  inputs[0] = g.tensor("input", c.activations, inShape, inputQ);
  for (int gate = 0; gate < 4; ++gate) {
    inputs[1 + gate] = g.constant(std::string("input_to_") + kGates[gate], weightType, {S, I},
                                  w.input[gate], inputWeightsQ);
    inputs[5 + gate] = g.constant(std::string("recurrent_to_") + kGates[gate], weightType, {S, S},
                                  w.recurrent[gate], recurrentWeightsQ);
    inputs[12 + gate] =
        g.constant(std::string(kGates[gate]) + "_bias", biasType, {S}, w.bias[gate]);
  }
  inputs[18] = g.tensor("output_state", c.activations, {B, S}, hiddenQ);
  inputs[19] =
      g.tensor("cell_state", isFloat ? ir::DType::Float32 : ir::DType::Int16, {B, S}, cellQ);
  const ir::Shape outShape = c.timeMajor ? ir::Shape{T, B, S} : ir::Shape{B, T, S};
  const int out = g.tensor("output", c.activations, outShape, hiddenQ);
  ir::SequenceLstmAttrs attrs;
  attrs.timeMajor = c.timeMajor;
  attrs.cellClip = c.cellClip;
  g.op(ir::OpType::UnidirectionalSequenceLstm, inputs, {out}, attrs);
  LstmGraph result{g.inputs({inputs[0]}).outputs({out}).build(), inputs[18], inputs[19]};
  result.graph.tensor(result.hidden).isVariable = true;
  result.graph.tensor(result.cell).isVariable = true;
  return result;
}

// Random weights: int8 weights over the whole range, biases around the
// gates' Q3.12 range (int8: bias scale input x weights = 2^-12, so 4096 is
// 1.0); float weights in [-1, 1).
LstmGraph randomLstm(const LstmCase& c) {
  const auto S = static_cast<std::size_t>(c.stateSize);
  const auto I = static_cast<std::size_t>(c.inputSize);
  std::uint32_t seed = 10;
  if (c.activations == ir::DType::Float32) {
    LstmWeights<float, float> w;
    for (int gate = 0; gate < 4; ++gate) {
      w.input[gate] = test::randomFloats(S * I, seed++);
      w.recurrent[gate] = test::randomFloats(S * S, seed++);
      w.bias[gate] = test::randomFloats(S, seed++);
    }
    return lstmGraph(c, w);
  }
  if (c.activations == ir::DType::Int16) {
    LstmWeights<std::int8_t, std::int64_t> w;
    for (int gate = 0; gate < 4; ++gate) {
      w.input[gate] = test::randomValues<std::int8_t>(S * I, -127, 127, seed++);
      w.recurrent[gate] = test::randomValues<std::int8_t>(S * S, -127, 127, seed++);
      // Bias scale input x weights = 2^-19: 2^19 is 1.0.
      w.bias[gate] = test::randomValues<std::int64_t>(S, -(1 << 20), 1 << 20, seed++);
    }
    if (c.bigBias != 0) w.bias[0][0] = c.bigBias;
    return lstmGraph(c, w);
  }
  LstmWeights<std::int8_t, std::int32_t> w;
  for (int gate = 0; gate < 4; ++gate) {
    w.input[gate] = test::randomValues<std::int8_t>(S * I, -127, 127, seed++);
    w.recurrent[gate] = test::randomValues<std::int8_t>(S * S, -127, 127, seed++);
    w.bias[gate] = test::randomValues<std::int32_t>(S, -6000, 6000, seed++);
  }
  if (c.bigBias != 0) w.bias[0][0] = static_cast<std::int32_t>(c.bigBias);
  return lstmGraph(c, w);
}

std::vector<LstmCase> cases() {
  using ir::DType;
  return {
      {"int8 batch-major"},
      {.name = "int8 time-major cell clip 0.5", .timeMajor = true, .cellClip = 0.5f},
      {.name = "int8 one batch, one step, zero points 0",
       .batches = 1,
       .timeSteps = 1,
       .inputZeroPoint = 0,
       .hiddenZeroPoint = 0},
      {.name = "int8 weights zero point 5, state 9", .stateSize = 9, .weightsZeroPoint = 5},
      {.name = "int8 cell scale 2^-15", .cellScale = 1.0f / 32768},
      {.name = "int8 cell scale 2^-8 time-major", .timeMajor = true, .cellScale = 1.0f / 256},
      // Within 2^18 of INT32_MAX: the layer sums in int64 (these inputs stay
      // inside int32, where the reference's int32 sum is defined).
      {.name = "int8 bias near INT32_MAX", .bigBias = 2147483647 - 200000},
      {.name = "int16 batch-major", .activations = DType::Int16},
      {.name = "int16 time-major cell clip 0.4",
       .activations = DType::Int16,
       .timeMajor = true,
       .cellClip = 0.4f},
      {.name = "int16 cell scale 2^-15 weights zero point -4",
       .activations = DType::Int16,
       .weightsZeroPoint = -4,
       .cellScale = 1.0f / 32768},
      {.name = "int16 int64 bias beyond int32",
       .activations = DType::Int16,
       .bigBias = std::int64_t{3} << 31},
      {.name = "float32 batch-major", .activations = DType::Float32},
      {.name = "float32 time-major", .activations = DType::Float32, .timeMajor = true},
      {.name = "float32 cell clip 0.3 state 7",
       .activations = DType::Float32,
       .stateSize = 7,
       .cellClip = 0.3f},
  };
}

// The int8 case of tests/reference/sequence_lstm_test.cpp, whose outputs
// come from an independent transcription of TFLite Micro's arithmetic.
LstmGraph transcribedInt8() {
  LstmCase c{"transcribed int8"};
  c.inputSize = 3;
  c.stateSize = 2;
  c.inputZeroPoint = 3;
  c.hiddenZeroPoint = -2;
  LstmWeights<std::int8_t, std::int32_t> w;
  w.input = {{{42, 40, -54, -41, -2, -35},
              {81, 98, -20, -95, -4, -42},
              {-39, -9, -43, -89, 49, -95},
              {20, 76, -51, 37, 32, 90}}};
  w.recurrent = {{{-57, 40, 96, -88}, {93, -21, 46, 6}, {66, 55, 24, 89}, {55, -68, -49, 73}}};
  w.bias = {{{2298, 1904}, {-2965, -2487}, {2761, 103}, {-779, -1448}}};
  return lstmGraph(c, w);
}

template <typename T>
test::Bytes bytesOf(const std::vector<T>& values) {
  test::Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace

class SequenceLstmCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReferenceOverConsecutiveRuns_data() {
    QTest::addColumn<int>("index");
    const auto all = cases();
    for (std::size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name) << static_cast<int>(i);
  }

  void matchesReferenceOverConsecutiveRuns() {
    QFETCH(int, index);
    const ir::Graph graph = randomLstm(cases().at(static_cast<std::size_t>(index))).graph;
    const std::string difference = test::differenceOverInvocations(graph, 3);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void int8MatchesTheTranscription() {
    const auto outputs = test::runGeneratedCInvocations(
        transcribedInt8().graph,
        {{bytesOf(std::vector<std::int8_t>{14, 47, 60, -59, 26, 75, 40, 65, -26, 39, -44, 125, 114,
                                           -61, 64, 121, -66, 31})}});
    QCOMPARE(outputs.at(0).at(0), bytesOf(std::vector<std::int8_t>{-7, -36, -4, -45, -16, -15, -4,
                                                                   -34, -17, -36, -26, -29}));
  }

  void theSecondRunStartsFromTheFirstRunsState() {
    // The same input twice: the outputs differ because the hidden and cell
    // states carry over; after a reset the first run's outputs come back.
    for (const LstmCase& c : {cases()[0], cases()[7], cases()[11]}) {
      const ir::Graph graph = randomLstm(c).graph;
      const test::Invocation input = test::randomInputs(graph, 1);
      const auto outputs = test::runGeneratedCInvocations(graph, {input, input, input}, 2);
      QVERIFY2(outputs[0] != outputs[1], c.name);
      QVERIFY2(outputs[2] == outputs[0], c.name);
      const std::string difference = test::differenceOverInvocations(graph, 4, 2, 2);
      QVERIFY2(difference.empty(), (std::string(c.name) + ": " + difference).c_str());
    }
  }

  void unitsNeedNoGateBuffers() {
    // Each unit's four gates are scalars of its own loop body; the only
    // operator scratch is those four values and two accumulators.
    const codegen::CompiledModel model = codegen::compileToC(randomLstm(cases()[0]).graph, {});
    const std::string c = model.sources.at(0).text;
    QVERIFY2(c.find("int16_t gates[4];") != std::string::npos, c.c_str());
    QVERIFY2(c.find("loupe_lstm_sigmoid_int16(") != std::string::npos, c.c_str());
    QVERIFY2(c.find("loupe_lstm_tanh_int16(") != std::string::npos, c.c_str());
    QCOMPARE(model.stateBytes, std::int64_t{2 * 4 * (1 + 2)});  // int8 hidden, int16 cell
  }

  void refusesNonConstantWeights() {
    LstmGraph g = randomLstm(cases()[0]);
    const int weights = g.graph.operators[0].inputs[6];
    g.graph.tensor(weights).isConstant = false;
    g.graph.tensor(weights).data.clear();
    g.graph.inputs.push_back(weights);
    try {
      codegen::compileToC(g.graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(std::string(error.what())
                       .find("UNIDIRECTIONAL_SEQUENCE_LSTM: weights and biases must be constant to "
                             "compile to C ('recurrent_to_forget' is not)") != std::string::npos,
               error.what());
    }
  }

  void refusesStateThatIsAModelOutput() {
    LstmGraph g = randomLstm(cases()[11]);
    g.graph.outputs.push_back(g.cell);
    try {
      codegen::compileToC(g.graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(
          std::string(error.what()).find("variable tensor 'cell_state'") != std::string::npos &&
              std::string(error.what()).find("is a model output") != std::string::npos,
          error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(SequenceLstmCodegen)

}  // namespace sequence_lstm_test

#include "sequence_lstm_test.moc"
