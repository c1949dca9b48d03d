// SOFTMAX reference kernel: exact values derivable by hand, agreement with
// the float function, the quantisation TFLM insists on, and byte equality
// with TFLite Micro's per-tensor dumps of every model that ends in SOFTMAX.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"
#include "test_group.h"

namespace softmax_test {

using namespace loupe;

namespace {

struct SoftmaxCase {
  ir::DType inputType = ir::DType::Int8;
  ir::Quantization inputQuant = test::perTensor(0.1f, 0);
  ir::DType outputType = ir::DType::Int8;
  ir::Quantization outputQuant = test::perTensor(1.0f / 256, -128);
  float beta = 1.0f;

  ir::Graph graph(std::int32_t rows, std::int32_t depth) const {
    test::GraphBuilder b;
    const int in = b.tensor("logits", inputType, {rows, depth}, inputQuant);
    const int out = b.tensor("probabilities", outputType, {rows, depth}, outputQuant);
    b.op(ir::OpType::Softmax, {in}, {out}, ir::SoftmaxAttrs{beta});
    b.inputs({in}).outputs({out});
    return b.build();
  }

  std::optional<std::string> problem() const {
    const auto problems = reference::findUnsupportedOperators(graph(1, 4));
    if (problems.empty()) return std::nullopt;
    return problems.front().reason;
  }

  template <typename Out, typename In>
  std::vector<Out> run(const std::vector<In>& values, std::int32_t rows = 1) const {
    const auto depth = static_cast<std::int32_t>(values.size()) / rows;
    const ir::Graph g = graph(rows, depth);
    reference::ReferenceInterpreter interpreter(g);
    interpreter.setInput(0, std::span(reinterpret_cast<const std::uint8_t*>(values.data()),
                                      values.size() * sizeof(In)));
    interpreter.invoke();
    std::vector<Out> result(values.size());
    std::memcpy(result.data(), interpreter.output(0).data(), result.size() * sizeof(Out));
    return result;
  }
};

std::vector<double> softmaxOf(const std::vector<double>& x) {
  double max = x[0];
  for (double v : x) max = std::max(max, v);
  double sum = 0;
  std::vector<double> e;
  for (double v : x) sum += e.emplace_back(std::exp(v - max));
  for (double& v : e) v /= sum;
  return e;
}

}  // namespace

class SoftmaxTest : public QObject {
  Q_OBJECT

 private slots:
  void int8EqualLogitsShareTheProbability() {
    SoftmaxCase c;
    // 1/4 is 64 steps of 1/256 above the zero point -128; 1/2 is 128 steps.
    QCOMPARE(c.run<std::int8_t>(std::vector<std::int8_t>{5, 5, 5, 5}),
             (std::vector<std::int8_t>{-64, -64, -64, -64}));
    QCOMPARE(c.run<std::int8_t>(std::vector<std::int8_t>{-128, -128}),
             (std::vector<std::int8_t>{0, 0}));
    // A single class is certain: 256 steps saturate at 127.
    QCOMPARE(c.run<std::int8_t>(std::vector<std::int8_t>{-7}), (std::vector<std::int8_t>{127}));
  }

  void int8FarBelowTheMaximumIsExactlyZero() {
    SoftmaxCase c;  // scale 0.1: -25.5 below the maximum is beyond diff_min
    QCOMPARE(c.run<std::int8_t>(std::vector<std::int8_t>{127, -128, -128}),
             (std::vector<std::int8_t>{127, -128, -128}));
  }

  void int8RowsAreIndependent() {
    SoftmaxCase c;
    QCOMPARE(c.run<std::int8_t>(std::vector<std::int8_t>{0, 0, 0, 0, 9, 9, 9, 9}, 2),
             (std::vector<std::int8_t>{-64, -64, -64, -64, -64, -64, -64, -64}));
  }

