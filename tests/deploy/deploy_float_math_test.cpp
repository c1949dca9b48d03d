// Float models give the same bits on every board as on the desktop (issue
// 46): a float32 model of TANH, LOGISTIC, EXP, LOG, SIN, COS, ELU and
// SOFTMAX, compiled to C and run over the RPC session on the native host and
// the QEMU boards of each kind of float arithmetic: Cortex-M3 (soft float,
// Thumb-2 libgcc), Cortex-M0 of the micro:bit (soft float, Thumb-1 libgcc;
// an eighth of the inputs, for its 16 KB of RAM), Cortex-M4 (single-precision
// FPU, doubles in software) and Cortex-M55 (FPU with doubles). The
// boards compute these with Loupe's own float functions (loupe/loupe_libm.h)
// as the reference interpreter does, so every output must be the reference
// interpreter's bytes, and glibc's: each element is also compared with this
// machine's C library. The inputs include values whose fast path lands next
// to a float rounding boundary, so the boards run the exact-FMA slow path
// too. A float LSTM classifier (UNIDIRECTIONAL_SEQUENCE_LSTM, its gates'
// sigmoid and tanh, then SOFTMAX), the model of the issue, runs on every
// board too, bit-exact against the reference interpreter.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "graph_builder.h"
#include "loupe/loupe_libm.h"
#include "tflite_model_writer.h"

using namespace loupe;

