// UNIDIRECTIONAL_SEQUENCE_LSTM: the standard LSTM as TFLite Micro evaluates
// it, float32 and the two integer variants (8x8->16, 16x8->16).
//
// The integer expectations come from an independent Python transcription of
// TFLite Micro's arithmetic (integer fully connected layers into Q3.12,
// saturating adds, the int16 sigmoid/tanh lookup tables, gemmlowp
// requantisation with TFLite Micro's float scale constants), run on the
// weights below; they are not TFLite Micro outputs. The float expectations
// come from the same transcription in double precision rounded to float at
// every step, compared within 1e-5.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace sequence_lstm_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

namespace {

// Gate order of every 4-element array: input, forget, cell, output.
template <typename W, typename B>
struct LstmWeights {
  std::array<std::vector<W>, 4> input;      // [state, input] each
  std::array<std::vector<W>, 4> recurrent;  // [state, state] each
  std::array<std::vector<B>, 4> bias;       // [state] each
};

struct LstmConfig {
  ir::DType activations = ir::DType::Float32;
  ir::DType weights = ir::DType::Float32;
  ir::DType bias = ir::DType::Float32;
  ir::DType cell = ir::DType::Float32;
  ir::Quantization inputQ, hiddenQ, cellQ, inputWeightsQ, recurrentWeightsQ;
  int batches = 2, timeSteps = 3, inputSize = 3, stateSize = 2;
  ir::SequenceLstmAttrs attrs;
};

struct LstmGraph {
  ir::Graph graph;
  int hidden = -1, cell = -1;
};

template <typename W, typename B>
LstmGraph lstmGraph(const LstmConfig& c, const LstmWeights<W, B>& w) {
  GraphBuilder b;
  const int B_ = c.batches, T = c.timeSteps, I = c.inputSize, S = c.stateSize;
  const ir::Shape inputShape = c.attrs.timeMajor ? ir::Shape{T, B_, I} : ir::Shape{B_, T, I};
  std::vector<int> inputs(24, -1);
  inputs[0] = b.tensor("input", c.activations, inputShape, c.inputQ);
  const char* gateNames[4] = {"input", "forget", "cell", "output"};
  for (int g = 0; g < 4; ++g) {
    inputs[1 + g] = b.constant(std::string("input_to_") + gateNames[g], c.weights, {S, I},
                               w.input[g], c.inputWeightsQ);
    inputs[5 + g] = b.constant(std::string("recurrent_to_") + gateNames[g], c.weights, {S, S},
                               w.recurrent[g], c.recurrentWeightsQ);
    inputs[12 + g] = b.constant(std::string(gateNames[g]) + "_bias", c.bias, {S}, w.bias[g]);
  }
  inputs[18] = b.tensor("output_state", c.activations, {B_, S}, c.hiddenQ);
  inputs[19] = b.tensor("cell_state", c.cell, {B_, S}, c.cellQ);
  const ir::Shape outputShape = c.attrs.timeMajor ? ir::Shape{T, B_, S} : ir::Shape{B_, T, S};
  const int out = b.tensor("output", c.activations, outputShape, c.hiddenQ);
  b.op(ir::OpType::UnidirectionalSequenceLstm, inputs, {out}, c.attrs);
  LstmGraph result{b.inputs({inputs[0]}).outputs({out}).build(), inputs[18], inputs[19]};
  result.graph.tensor(result.hidden).isVariable = true;
  result.graph.tensor(result.cell).isVariable = true;
  return result;
}

template <typename T>
std::vector<T> scaled(const std::vector<float>& v, float divisor) {
  std::vector<T> r;
  for (float x : v) r.push_back(static_cast<T>(x / divisor));
  return r;
}

// The float case: integers read as reals (weights / 64, recurrent / 32,
// biases / 4096, inputs / 64); batch-major [2, 3, 3], state 2.
LstmWeights<float, float> floatWeights() {
  LstmWeights<float, float> w;
  const std::array<std::vector<float>, 4> in{{{-91, -27, 55, 14, -54, -90},
                                              {-14, 71, -48, 0, 84, -69},
                                              {63, -57, 39, -30, -27, -55},
                                              {-94, -96, -40, -61, 3, -79}}};
  const std::array<std::vector<float>, 4> rec{
      {{-80, 55, -28, 58}, {46, 47, -78, -51}, {-25, 39, 18, 80}, {42, 52, 74, 44}}};
  const std::array<std::vector<float>, 4> bias{
      {{2427, -1010}, {-487, -2127}, {-700, 1599}, {-1177, 1236}}};
  for (int g = 0; g < 4; ++g) {
    w.input[g] = scaled<float>(in[g], 64);
    w.recurrent[g] = scaled<float>(rec[g], 32);
    w.bias[g] = scaled<float>(bias[g], 4096);
  }
  return w;
}

const std::vector<float> kFloatInput = scaled<float>(
    {-98, 127, 76, -107, -86, -101, 56, 17, 118, 119, -28, 77, 2, 19, 80, 73, 78, 111}, 64);

void compareNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  QCOMPARE(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    QVERIFY2(
        std::abs(actual[i] - expected[i]) <= 1e-5f,
        qPrintable(QString("element %1: %2, expected %3").arg(i).arg(actual[i]).arg(expected[i])));
  }
}

