// Quantised SVDF on drawn cases against TFLite Micro's arithmetic, written
// here a second time from its kernel (svdf_common.cc's PrepareSvdf and
// EvalIntegerSvdfReference, TFLM commit 90b983c) and independently of
// Loupe's kernels: int8 input and feature weights with int16 or int8 time
// weights and state, ranks 1 to 3, memories of 1 to 8, one or two batches,
// several invocations in a row (the state shifts one element left over the
// whole buffer each time), scale ratios that saturate the state and the
// output, state and output zero points. The state starts as TFLM's
// ResetVariableTensors leaves it (int8: its zero point; int16: 0). The
// oracle's bytes were cross-checked offline against TFLM's own kernel
// compiled outside this repository (LOUPE_SVDF_CASES_DUMP=FILE writes the
// cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace svdf_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct SvdfCase {
  bool int8State = false;
  int batches = 1, inputSize = 1, rank = 1, units = 1, memory = 1, runs = 1;
  float inScale = 1, featureScale = 1, stateScale = 1, timeScale = 1, outScale = 1;
  std::int32_t inZero = 0, stateZero = 0, outZero = 0;
  std::vector<std::int32_t> feature, time, bias;
  std::vector<std::vector<std::int32_t>> inputs;  // one per run

  int filters() const { return units * rank; }
};

std::vector<std::vector<std::int32_t>> tfliteMicro(const SvdfCase& c) {
  std::int32_t m1, m2;
  int s1, s2;
  // PrepareSvdf: float products and quotients, widened.
  tflm::quantizeMultiplier(static_cast<double>(c.inScale * c.featureScale / c.stateScale), m1, s1);
  tflm::quantizeMultiplier(static_cast<double>(c.stateScale * c.timeScale / c.outScale), m2, s2);
  const int filters = c.filters();
  const std::int32_t stateMin = c.int8State ? -128 : -32768;
  const std::int32_t stateMax = c.int8State ? 127 : 32767;
  auto narrow = [&c](std::int32_t v) {
    return c.int8State ? std::int32_t{static_cast<std::int8_t>(v)}
                       : std::int32_t{static_cast<std::int16_t>(v)};
  };
  std::vector<std::int32_t> state(static_cast<std::size_t>(c.batches * filters * c.memory),
                                  c.int8State ? c.stateZero : 0);
  std::vector<std::vector<std::int32_t>> outputs;
  for (const auto& input : c.inputs) {
    // The whole buffer moves one element left.
    std::rotate(state.begin(), state.begin() + 1, state.end());
    // The feature projection into each filter's newest column, clamped to
    // the state type before the zero point is added.
    for (int b = 0; b < c.batches; ++b) {
      for (int f = 0; f < filters; ++f) {
        std::int32_t dot = 0;
        for (int i = 0; i < c.inputSize; ++i) {
          dot += c.feature[f * c.inputSize + i] * (input[b * c.inputSize + i] - c.inZero);
        }
        dot = std::clamp(tflm::multiplyByQuantizedMultiplier(dot, m1, s1), stateMin, stateMax);
        state[static_cast<std::size_t>((b * filters + f) * c.memory + c.memory - 1)] =
            narrow(c.stateZero + dot);
      }
    }
    // Time weights against the state, summed over memory and rank, bias.
    std::vector<std::int32_t> out;
    for (int b = 0; b < c.batches; ++b) {
      std::vector<std::int32_t> scratch(static_cast<std::size_t>(filters), 0);
      for (int f = 0; f < filters; ++f) {
        for (int j = 0; j < c.memory; ++j) {
          scratch[f] +=
              c.time[f * c.memory + j] *
              (state[static_cast<std::size_t>((b * filters + f) * c.memory + j)] - c.stateZero);
        }
      }
      for (int u = 0; u < c.units; ++u) {
        std::int32_t acc = c.bias[u];
        for (int k = 0; k < c.rank; ++k) acc += scratch[u * c.rank + k];
        out.push_back(
            std::clamp(tflm::multiplyByQuantizedMultiplier(acc, m2, s2) + c.outZero, -128, 127));
      }
    }
    outputs.push_back(out);
  }
  return outputs;
}

SvdfCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  SvdfCase c;
  c.int8State = uniform(0, 2) == 0;
  c.batches = uniform(1, 2);
  c.inputSize = uniform(1, 16);
  c.rank = uniform(1, 3);
  c.units = uniform(1, 6);
  c.memory = uniform(1, 8);
  c.runs = uniform(1, 5);
  c.inScale = tflm::drawScale(random, -8, -4);
  c.featureScale = tflm::drawScale(random, -9, -5);
  // The state's scale a little below or above the projections' spread.
  c.stateScale =
      c.inScale * c.featureScale * 64.0f * static_cast<float>(c.inputSize) *
      std::pow(2.0f,
               static_cast<float>(uniform(c.int8State ? 0 : -9000, c.int8State ? 8000 : -1000)) /
                   1000.0f);
  c.timeScale = tflm::drawScale(random, -9, -5);
  c.outScale = c.stateScale * c.timeScale * (c.int8State ? 64.0f : 16384.0f) *
               static_cast<float>(c.memory * c.rank) *
               std::pow(2.0f, static_cast<float>(uniform(-5000, 2000)) / 1000.0f);
  c.inZero = uniform(-128, 127);
  c.outZero = uniform(-128, 127);
  if (c.int8State) c.stateZero = uniform(-20, 20);
  const int filters = c.filters();
  const int timeLimit = c.int8State ? 127 : 32767;
  for (int i = 0; i < filters * c.inputSize; ++i) c.feature.push_back(uniform(-127, 127));
  for (int i = 0; i < filters * c.memory; ++i) c.time.push_back(uniform(-timeLimit, timeLimit));
  const int biasSpread = c.int8State ? 3000 : 300000;
  for (int u = 0; u < c.units; ++u) c.bias.push_back(uniform(-biasSpread, biasSpread));
  for (int r = 0; r < c.runs; ++r) {
    std::vector<std::int32_t> input;
    for (int i = 0; i < c.batches * c.inputSize; ++i) input.push_back(uniform(-128, 127));
    c.inputs.push_back(input);
  }
  return c;
}