namespace {

constexpr int kRows = 8;
constexpr int kColumns = 64;
constexpr int kElements = kRows * kColumns;

// `rows` rows of kColumns elements.
ir::Graph floatMathModel(int rows) {
  using ir::DType;
  using ir::OpType;
  test::GraphBuilder g;
  const ir::Shape shape = {rows, kColumns};
  const int x = g.tensor("x", DType::Float32, shape);
  const int positive = g.tensor("positive", DType::Float32, shape);
  const int tanh = g.tensor("tanh", DType::Float32, shape);
  const int logistic = g.tensor("logistic", DType::Float32, shape);
  const int exp = g.tensor("exp", DType::Float32, shape);
  const int log = g.tensor("log", DType::Float32, shape);
  const int sin = g.tensor("sin", DType::Float32, shape);
  const int cos = g.tensor("cos", DType::Float32, shape);
  const int elu = g.tensor("elu", DType::Float32, shape);
  const int softmax = g.tensor("softmax", DType::Float32, shape);
  g.op(OpType::Tanh, {x}, {tanh});
  g.op(OpType::Logistic, {x}, {logistic});
  g.op(OpType::Exp, {x}, {exp});
  g.op(OpType::Log, {positive}, {log});
  g.op(OpType::Sin, {x}, {sin});
  g.op(OpType::Cos, {x}, {cos});
  g.op(OpType::Elu, {x}, {elu});
  g.op(OpType::Softmax, {tanh}, {softmax}, ir::SoftmaxAttrs{1.0f});
  return g.inputs({x, positive})
      .outputs({tanh, logistic, exp, log, sin, cos, elu, softmax})
      .build();
}

float fromBits(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// A float LSTM over 10 time steps of 8 features with 16 units (weights in
// [-1.5, 1.5) from a fixed seed, so the gates see pre-activations well past
// +-1), then SOFTMAX over the units of every step.
ir::Graph floatLstmClassifier() {
  using ir::DType;
  constexpr int kSteps = 10, kFeatures = 8, kUnits = 16;
  const char* gates[] = {"input", "forget", "cell", "output"};
  std::mt19937 generator(46);
  std::uniform_real_distribution<float> weight(-1.5f, 1.5f);
  const auto values = [&](std::size_t count) {
    std::vector<float> v(count);
    for (float& value : v) value = weight(generator);
    return v;
  };
  test::GraphBuilder g;
  std::vector<int> inputs(24, ir::kNoTensor);
  inputs[0] = g.tensor("sequence", DType::Float32, {1, kSteps, kFeatures});
  for (int gate = 0; gate < 4; ++gate) {
    inputs[1 + gate] = g.constant(std::string("input_to_") + gates[gate], DType::Float32,
                                  {kUnits, kFeatures}, values(kUnits * kFeatures));
    inputs[5 + gate] = g.constant(std::string("recurrent_to_") + gates[gate], DType::Float32,
                                  {kUnits, kUnits}, values(kUnits * kUnits));
    inputs[12 + gate] =
        g.constant(std::string(gates[gate]) + "_bias", DType::Float32, {kUnits}, values(kUnits));
  }
  inputs[18] = g.tensor("output_state", DType::Float32, {1, kUnits});
  inputs[19] = g.tensor("cell_state", DType::Float32, {1, kUnits});
  const int hidden = g.tensor("hidden", DType::Float32, {1, kSteps, kUnits});
  const int probabilities = g.tensor("probabilities", DType::Float32, {1, kSteps, kUnits});
  g.op(ir::OpType::UnidirectionalSequenceLstm, inputs, {hidden}, ir::SequenceLstmAttrs{});
  g.op(ir::OpType::Softmax, {hidden}, {probabilities}, ir::SoftmaxAttrs{1.0f});
  ir::Graph graph = g.inputs({inputs[0]}).outputs({probabilities}).build();
  graph.tensor(inputs[18]).isVariable = true;
  graph.tensor(inputs[19]).isVariable = true;
  return graph;
}

std::vector<float> lstmSequence() {
  std::mt19937 generator(2046);
  std::uniform_real_distribution<float> feature(-3.0f, 3.0f);
  std::vector<float> sequence(10 * 8);
  for (float& value : sequence) value = feature(generator);
  return sequence;
}

// x: a spread over [-16, 16], near-tie inputs of expf and sinf, large sin/cos
// arguments and tiny ones. positive: a spread over (0, 1000], near-tie inputs
// of logf, subnormals.
std::vector<float> xInput() {
  std::vector<float> values;
  for (int i = 0; i < 256; ++i) values.push_back(-16.0f + 32.0f * static_cast<float>(i) / 255.0f);
  for (std::uint32_t bits = 0x3c000000u; bits < 0x42a00000u && values.size() < 320; bits += 7) {
    if (loupe_libm_near_float_tie(loupe_libm_expf_core(fromBits(bits), 0)))
      values.push_back(fromBits(bits));
  }
  for (std::uint32_t bits = 0x3f400000u; bits < 0x42f00000u && values.size() < 384; bits += 11) {
    if (loupe_libm_near_float_tie(loupe_libm_sincosf_core(fromBits(bits), 0, 0)))
      values.push_back(-fromBits(bits));
  }
  for (std::uint32_t i = 0; values.size() < 448; ++i) {
    values.push_back(fromBits(0x42f00000u + i * 0x00b00000u));  // 120 to ~1e37
  }
  while (values.size() < static_cast<std::size_t>(kElements)) {
    values.push_back(std::ldexp(1.0f + static_cast<float>(values.size() % 7) / 8.0f,
                                -static_cast<int>(values.size() % 60)));
  }
  return values;
}

std::vector<float> positiveInput() {
  std::vector<float> values;
  for (int i = 1; i <= 256; ++i) values.push_back(1000.0f * static_cast<float>(i) / 256.0f);
  for (std::uint32_t bits = 0x3f000000u; values.size() < 448; bits += 13) {
    if (loupe_libm_near_float_tie(loupe_libm_logf_core(bits, 0))) values.push_back(fromBits(bits));
  }
  for (std::uint32_t i = 1; values.size() < static_cast<std::size_t>(kElements); ++i) {
    values.push_back(fromBits(i * 0x1234u));  // subnormal and tiny normal
  }
  return values;
}

// What glibc gives for each output of the model, element by element (TFLite's
// kernels: LOGISTIC with its cut-offs, ELU as expm1f, SOFTMAX by row).
std::vector<std::vector<float>> libraryOutputs(const std::vector<float>& x,
                                               const std::vector<float>& positive) {
  std::vector<std::vector<float>> outputs(8);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float v = x[i];
    outputs[0].push_back(tanhf(v));
    outputs[1].push_back(v > 16.619047164916992188f ? 1.0f
                         : v < -9.0f                ? expf(v)
                                                    : 1.0f / (1.0f + expf(-v)));
    outputs[2].push_back(expf(v));
    outputs[3].push_back(logf(positive[i]));
    outputs[4].push_back(sinf(v));
    outputs[5].push_back(cosf(v));
    outputs[6].push_back(v < 0.0f ? expm1f(v) : v);
  }
  return outputs;
}

}  // namespace