  void int8AgreesWithFloatWithinOneStepOverTheWholeRange() {
    for (const float scale : {0.02f, 0.0917319f, 0.171854f, 0.5f}) {
      for (const float beta : {1.0f, 0.5f}) {
        SoftmaxCase c;
        c.inputQuant = test::perTensor(scale, 14);
        c.beta = beta;
        for (int x = -128; x <= 127; ++x) {
          const std::vector<std::int8_t> logits{static_cast<std::int8_t>(x), 0, -40, 20};
          const auto got = c.run<std::int8_t>(logits);
          std::vector<double> real;
          for (auto q : logits) real.push_back(beta * scale * (q - 14));
          const auto expected = softmaxOf(real);
          for (std::size_t i = 0; i < logits.size(); ++i) {
            const double want = std::clamp(expected[i] * 256 - 128, -128.0, 127.0);
            if (std::abs(got[i] - want) > 1.0) {
              QFAIL(qPrintable(QString("scale %1 beta %2 x %3 class %4: got %5, float says %6")
                                   .arg(scale)
                                   .arg(beta)
                                   .arg(x)
                                   .arg(i)
                                   .arg(got[i])
                                   .arg(want)));
            }
          }
        }
      }
    }
  }

  void int8IsMonotonicInItsOwnLogit() {
    SoftmaxCase c;
    int previousOwn = -129;
    int previousOther = 128;
    for (int x = -128; x <= 127; ++x) {
      const auto got = c.run<std::int8_t>(std::vector<std::int8_t>{static_cast<std::int8_t>(x), 3});
      QVERIFY(got[0] >= previousOwn);
      QVERIFY(got[1] <= previousOther);
      previousOwn = got[0];
      previousOther = got[1];
    }
  }

  void int8ToInt16UsesTheFullInt16Range() {
    SoftmaxCase c;
    c.outputType = ir::DType::Int16;
    c.outputQuant = test::perTensor(1.0f / 65536, -32768);
    QCOMPARE(c.run<std::int16_t>(std::vector<std::int8_t>{1, 1, 1, 1}),
             (std::vector<std::int16_t>{-16384, -16384, -16384, -16384}));
    const auto got = c.run<std::int16_t>(std::vector<std::int8_t>{10, 0});
    const auto expected = softmaxOf({1.0, 0.0});
    QVERIFY(std::abs(got[0] - (expected[0] * 65536 - 32768)) <= 2);
    QVERIFY(std::abs(got[1] - (expected[1] * 65536 - 32768)) <= 2);
  }

  void int16AgreesWithFloatWithinAFewSteps() {
    SoftmaxCase c;
    c.inputType = ir::DType::Int16;
    c.inputQuant = test::perTensor(1.0f / 4096, 0);
    c.outputType = ir::DType::Int16;
    c.outputQuant = test::perTensor(1.0f / 32768, 0);
    // Equal logits: exactly one half, up to the tables' interpolation.
    const auto half = c.run<std::int16_t>(std::vector<std::int16_t>{700, 700});
    QVERIFY(std::abs(half[0] - 16384) <= 2);
    QCOMPARE(half[0], half[1]);
    int worst = 0;
    for (int x = -32768; x <= 32767; x += 97) {
      const std::vector<std::int16_t> logits{static_cast<std::int16_t>(x), 0, 4096, -8192};
      const auto got = c.run<std::int16_t>(logits);
      std::vector<double> real;
      for (auto q : logits) real.push_back(q / 4096.0);
      const auto expected = softmaxOf(real);
      for (std::size_t i = 0; i < logits.size(); ++i) {
        worst =
            std::max(worst, static_cast<int>(std::lround(std::abs(got[i] - expected[i] * 32768))));
      }
    }
    // The exp table covers [-10, 0] only and both tables interpolate.
    QVERIFY2(worst <= 16, qPrintable(QString("worst error %1 steps of 2^-15").arg(worst)));
  }

  void float32MatchesTheDefinition() {
    SoftmaxCase c;
    c.inputType = c.outputType = ir::DType::Float32;
    c.inputQuant = c.outputQuant = {};
    const auto got = c.run<float>(std::vector<float>{1.0f, 2.0f, 3.0f});
    const auto expected = softmaxOf({1.0, 2.0, 3.0});
    for (int i = 0; i < 3; ++i) QVERIFY(std::abs(got[i] - expected[i]) < 1e-6);
    // Subtracting the maximum first: no overflow for large logits.
    QCOMPARE(c.run<float>(std::vector<float>{1000.0f, 1000.0f}), (std::vector<float>{0.5f, 0.5f}));
    c.beta = 0.0f;  // beta 0: uniform whatever the logits
    QCOMPARE(c.run<float>(std::vector<float>{-3.0f, 9.0f}), (std::vector<float>{0.5f, 0.5f}));
  }

