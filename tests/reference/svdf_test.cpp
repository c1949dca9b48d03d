// SVDF: feature projection into a variable state that shifts by one element
// per invocation, then time weights, rank reduction and bias, as TFLite
// Micro's reference computes them.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace svdf_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

namespace {

// Two filters over a two-element input, memory 2, rank 1 (two units):
//   weights_feature = [[1, 2], [3, -1]], weights_time = [[1, 10], [2, 20]]
// where each time row is (older, newer). With bias {1, -1}:
//   step 1, input (1, 1): features 3 and 2; state f0 = (0, 3), f1 = (0, 2);
//     outputs 10*3 + 1 = 31 and 20*2 - 1 = 39.
//   step 2, input (2, -1): features 0 and 7; the state buffer (0,3,0,2)
//     shifts to (3,0,2,2) and the newest columns become 0 and 7: f0 = (3, 0),
//     f1 = (2, 7); outputs 1*3 + 1 = 4 and 2*2 + 20*7 - 1 = 143.
const std::vector<float> kFeature{1, 2, 3, -1};
const std::vector<float> kTime{1, 10, 2, 20};

struct SvdfCase {
  ir::DType inputType = ir::DType::Float32;
  ir::DType timeType = ir::DType::Float32;
  ir::DType biasType = ir::DType::Float32;
  ir::Quantization inputQ, featureQ, timeQ, biasQ, stateQ, outputQ;
  int batches = 1, inputSize = 2, filters = 2, memory = 2, rank = 1;
  ir::Activation activation = ir::Activation::None;
  bool withBias = true;
  bool stateIsVariable = true;
};

template <typename F, typename T, typename B>
ir::Graph svdfGraph(const SvdfCase& c, const std::vector<F>& feature, const std::vector<T>& time,
                    const std::vector<B>& bias) {
  GraphBuilder b;
  const int units = c.filters / c.rank;
  const int in = b.tensor("in", c.inputType, {c.batches, c.inputSize}, c.inputQ);
  const ir::DType featureType =
      c.inputType == ir::DType::Float32 ? ir::DType::Float32 : ir::DType::Int8;
  const int wf =
      b.constant("weights_feature", featureType, {c.filters, c.inputSize}, feature, c.featureQ);
  const int wt = b.constant("weights_time", c.timeType, {c.filters, c.memory}, time, c.timeQ);
  const int bi = c.withBias ? b.constant("bias", c.biasType, {units}, bias, c.biasQ) : -1;
  const int state = b.tensor("state", c.timeType, {c.batches, c.memory * c.filters}, c.stateQ);
  const int out =
      b.tensor("out", c.inputType == ir::DType::Float32 ? ir::DType::Float32 : ir::DType::Int8,
               {c.batches, units}, c.outputQ);
  b.op(ir::OpType::Svdf, {in, wf, wt, bi, state}, {out}, ir::SvdfAttrs{c.rank, c.activation});
  auto graph = b.inputs({in}).outputs({out}).build();
  graph.tensor(state).isVariable = c.stateIsVariable;
  return graph;
}

ir::Quantization unit(std::int64_t zeroPoint = 0) {
  return test::perTensor(1.0f, zeroPoint);
}

// The int8 case of the hand-computed example: every scale is 1, so both
// multipliers are exactly 1; input zero point 1 and output zero point -3.
SvdfCase unitScaleIntegerCase(ir::DType stateType, std::int64_t stateZeroPoint) {
  SvdfCase c;
  c.inputType = ir::DType::Int8;
  c.timeType = stateType;
  c.biasType = ir::DType::Int32;
  c.inputQ = unit(1);
  c.featureQ = unit();
  c.timeQ = unit();
  c.biasQ = unit();
  c.stateQ = unit(stateZeroPoint);
  c.outputQ = unit(-3);
  return c;
}

template <typename T>
std::vector<T> toInts(const std::vector<float>& values) {
  return std::vector<T>(values.begin(), values.end());
}

}  // namespace

class SvdfTest : public QObject {
  Q_OBJECT