class DeployFloatMath : public QObject {
  Q_OBJECT

 private slots:
  void floatMathIsTheSameOnEveryBoard_data() {
    QTest::addColumn<QString>("platform");
    for (const char* name :
         {"host", "qemu-mps2-an385", "qemu-microbit", "qemu-mps2-an386", "qemu-mps3-an547"}) {
      QTest::newRow(name) << QString(name);
    }
  }

  void floatMathIsTheSameOnEveryBoard() {
    QFETCH(QString, platform);
    std::vector<float> x = xInput();
    std::vector<float> positive = positiveInput();
    QCOMPARE(x.size(), std::size_t{kElements});
    QCOMPARE(positive.size(), std::size_t{kElements});
    const int rows = platform == "qemu-microbit" ? 1 : kRows;
    if (rows == 1) {  // every eighth input, slow-path ones among them
      for (int i = 0; i < kColumns; ++i) {
        x[i] = x[i * kRows];
        positive[i] = positive[i * kRows];
      }
      x.resize(kColumns);
      positive.resize(kColumns);
    }
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    request.compile.model = floatMathModel(rows);
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.inputs = {test::bytesOf(x), test::bytesOf(positive)};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    // Every output byte for byte the reference interpreter's.
    QVERIFY(!run.checks.empty());
    for (const auto& check : run.checks) QVERIFY2(check.bitExact, check.message.c_str());
    // And, but for SOFTMAX (a sum, checked against the reference above), the
    // C library's, element by element.
    const auto expected = libraryOutputs(x, positive);
    QCOMPARE(run.outputs.size(), std::size_t{8});
    const char* names[] = {"TANH", "LOGISTIC", "EXP", "LOG", "SIN", "COS", "ELU"};
    for (std::size_t output = 0; output < 7; ++output) {
      const auto got = test::valuesOf<float>(run.outputs[output]);
      QCOMPARE(got.size(), expected[output].size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        const bool bothNan = std::isnan(got[i]) && std::isnan(expected[output][i]);
        QVERIFY2(
            bothNan || std::memcmp(&got[i], &expected[output][i], sizeof(float)) == 0,
            qPrintable(QString("%1 element %2 (input %3): %4, glibc %5")
                           .arg(names[output])
                           .arg(i)
                           .arg(static_cast<double>(output == 3 ? positive[i] : x[i]), 0, 'g', 9)
                           .arg(static_cast<double>(got[i]), 0, 'g', 9)
                           .arg(static_cast<double>(expected[output][i]), 0, 'g', 9)));
      }
    }
  }

  void floatLstmIsTheSameOnEveryBoard_data() { floatMathIsTheSameOnEveryBoard_data(); }

  void floatLstmIsTheSameOnEveryBoard() {
    QFETCH(QString, platform);
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    request.compile.model = floatLstmClassifier();
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.inputs = {test::bytesOf(lstmSequence())};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    QVERIFY(!run.checks.empty());
    for (const auto& check : run.checks) QVERIFY2(check.bitExact, check.message.c_str());
  }
};

QTEST_APPLESS_MAIN(DeployFloatMath)
#include "deploy_float_math_test.moc"