  void refusesWhatTfliteMicroRefuses() {
    SoftmaxCase c;
    c.outputQuant = test::perTensor(1.0f / 256, 0);
    auto problem = c.problem();
    QVERIFY(problem.has_value());
    QVERIFY2(problem->find("zero point -128") != std::string::npos &&
                 problem->find("found 0") != std::string::npos,
             problem->c_str());

    c.outputQuant = test::perTensor(1.0f / 255, -128);
    problem = c.problem();
    QVERIFY(problem && problem->find("exactly 1/256") != std::string::npos);

    c.outputType = ir::DType::UInt8;
    problem = c.problem();
    QVERIFY(problem.has_value());
    QVERIFY2(problem->find("does not support int8 input with uint8 output") != std::string::npos &&
                 problem->find("int8 -> int16") != std::string::npos,
             problem->c_str());

    SoftmaxCase int16;
    int16.inputType = int16.outputType = ir::DType::Int16;
    int16.inputQuant = test::perTensor(0.001f, 3);
    int16.outputQuant = test::perTensor(1.0f / 32768, 0);
    problem = int16.problem();
    QVERIFY2(problem && problem->find("input 'logits' (int16 [1,4]) must have zero point 0") !=
                            std::string::npos,
             problem ? problem->c_str() : "accepted");
    int16.inputQuant = test::perTensor(0.001f, 0);
    int16.outputQuant = test::perTensor(1.0f / 65536, 0);
    problem = int16.problem();
    QVERIFY(problem && problem->find("1/32768") != std::string::npos);

    SoftmaxCase perChannel;
    perChannel.inputQuant = test::perChannel({0.1f, 0.2f}, 1);
    problem = perChannel.problem();
    QVERIFY(problem && problem->find("per channel") != std::string::npos);

    SoftmaxCase accepted;
    QVERIFY(!accepted.problem().has_value());
  }

  // Feeds TFLM's own input of every SOFTMAX in the golden per-tensor dumps to
  // the kernel and compares the output bytes.
  void matchesTfliteMicroOnEveryGoldenModel() {
    int compared = 0;
    for (const auto& modelDir : std::filesystem::directory_iterator(test::modelsDir())) {
      const auto modelFile = modelDir.path() / "model.tflite";
      if (!std::filesystem::exists(modelFile)) continue;
      ir::Graph model;
      try {
        model = frontend::importTfliteFile(modelFile);
      } catch (const frontend::ImportError&) {
        continue;  // models Loupe cannot import are the importer's tests' business
      }
      for (const auto& op : model.operators) {
        if (op.type != ir::OpType::Softmax) continue;
        ir::Graph single = model;
        single.operators = {op};
        single.operators[0].index = 0;
        single.inputs = {op.inputs[0]};
        single.outputs = {op.outputs[0]};
        for (const auto& set : std::filesystem::directory_iterator(modelDir.path() / "golden")) {
          const auto tensors = set.path() / "tensors";
          if (!std::filesystem::is_directory(tensors)) continue;
          const auto input =
              test::readBytes(tensors / ("t" + std::to_string(op.inputs[0]) + ".bin"));
          const auto expected =
              test::readBytes(tensors / ("t" + std::to_string(op.outputs[0]) + ".bin"));
          reference::ReferenceInterpreter interpreter(single);
          interpreter.setInput(0, input);
          interpreter.invoke();
          const auto got = interpreter.output(0);
          QVERIFY2(std::equal(got.begin(), got.end(), expected.begin(), expected.end()),
                   qPrintable(QString::fromStdString(set.path().string())));
          ++compared;
        }
      }
    }
    QVERIFY2(compared >= 16, qPrintable(QString("compared %1 golden sets").arg(compared)));
  }
};

LOUPE_TEST_APPLESS_MAIN(SoftmaxTest)

}  // namespace softmax_test

#include "softmax_test.moc"
