// Hybrid SVDF (float32 input and state, int8 weights), which TFLite runs and
// TFLite Micro refuses: TFLite's own kernel-test case (svdf_test.cc's
// BlackBoxTestHybridRank1Int8 and Rank2) over its ten steps, the state
// carried from step to step, with symmetric and asymmetric input
// quantisation. Every step is within TFLite's tolerance of its float goldens
// (0.004285 and 0.007175: the hybrid kernel's largest error there), the last
// step exactly the value of TFLite's kernel worked through in float32
// (tests/support/hybrid_reference.py), and generated C gives the reference's
// bytes at every step.
#include <QtTest>

#include <cmath>

#include "codegen_checks.h"
#include "hybrid_svdf_model.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace hybrid_svdf_test {

using namespace loupe;

namespace {

using namespace test::hybrid_svdf;
using test::bytesOf;
using test::valuesOf;

// Every step's output, after checking the generated C gives the reference's
// bytes at every step.
std::vector<std::vector<float>> runSteps(const ir::Graph& graph) {
  std::vector<test::Invocation> steps;
  for (int s = 0; s < kSteps; ++s) {
    const auto begin = kSvdfInput.begin() + s * kBatches * kInputSize;
    steps.push_back({bytesOf(std::vector<float>(begin, begin + kBatches * kInputSize))});
  }
  const auto reference = test::runReferenceInvocations(graph, steps);
  const auto generated = test::runGeneratedCInvocations(graph, steps);
  if (generated != reference) return {};
  std::vector<std::vector<float>> outputs;
  for (const auto& run : reference) outputs.push_back(valuesOf<float>(run.at(0)));
  return outputs;
}

// The largest difference from the goldens over all steps.
float largestDifference(const std::vector<std::vector<float>>& outputs,
                        const std::vector<float>& golden) {
  float worst = 0.0f;
  for (std::size_t s = 0; s < outputs.size(); ++s) {
    for (std::size_t i = 0; i < outputs[s].size(); ++i) {
      worst = std::max(worst, std::fabs(outputs[s][i] - golden[s * outputs[s].size() + i]));
    }
  }
  return worst;
}

}  // namespace

class HybridSvdfTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesTflite_data() {
    QTest::addColumn<int>("rank");
    QTest::addColumn<bool>("asymmetric");
    QTest::addColumn<std::vector<float>>("lastStep");
    QTest::newRow("rank 1 symmetric")
        << 1 << false
        << std::vector<float>{0.36726999282836914f, -0.5198072791099548f, -0.4576238691806793f,
                              -0.1762089729309082f, 0.17213556170463562f, -0.34542316198349f,
                              0.38375574350357056f, -0.28417396545410156f};
    QTest::newRow("rank 1 asymmetric")
        << 1 << true
        << std::vector<float>{0.36651983857154846f,  -0.5207415223121643f, -0.45820650458335876f,
                              -0.17638565599918365f, 0.1727992296218872f,  -0.34600967168807983f,
                              0.38160330057144165f,  -0.2837604582309723f};
    QTest::newRow("rank 2 symmetric")
        << 2 << false
        << std::vector<float>{-0.5804822444915771f, -0.6460468173027039f, 0.730498194694519f,
                              -0.3457174301147461f, 0.20877327024936676f, -0.2320038229227066f,
                              0.02511153370141983f, -0.3570890426635742f};
    QTest::newRow("rank 2 asymmetric")
        << 2 << true
        << std::vector<float>{-0.5817234516143799f, -0.6463627219200134f, 0.7317113280296326f,
                              -0.3465711772441864f, 0.20837779343128204f, -0.2333633005619049f,
                              0.02480340749025345f, -0.35696420073509216f};
  }

  void matchesTflite() {
    QFETCH(int, rank);
    QFETCH(bool, asymmetric);
    QFETCH(std::vector<float>, lastStep);
    const auto& feature = rank == 1 ? kFeatureRank1 : kFeatureRank2;
    const auto& time = rank == 1 ? kTimeRank1 : kTimeRank2;
    const auto outputs = runSteps(svdfModel(rank, feature, time, asymmetric));
    QCOMPARE(outputs.size(), std::size_t{kSteps});
    const float worst = largestDifference(outputs, rank == 1 ? kGoldenRank1 : kGoldenRank2);
    QVERIFY2(worst <= (rank == 1 ? 0.004285f : 0.007175f), QByteArray::number(worst).constData());
    QCOMPARE(outputs.back(), lastStep);
  }

  void tanhIsRefusedWithTheReason() {
    ir::Graph graph = svdfModel(1, kFeatureRank1, kTimeRank1, false);
    std::get<ir::SvdfAttrs>(graph.operators[0].attributes).activation = ir::Activation::Tanh;
    const auto problems = reference::findUnsupportedOperators(graph);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].reason.find("TANH is not supported on a hybrid SVDF") != std::string::npos,
             problems[0].reason.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(HybridSvdfTest)

}  // namespace hybrid_svdf_test

#include "hybrid_svdf_test.moc"
