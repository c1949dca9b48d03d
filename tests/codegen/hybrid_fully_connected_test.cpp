// Hybrid FULLY_CONNECTED (float32 activations, int8 weights), which TFLite
// runs and TFLite Micro refuses, in models written with the schema's object
// API: TFLite's own kernel-test case (weights 1..10 quantised with scale
// 10/127, two batches; TFLite expects {24, 25, 26, 58, 59, 60} within 1.3,
// what its on-the-fly input quantisation costs) with symmetric and asymmetric
// input quantisation, an all-zero input (the bias exactly), and the clamping
// activations. The exact values are those of TFLite's portable kernel worked
// through in float32 (hybrid_fully_connected_model.h). Generated C must give
// the reference's bytes.
#include <QtTest>

#include <cmath>

#include "codegen_checks.h"
#include "hybrid_fully_connected_model.h"
#include "reference/reference_interpreter.h"

using namespace loupe;

namespace {

using namespace test::hybrid;
using test::bytesOf;
using test::valuesOf;

// The reference's output, after checking the generated C gives its bytes.
std::vector<float> run(const ir::Graph& graph, const std::vector<float>& input) {
  const std::vector<test::Bytes> inputs = {bytesOf(input)};
  const auto reference = test::runReference(graph, inputs);
  const auto generated = test::runGeneratedC(graph, inputs);
  if (generated != reference) return {};
  return valuesOf<float>(reference.at(0));
}

bool near(const std::vector<float>& actual, const std::vector<float>& expected, float error) {
  if (actual.size() != expected.size()) return false;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (std::fabs(actual[i] - expected[i]) > error) return false;
  }
  return true;
}

QByteArray text(const std::vector<float>& values) {
  QByteArray out;
  for (float v : values) out += QByteArray::number(v, 'g', 9) + ' ';
  return out;
}

}  // namespace

class HybridFullyConnectedTest : public QObject {
  Q_OBJECT

 private slots:
  void symmetricInputsMatchTflite() {
    const auto out = run(hybridModel({}), kInput);
    QVERIFY2(near(out, kExpected, 1.3f), text(out).constData());
    QCOMPARE(out, kSymmetricOutput);
  }

  // TFLite's asymmetric test allows 0.64.
  void asymmetricInputsMatchTflite() {
    HybridCase c;
    c.asymmetric = true;
    const auto out = run(hybridModel(c), kInput);
    QVERIFY2(near(out, kExpected, 0.64f), text(out).constData());
    QCOMPARE(out, kAsymmetricOutput);
  }

  // TFLite skips the product for an input of zeros: the output is the bias.
  void aZeroInputGivesTheBias() {
    for (bool asymmetric : {false, true}) {
      HybridCase c;
      c.asymmetric = asymmetric;
      const auto out = run(hybridModel(c), std::vector<float>(20, 0.0f));
      QCOMPARE(out, (std::vector<float>{1, 2, 3, 1, 2, 3}));
    }
  }

  void theActivationClampsLast() {
    HybridCase c;
    c.activation = tflite::ActivationFunctionType::RELU6;
    c.bias = {-30, 2, -60};
    const auto out = run(hybridModel(c), kInput);
    QCOMPARE(out.size(), std::size_t{6});
    QCOMPARE(out[0], 0.0f);  // 24 - 31 < 0
    QCOMPARE(out[1], 6.0f);
    QCOMPARE(out[3], 6.0f);  // 58 - 31 > 6
    QCOMPARE(out[5], 0.0f);  // 60 - 63 < 0
  }

  void perChannelWeightsAreRefusedWithTheReason() {
    HybridCase c;
    c.perChannelScales = {0.1f, 0.2f, 0.3f};
    const auto problems = reference::findUnsupportedOperators(hybridModel(c));
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].reason.find("per-channel hybrid weights are not supported") !=
                 std::string::npos,
             problems[0].reason.c_str());
  }
};

QTEST_APPLESS_MAIN(HybridFullyConnectedTest)
#include "hybrid_fully_connected_test.moc"