 private slots:
  void floatStateShiftsAcrossTwoInvocations() {
    SvdfCase c;
    const auto graph = svdfGraph(c, kFeature, kTime, std::vector<float>{1, -1});
    const int state = graph.operators[0].inputs[4];
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<float>{1, 1}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{31, 39}));
    QCOMPARE(valuesOf<float>(interpreter.tensorBytes(state)), (std::vector<float>{0, 3, 0, 2}));
    interpreter.setInput(0, bytesOf(std::vector<float>{2, -1}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{4, 143}));
    QCOMPARE(valuesOf<float>(interpreter.tensorBytes(state)), (std::vector<float>{3, 0, 2, 7}));
  }

  void stateDataInTheModelIsIgnored() {
    // A variable tensor with a buffer in the model: TFLite Micro gives it
    // fresh memory and resets it, so the hand example's outputs do not change.
    SvdfCase c;
    auto graph = svdfGraph(c, kFeature, kTime, std::vector<float>{1, -1});
    ir::Tensor& state = graph.tensor(graph.operators[0].inputs[4]);
    state.isConstant = true;
    state.data = bytesOf(std::vector<float>{5, 6, 7, 8});
    reference::ReferenceInterpreter interpreter(graph);
    QCOMPARE(valuesOf<float>(interpreter.tensorBytes(state.index)),
             (std::vector<float>{0, 0, 0, 0}));
    interpreter.setInput(0, bytesOf(std::vector<float>{1, 1}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{31, 39}));
    QCOMPARE(valuesOf<float>(interpreter.tensorBytes(state.index)),
             (std::vector<float>{0, 3, 0, 2}));
  }

  void floatRankTwoSumsFiltersAndAppliesActivation() {
    // Rank 2: both filters feed one unit. Step 1 gives 30 + 40 - 100 = -30,
    // which RELU turns into 0; without bias (and without RELU) it is 70.
    SvdfCase c;
    c.rank = 2;
    c.activation = ir::Activation::Relu;
    {
      const auto graph = svdfGraph(c, kFeature, kTime, std::vector<float>{-100});
      reference::ReferenceInterpreter interpreter(graph);
      interpreter.setInput(0, bytesOf(std::vector<float>{1, 1}));
      interpreter.invoke();
      QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{0}));
    }
    c.activation = ir::Activation::None;
    c.withBias = false;
    {
      const auto graph = svdfGraph(c, kFeature, kTime, std::vector<float>{});
      reference::ReferenceInterpreter interpreter(graph);
      interpreter.setInput(0, bytesOf(std::vector<float>{1, 1}));
      interpreter.invoke();
      QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{70}));
    }
  }

  void floatBatchesKeepSeparateStates() {
    // Two batches: batch 1 sees the inputs of the hand example, batch 0 sees
    // their negation, so its features and outputs (before bias) negate.
    SvdfCase c;
    c.batches = 2;
    const auto graph = svdfGraph(c, kFeature, kTime, std::vector<float>{1, -1});
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<float>{-1, -1, 1, 1}));
    interpreter.invoke();
    interpreter.setInput(0, bytesOf(std::vector<float>{-2, 1, 2, -1}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{-2, -145, 4, 143}));
  }

  void int8WithInt16StateMatchesTheHandExample() {
    // q_out = real + (-3); 143 - 3 = 140 saturates to 127.
    const auto c = unitScaleIntegerCase(ir::DType::Int16, 0);
    const auto graph = svdfGraph(c, toInts<std::int8_t>(kFeature), toInts<std::int16_t>(kTime),
                                 std::vector<std::int32_t>{1, -1});
    const int state = graph.operators[0].inputs[4];
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{2, 2}));  // real (1, 1)
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{28, 36}));
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{3, 0}));  // real (2, -1)
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{1, 127}));
    QCOMPARE(valuesOf<std::int16_t>(interpreter.tensorBytes(state)),
             (std::vector<std::int16_t>{3, 0, 2, 7}));
  }

  void int8StateStartsAtItsZeroPointAndStoresOffsets() {
    // State zero point 2: the state starts filled with 2 (real 0, as TFLite
    // Micro resets int8 variables) and stores 2 + feature.
    const auto c = unitScaleIntegerCase(ir::DType::Int8, 2);
    const auto graph = svdfGraph(c, toInts<std::int8_t>(kFeature), toInts<std::int8_t>(kTime),
                                 std::vector<std::int32_t>{1, -1});
    const int state = graph.operators[0].inputs[4];
    reference::ReferenceInterpreter interpreter(graph);
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(state)),
             (std::vector<std::int8_t>{2, 2, 2, 2}));
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{2, 2}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{28, 36}));
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(state)),
             (std::vector<std::int8_t>{2, 5, 2, 4}));
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{3, 0}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{1, 127}));
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(state)),
             (std::vector<std::int8_t>{5, 2, 4, 9}));
  }

  void int8StateSaturatesBeforeTheTimeWeights() {
    // One filter, one input, memory 1: feature 100 * 3 = 300 saturates to
    // 127 in the int8 state. Output scale 4: multiplier 0.25 (2^30, shift
    // -1): 127 -> SRDHM 63.5 -> 64 -> /2 -> 32. Without saturation it would
    // be 75.
    auto c = unitScaleIntegerCase(ir::DType::Int8, 0);
    c.inputQ = unit(0);
    c.outputQ = test::perTensor(4.0f, 0);
    c.inputSize = 1;
    c.filters = 1;
    c.memory = 1;
    const auto graph = svdfGraph(c, std::vector<std::int8_t>{100}, std::vector<std::int8_t>{1},
                                 std::vector<std::int32_t>{0});
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{3}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{32}));
    QCOMPARE(valuesOf<std::int8_t>(interpreter.tensorBytes(graph.operators[0].inputs[4])),
             (std::vector<std::int8_t>{127}));
  }

  void int8AgreesWithFloatWithinOneStep() {
    // Inputs and weights are exact multiples of their scales and the state
    // scale is their product, so the only rounding is the final
    // requantisation: three invocations stay within one output step.
    const float inScale = 1.0f / 64, wScale = 1.0f / 64, outScale = 1.0f / 32;
    const std::vector<float> feature{0.5f,    -0.25f, 0.75f,   0.125f, -0.5f,  0.375f,
                                     -0.625f, 0.25f,  0.0625f, 0.875f, -0.75f, 0.5f};
    const std::vector<float> time{0.25f,   -0.5f,  0.75f, 0.5f,    0.125f, -0.25f,
                                  -0.375f, 0.625f, 0.25f, -0.125f, 0.5f,   0.875f};
    const std::vector<float> bias{0.1875f, -0.3125f};
    const std::vector<std::vector<float>> inputs{
        {0.5f, -0.75f, 0.25f}, {1.0f, 0.125f, -0.5f}, {-0.875f, 0.625f, 0.375f}};
    SvdfCase f;
    f.inputSize = 3;
    f.filters = 4;
    f.memory = 3;
    f.rank = 2;
    const auto floatGraph = svdfGraph(f, feature, time, bias);

    SvdfCase q = f;
    q.inputType = ir::DType::Int8;
    q.timeType = ir::DType::Int16;
    q.biasType = ir::DType::Int32;
    q.inputQ = test::perTensor(inScale, 0);
    q.featureQ = test::perTensor(wScale, 0);
    q.stateQ = test::perTensor(inScale * wScale, 0);
    q.timeQ = test::perTensor(wScale, 0);
    q.biasQ = test::perTensor(inScale * wScale * wScale, 0);
    q.outputQ = test::perTensor(outScale, 0);
    auto quantise = [](const std::vector<float>& v, float scale, auto type) {
      std::vector<decltype(type)> r;
      for (float x : v) r.push_back(static_cast<decltype(type)>(std::lround(x / scale)));
      return r;
    };
    const auto intGraph = svdfGraph(q, quantise(feature, wScale, std::int8_t{}),
                                    quantise(time, wScale, std::int16_t{}),
                                    quantise(bias, inScale * wScale * wScale, std::int32_t{}));
    reference::ReferenceInterpreter floatInterpreter(floatGraph);
    reference::ReferenceInterpreter intInterpreter(intGraph);
    for (const auto& input : inputs) {
      floatInterpreter.setInput(0, bytesOf(input));
      floatInterpreter.invoke();
      intInterpreter.setInput(0, bytesOf(quantise(input, inScale, std::int8_t{})));
      intInterpreter.invoke();
      const auto expected = valuesOf<float>(floatInterpreter.output(0));
      const auto actual = valuesOf<std::int8_t>(intInterpreter.output(0));
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const float dequantised = outScale * actual[i];
        QVERIFY2(
            std::abs(dequantised - expected[i]) <= outScale,
            qPrintable(
                QString("unit %1: float %2, int8 %3").arg(i).arg(expected[i]).arg(dequantised)));
      }
    }
  }

  void refusesUnsupportedCases() {
    auto c = unitScaleIntegerCase(ir::DType::Int16, 0);
    c.withBias = false;
    auto message =
        test::checkMessage(svdfGraph(c, toInts<std::int8_t>(kFeature), toInts<std::int16_t>(kTime),
                                     std::vector<std::int32_t>{}));
    QVERIFY2(message.find("int8 SVDF needs a bias tensor") != std::string::npos, message.c_str());

    c = unitScaleIntegerCase(ir::DType::Int16, 0);
    c.biasQ = test::perTensor(0.5f, 0);
    message =
        test::checkMessage(svdfGraph(c, toInts<std::int8_t>(kFeature), toInts<std::int16_t>(kTime),
                                     std::vector<std::int32_t>{1, -1}));
    QVERIFY2(message.find("bias scale 0.5") != std::string::npos, message.c_str());

    SvdfCase f;
    f.stateIsVariable = false;
    message = test::checkMessage(svdfGraph(f, kFeature, kTime, std::vector<float>{0, 0}));
    QVERIFY2(message.find("state 'state' is not a variable tensor") != std::string::npos,
             message.c_str());

    f = SvdfCase{};
    f.rank = 3;
    message = test::checkMessage(svdfGraph(f, kFeature, kTime, std::vector<float>{0}));
    QVERIFY2(message.find("2 filters, not a multiple of rank 3") != std::string::npos,
             message.c_str());

    c = unitScaleIntegerCase(ir::DType::Int16, 0);
    c.timeType = ir::DType::Int32;
    message =
        test::checkMessage(svdfGraph(c, toInts<std::int8_t>(kFeature), toInts<std::int32_t>(kTime),
                                     std::vector<std::int32_t>{1, -1}));
    QVERIFY2(
        message.find("weights_time has dtype int32 (expected int16 or int8)") != std::string::npos,
        message.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(SvdfTest)

}  // namespace svdf_test

#include "svdf_test.moc"