std::vector<std::vector<std::int32_t>> runLoupe(const SvdfCase& c) {
  const ir::DType stateType = c.int8State ? ir::DType::Int8 : ir::DType::Int16;
  test::GraphBuilder b;
  const int filters = c.filters();
  const int in = b.tensor("in", ir::DType::Int8, {c.batches, c.inputSize},
                          test::perTensor(c.inScale, c.inZero));
  const int wf = b.constant("weights_feature", ir::DType::Int8, {filters, c.inputSize},
                            std::vector<std::int8_t>(c.feature.begin(), c.feature.end()),
                            test::perTensor(c.featureScale, 0));
  int wt;
  if (c.int8State) {
    wt = b.constant("weights_time", stateType, {filters, c.memory},
                    std::vector<std::int8_t>(c.time.begin(), c.time.end()),
                    test::perTensor(c.timeScale, 0));
  } else {
    wt = b.constant("weights_time", stateType, {filters, c.memory},
                    std::vector<std::int16_t>(c.time.begin(), c.time.end()),
                    test::perTensor(c.timeScale, 0));
  }
  const int bias = b.constant("bias", ir::DType::Int32, {c.units}, c.bias,
                              test::perTensor(c.stateScale * c.timeScale, 0));
  const int state = b.tensor("state", stateType, {c.batches, c.memory * filters},
                             test::perTensor(c.stateScale, c.stateZero));
  const int out = b.tensor("out", ir::DType::Int8, {c.batches, c.units},
                           test::perTensor(c.outScale, c.outZero));
  b.op(ir::OpType::Svdf, {in, wf, wt, bias, state}, {out}, ir::SvdfAttrs{c.rank});
  ir::Graph graph = b.inputs({in}).outputs({out}).build();
  graph.tensor(state).isVariable = true;
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  reference::ReferenceInterpreter interpreter(graph);
  std::vector<std::vector<std::int32_t>> outputs;
  for (const auto& input : c.inputs) {
    interpreter.setInput(0, test::bytesOf(std::vector<std::int8_t>(input.begin(), input.end())));
    interpreter.invoke();
    const auto values = test::valuesOf<std::int8_t>(interpreter.output(0));
    outputs.emplace_back(values.begin(), values.end());
  }
  return outputs;
}

}  // namespace

class SvdfProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(42);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_SVDF_CASES_DUMP")) dump.open(file);
    int int8State = 0, ranked = 0, repeated = 0, clamped = 0;
    constexpr int kCases = 1000;
    for (int n = 0; n < kCases; ++n) {
      const SvdfCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << "svdf " << (c.int8State ? 8 : 16) << ' ' << c.batches << ' ' << c.inputSize << ' '
             << c.rank << ' ' << c.units << ' ' << c.memory << ' ' << c.inScale << ' ' << c.inZero
             << ' ' << c.featureScale << ' ' << c.stateScale << ' ' << c.stateZero << ' '
             << c.timeScale << ' ' << c.outScale << ' ' << c.outZero << ' ';
        tflm::dumpValues(dump, c.feature);
        dump << ' ';
        tflm::dumpValues(dump, c.time);
        dump << ' ';
        tflm::dumpValues(dump, c.bias);
        dump << ' ' << c.inputs.size();
        for (const auto& input : c.inputs) {
          dump << ' ';
          tflm::dumpValues(dump, input);
        }
        dump << '\n';
        for (const auto& out : expected) {
          tflm::dumpValues(dump, out);
          dump << ' ';
        }
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(
            QString("case %1 (one output per run): %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      int8State += c.int8State;
      ranked += c.rank > 1;
      repeated += c.runs > c.memory;
      bool saturated = false;
      for (const auto& out : expected) {
        saturated |=
            std::count(out.begin(), out.end(), -128) + std::count(out.begin(), out.end(), 127) > 0;
      }
      clamped += saturated;
    }
    qInfo("int8 state %d, rank > 1 %d, more runs than memory %d, saturated outputs %d", int8State,
          ranked, repeated, clamped);
    // The draw reaches the branches it is meant to.
    QVERIFY(int8State > 250 && ranked > 500 && repeated > 150 && clamped > 200);
  }
};

LOUPE_TEST_APPLESS_MAIN(SvdfProperty)

}  // namespace svdf_property_test

#include "svdf_property_test.moc"