// The int8 case: input scale 1/64 zero point 3, output_state scale 1/128 zero
// point -2, cell state 2^-11, input weights 1/64, recurrent weights 1/32.
LstmConfig int8Config() {
  LstmConfig c;
  c.activations = ir::DType::Int8;
  c.weights = ir::DType::Int8;
  c.bias = ir::DType::Int32;
  c.cell = ir::DType::Int16;
  c.inputQ = test::perTensor(1.0f / 64, 3);
  c.hiddenQ = test::perTensor(1.0f / 128, -2);
  c.cellQ = test::perTensor(1.0f / 2048, 0);
  c.inputWeightsQ = test::perTensor(1.0f / 64, 0);
  c.recurrentWeightsQ = test::perTensor(1.0f / 32, 0);
  return c;
}

LstmWeights<std::int8_t, std::int32_t> int8Weights() {
  LstmWeights<std::int8_t, std::int32_t> w;
  w.input = {{{42, 40, -54, -41, -2, -35},
              {81, 98, -20, -95, -4, -42},
              {-39, -9, -43, -89, 49, -95},
              {20, 76, -51, 37, 32, 90}}};
  w.recurrent = {{{-57, 40, 96, -88}, {93, -21, 46, 6}, {66, 55, 24, 89}, {55, -68, -49, 73}}};
  w.bias = {{{2298, 1904}, {-2965, -2487}, {2761, 103}, {-779, -1448}}};
  return w;
}

const std::vector<std::int8_t> kInt8Input{14, 47,  60,  -59, 26,  75, 40,  65,  -26,
                                          39, -44, 125, 114, -61, 64, 121, -66, 31};

}  // namespace

class SequenceLstmTest : public QObject {
  Q_OBJECT

 private slots:
  void floatBatchMajorMatchesTheTranscription() {
    LstmConfig c;
    auto g = lstmGraph(c, floatWeights());
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, bytesOf(kFloatInput));
    interpreter.invoke();
    compareNear(
        valuesOf<float>(interpreter.output(0)),
        {-0.1083432f, -0.00731816f, -0.8430785f, 0.711459f, 0.02844798f, 0.00209267f, 0.01241945f,
         -0.009906226f, 0.05990927f, -0.02276189f, 0.003396204f, -0.003351877f});
    compareNear(valuesOf<float>(interpreter.tensorBytes(g.cell)),
                {0.7642097f, 0.09286851f, 0.4598527f, -0.05647157f});
  }

  void floatCellClipBoundsTheCellState() {
    // With cell_clip 0.5 batch 0's cell (0.76 unclipped) is held at 0.5.
    LstmConfig c;
    c.attrs.cellClip = 0.5f;
    auto g = lstmGraph(c, floatWeights());
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, bytesOf(kFloatInput));
    interpreter.invoke();
    compareNear(
        valuesOf<float>(interpreter.output(0)),
        {-0.06800351f, -0.00731816f, -0.4592293f, 0.4499803f, 0.02202488f, -0.001404509f,
         0.01241945f, -0.009906226f, 0.05990927f, -0.02276189f, 0.003396204f, -0.003351877f});
    compareNear(valuesOf<float>(interpreter.tensorBytes(g.cell)),
                {0.5f, -0.0372446f, 0.4598527f, -0.05647157f});
  }

  void timeMajorComputesTheSameSequences() {
    // The same two sequences laid out [time, batch, input] give the same
    // per-sequence outputs, bit for bit (each row is computed alone).
    LstmConfig batchMajor;
    auto a = lstmGraph(batchMajor, floatWeights());
    LstmConfig timeMajor;
    timeMajor.attrs.timeMajor = true;
    auto b = lstmGraph(timeMajor, floatWeights());
    std::vector<float> transposed;
    for (int t = 0; t < 3; ++t)
      for (int batch = 0; batch < 2; ++batch)
        for (int i = 0; i < 3; ++i) transposed.push_back(kFloatInput[(batch * 3 + t) * 3 + i]);
    reference::ReferenceInterpreter ia(a.graph), ib(b.graph);
    ia.setInput(0, bytesOf(kFloatInput));
    ia.invoke();
    ib.setInput(0, bytesOf(transposed));
    ib.invoke();
    const auto outA = valuesOf<float>(ia.output(0));
    const auto outB = valuesOf<float>(ib.output(0));
    for (int t = 0; t < 3; ++t)
      for (int batch = 0; batch < 2; ++batch)
        for (int s = 0; s < 2; ++s)
          QCOMPARE(outB[(t * 2 + batch) * 2 + s], outA[(batch * 3 + t) * 2 + s]);
    QCOMPARE(valuesOf<float>(ib.tensorBytes(b.cell)), valuesOf<float>(ia.tensorBytes(a.cell)));
  }

  void stateCarriesOverToTheNextInvocation() {
    // Running the three steps as one invocation of three steps, or as a
    // second invocation after the state of the first, differs: the second
    // invocation starts from the first's final state.
    LstmConfig c;
    auto g = lstmGraph(c, floatWeights());
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, bytesOf(kFloatInput));
    interpreter.invoke();
    const auto first = valuesOf<float>(interpreter.output(0));
    const auto hiddenAfterFirst = valuesOf<float>(interpreter.tensorBytes(g.hidden));
    QCOMPARE(hiddenAfterFirst, (std::vector<float>{first[4], first[5], first[10], first[11]}));
    interpreter.invoke();
    QVERIFY(valuesOf<float>(interpreter.output(0)) != first);
  }

  void int8MatchesTheTranscriptionBitForBit() {
    auto g = lstmGraph(int8Config(), int8Weights());
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, bytesOf(kInt8Input));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)),
             (std::vector<std::int8_t>{-7, -36, -4, -45, -16, -15, -4, -34, -17, -36, -26, -29}));
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(g.hidden)),
             (std::vector<std::int8_t>{-16, -15, -26, -29}));
    QCOMPARE(valuesOf<std::int16_t>(interpreter.tensorBytes(g.cell)),
             (std::vector<std::int16_t>{-257, -760, -1569, -771}));
  }

  void int8HiddenStateStartsAtItsZeroPoint() {
    // TFLite Micro resets int8 variable tensors to their zero point, so the
    // first step sees a hidden state of real 0.
    auto g = lstmGraph(int8Config(), int8Weights());
    reference::ReferenceInterpreter interpreter(g.graph);
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(g.hidden)),
             (std::vector<std::int8_t>{-2, -2, -2, -2}));
  }

  void int16TimeMajorWithCellClipMatchesTheTranscription() {
    // Input scale 2^-12, output_state 2^-13 (zero points 0), cell 2^-11,
    // weights 1/128 and 1/64, int64 biases; cell_clip 0.4 is 819 in the
    // cell's units and clips batch 0's first cell value (1048 unclipped).
    LstmConfig c;
    c.activations = ir::DType::Int16;
    c.weights = ir::DType::Int8;
    c.bias = ir::DType::Int64;
    c.cell = ir::DType::Int16;
    c.inputQ = test::perTensor(1.0f / 4096, 0);
    c.hiddenQ = test::perTensor(1.0f / 8192, 0);
    c.cellQ = test::perTensor(1.0f / 2048, 0);
    c.inputWeightsQ = test::perTensor(1.0f / 128, 0);
    c.recurrentWeightsQ = test::perTensor(1.0f / 64, 0);
    c.batches = 2;
    c.timeSteps = 2;
    c.inputSize = 2;
    c.stateSize = 3;
    c.attrs.timeMajor = true;
    c.attrs.cellClip = 0.4f;
    LstmWeights<std::int8_t, std::int64_t> w;
    w.input = {{{4, -35, 23, -27, 3, -65},
                {-38, 81, 81, -10, 68, 12},
                {-50, 60, 67, -36, 55, -24},
                {37, -29, -90, 46, 10, -50}}};
    w.recurrent = {{{36, -29, 33, -41, 22, -68, -76, 55, -27},
                    {66, -55, -65, -76, -54, -76, -42, -89, 68},
                    {-94, -39, 52, 22, -32, -18, 15, 21, 63},
                    {52, 88, -32, -9, 10, -90, -33, -85, -35}}};
    w.bias = {
        {{-1023, -864, -547}, {-1958, -2509, -483}, {2621, 2625, -2975}, {895, -2996, -2433}}};
    auto g = lstmGraph(c, w);
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int16_t>{-10893, 13271, 5825, -5474, -5637,
                                                              1660, -9108, -15853}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int16_t>(interpreter.output(0)),
             (std::vector<std::int16_t>{396, -1791, -218, -2090, 574, 2029, 1008, -1876, -1207,
                                        -1239, -209, 421}));
    QCOMPARE(valuesOf<std::int16_t>(interpreter.tensorBytes(g.cell)),
             (std::vector<std::int16_t>{819, -645, -619, -639, -112, 136}));
  }

  void int8AgreesWithFloatWithinOneStep() {
    // The float case's weights and inputs are exact int8 values at scales
    // 1/64 (input, input weights) and 1/32 (recurrent), biases exact at
    // 1/4096: the int8 LSTM's outputs stay within one step (1/128) of float.
    LstmConfig q = int8Config();
    q.inputQ = test::perTensor(1.0f / 64, 0);
    const auto fw = floatWeights();
    LstmWeights<std::int8_t, std::int32_t> w;
    for (int g = 0; g < 4; ++g) {
      for (float v : fw.input[g])
        w.input[g].push_back(static_cast<std::int8_t>(std::lround(v * 64)));
      for (float v : fw.recurrent[g])
        w.recurrent[g].push_back(static_cast<std::int8_t>(std::lround(v * 32)));
      for (float v : fw.bias[g])
        w.bias[g].push_back(static_cast<std::int32_t>(std::lround(v * 4096)));
    }
    std::vector<std::int8_t> input;
    for (float v : kFloatInput) input.push_back(static_cast<std::int8_t>(std::lround(v * 64)));
    auto qg = lstmGraph(q, w);
    auto fg = lstmGraph(LstmConfig{}, fw);
    reference::ReferenceInterpreter qi(qg.graph), fi(fg.graph);
    qi.setInput(0, bytesOf(input));
    qi.invoke();
    fi.setInput(0, bytesOf(kFloatInput));
    fi.invoke();
    const auto qo = valuesOf<std::int8_t>(qi.output(0));
    const auto fo = valuesOf<float>(fi.output(0));
    for (std::size_t i = 0; i < fo.size(); ++i) {
      const float dequantised = (qo[i] + 2) / 128.0f;
      QVERIFY2(
          std::abs(dequantised - fo[i]) <= 1.0f / 128,
          qPrintable(QString("element %1: float %2, int8 %3").arg(i).arg(fo[i]).arg(dequantised)));
    }
  }

  void refusesVariantsTfliteMicroDoesNotEvaluate() {
    {
      auto g = lstmGraph(LstmConfig{}, floatWeights());
      auto& op = g.graph.operators[0];
      op.inputs[10] = op.inputs[13];  // a "peephole" weight in slot 10
      const auto message = test::checkMessage(g.graph);
      QVERIFY2(
          message.find("cell_to_forget_weights is present: peephole LSTMs are not supported") !=
              std::string::npos,
          message.c_str());
    }
    {
      auto g = lstmGraph(LstmConfig{}, floatWeights());
      g.graph.operators[0].inputs[1] = -1;
      const auto message = test::checkMessage(g.graph);
      QVERIFY2(message.find("CIFG LSTMs are not supported") != std::string::npos, message.c_str());
    }
    {
      auto g = lstmGraph(LstmConfig{}, floatWeights());
      g.graph.operators[0].inputs[16] = g.graph.operators[0].inputs[5];
      const auto message = test::checkMessage(g.graph);
      QVERIFY2(message.find("projection LSTMs are not supported") != std::string::npos,
               message.c_str());
    }
    {
      auto g = lstmGraph(LstmConfig{}, floatWeights());
      g.graph.operators[0].inputs[21] = g.graph.operators[0].inputs[13];
      const auto message = test::checkMessage(g.graph);
      QVERIFY2(message.find("layer-norm LSTMs are not supported") != std::string::npos,
               message.c_str());
    }
    {
      auto g = lstmGraph(LstmConfig{}, floatWeights());
      g.graph.tensor(g.cell).isVariable = false;
      const auto message = test::checkMessage(g.graph);
      QVERIFY2(
          message.find("cell_state 'cell_state' is not a variable tensor") != std::string::npos,
          message.c_str());
    }
    {
      LstmConfig c = int8Config();
      c.bias = ir::DType::Int64;
      LstmWeights<std::int8_t, std::int64_t> w;
      const auto w8 = int8Weights();
      w.input = w8.input;
      w.recurrent = w8.recurrent;
      for (int g = 0; g < 4; ++g) w.bias[g] = {w8.bias[g][0], w8.bias[g][1]};
      const auto message = test::checkMessage(lstmGraph(c, w).graph);
      QVERIFY2(message.find("input_gate_bias 'input_bias' has dtype int64 (expected int32)") !=
                   std::string::npos,
               message.c_str());
    }
    {
      LstmConfig c;
      c.attrs.activation = ir::Activation::Relu;
      const auto message = test::checkMessage(lstmGraph(c, floatWeights()).graph);
      QVERIFY2(message.find("cell activation RELU is not supported (expected TANH)") !=
                   std::string::npos,
               message.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(SequenceLstmTest)

}  // namespace sequence_lstm_test

#include "sequence_lstm_test.moc"
