// MEAN as TFLite Micro's reduce kernel computes it: float sums; for int8 and
// int16, whatever the quantisations, the int32 sum less input zero point *
// count requantised in fixed point with 1/count folded into the multiplier
// (reference_ops::QuantizedMeanOrSum). The integer expectations are what
// TFLite Micro's own kernel (commit 90b983c) gives for the same cases.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_mean_pooling_case.h"

namespace mean_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

namespace {

ir::Graph meanGraph(ir::DType dtype, ir::Shape inShape, std::vector<std::int32_t> axes,
                    ir::Shape outShape, bool keepDims, ir::Quantization inQ = {},
                    ir::Quantization outQ = {}) {
  GraphBuilder b;
  const int in = b.tensor("in", dtype, std::move(inShape), std::move(inQ));
  const auto n = static_cast<std::int32_t>(axes.size());
  const int axis = b.constant("axis", ir::DType::Int32, {n}, axes);
  const int out = b.tensor("out", dtype, std::move(outShape), std::move(outQ));
  b.op(ir::OpType::Mean, {in, axis}, {out}, ir::ReducerAttrs{keepDims});
  return b.inputs({in}).outputs({out}).build();
}

template <typename T>
std::vector<T> run(const ir::Graph& graph, const std::vector<T>& input) {
  reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, bytesOf(input));
  interpreter.invoke();
  return valuesOf<T>(interpreter.output(0));
}

}  // namespace

class MeanTest : public QObject {
  Q_OBJECT

 private slots:
  void floatMeanOverHeightAndWidthKeepingDimensions() {
    // [1,2,2,2] NHWC, channel 0 holds 1,2,3,4 (mean 2.5), channel 1 holds
    // 10,20,30,40 (mean 25).
    const auto graph =
        meanGraph(ir::DType::Float32, {1, 2, 2, 2}, {1, 2}, {1, 1, 1, 2}, /*keepDims=*/true);
    QCOMPARE(run<float>(graph, {1, 10, 2, 20, 3, 30, 4, 40}), (std::vector<float>{2.5f, 25.0f}));
  }

  void floatMeanWithNegativeAndRepeatedAxes() {
    // axes {-1, 1} of a rank-2 tensor are both axis 1: row means 2 and 5.
    const auto graph = meanGraph(ir::DType::Float32, {2, 3}, {-1, 1}, {2}, false);
    QCOMPARE(run<float>(graph, {1, 2, 3, 4, 5, 6}), (std::vector<float>{2.0f, 5.0f}));
  }

  void int8WithSharedQuantisationStillRequantises() {
    // Same scale and zero point in and out: no integer division either (an
    // older TFLite's special case). The sum less 3 * 4 is scaled by 1/4 with
    // rounding, halves away from zero: row 0: (-6 - 12) / 4 = -4.5 -> -5,
    // + 3 = -2; row 1: (6 - 12) / 4 = -1.5 -> -2, + 3 = 1; row 2: -131 + 3.
    const auto q = test::perTensor(0.1f, 3);
    const auto graph = meanGraph(ir::DType::Int8, {3, 4}, {1}, {3}, false, q, q);
    QCOMPARE(run<std::int8_t>(graph, {-3, -3, 0, 0, 3, 3, 0, 0, -128, -128, -128, -128}),
             (std::vector<std::int8_t>{-2, 1, -128}));
  }

  void int8RequantisesInFixedPoint() {
    // Input scale 0.5, zero point 1; output scale 0.25, zero point -2.
    // Inputs 10, 11, 13: (34 - 3) * 2 / 3 = 20.666... -> 21, + (-2) = 19.
    // (Real values 4.5, 5, 6 have mean 5.1667 = 0.25 * (18.667 + 2).)
    const auto graph = meanGraph(ir::DType::Int8, {1, 3}, {1}, {1, 1}, true,
                                 test::perTensor(0.5f, 1), test::perTensor(0.25f, -2));
    QCOMPARE(run<std::int8_t>(graph, {10, 11, 13}), (std::vector<std::int8_t>{19}));
  }

  void requantisationRoundsInFixedPointAndClamps() {
    // Scale ratio 1, output zero point 5: the mean 0.5 rounds up to 1 (+ 5 =
    // 6) but -0.5 rounds to 0 (+ 5 = 5), not away from zero as float
    // rounding would: the doubling high multiply takes that tie towards
    // zero; mean 127 *
    // 2 = 254 would be 259 and clamps to 127; -128 * 2 + 5 = -251 clamps to
    // -128.
    {
      const auto graph = meanGraph(ir::DType::Int8, {2, 2}, {1}, {2}, false,
                                   test::perTensor(1.0f, 0), test::perTensor(1.0f, 5));
      QCOMPARE(run<std::int8_t>(graph, {0, 1, 0, -1}), (std::vector<std::int8_t>{6, 5}));
    }
    {
      const auto graph = meanGraph(ir::DType::Int8, {2, 2}, {1}, {2}, false,
                                   test::perTensor(1.0f, 0), test::perTensor(0.5f, 5));
      QCOMPARE(run<std::int8_t>(graph, {127, 127, -128, -128}),
               (std::vector<std::int8_t>{127, -128}));
    }
  }

  void int16RequantisesOverTwoAxes() {
    // Input scale 1/1024, zero point 0; output scale 1/512, zero point 0:
    // scale 0.5. Channel 0 of a [1,2,2,2] tensor: 1000, 2000, 3000,
    // 4001 -> mean 2500.25 * 0.5 = 1250.125 -> 1250. Channel 1: -1, -2, -3,
    // -4 -> mean -2.5 * 0.5 = -1.25 -> -1.
    const auto graph = meanGraph(ir::DType::Int16, {1, 2, 2, 2}, {2, 1}, {1, 2}, false,
                                 test::perTensor(1.0f / 1024, 0), test::perTensor(1.0f / 512, 0));
    QCOMPARE(run<std::int16_t>(graph, {1000, -1, 2000, -2, 3000, -3, 4001, -4}),
             (std::vector<std::int16_t>{1250, -1}));
  }

  void int16WithSharedQuantisationSumsInInt32() {
    // 32767 * 3 overflows int16 but not the int32 sum: mean 32767.
    const auto q = test::perTensor(1.0f / 32768, 0);
    const auto graph = meanGraph(ir::DType::Int16, {3}, {0}, {}, false, q, q);
    QCOMPARE(run<std::int16_t>(graph, {32767, 32767, 32767}), (std::vector<std::int16_t>{32767}));
  }

  void int8GlobalPoolingMatchesTfliteMicro() {
    // The MobileNetV2 pooling that was one step off on 516 of 1,280 bytes.
    const ir::Graph graph = test::tflmMeanPoolingGraph();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, test::tflmMeanPoolingInput());
    interpreter.invoke();
    const auto expected = test::tflmMeanPoolingExpected();
    const auto actual = interpreter.output(0);
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(actual[i] == expected[i],
               qPrintable(QString("channel %1: %2, TFLite Micro %3")
                              .arg(i)
                              .arg(static_cast<std::int8_t>(actual[i]))
                              .arg(static_cast<std::int8_t>(expected[i]))));
    }
  }

  void floatAgreesWithQuantisedWithinOneStep() {
    // The same data as float and as int8 (scale 0.05, zero point -10 in; 0.02,
    // 4 out): dequantised int8 means stay within one output step of float.
    const std::vector<float> real{0.35f, -1.2f, 2.0f, 0.05f, -0.4f, 1.1f, 0.9f, -2.1f};
    std::vector<std::int8_t> quantised;
    for (float v : real) {
      quantised.push_back(static_cast<std::int8_t>(std::lround(v / 0.05f) - 10));
    }
    const auto floatGraph = meanGraph(ir::DType::Float32, {2, 4}, {1}, {2}, false);
    const auto intGraph = meanGraph(ir::DType::Int8, {2, 4}, {1}, {2}, false,
                                    test::perTensor(0.05f, -10), test::perTensor(0.02f, 4));
    const auto f = run<float>(floatGraph, real);
    const auto q = run<std::int8_t>(intGraph, quantised);
    for (std::size_t i = 0; i < f.size(); ++i) {
      const float dequantised = 0.02f * static_cast<float>(q[i] - 4);
      QVERIFY2(std::abs(dequantised - f[i]) <= 0.02f + 1e-6f,
               qPrintable(QString("mean %1: float %2, int8 %3").arg(i).arg(f[i]).arg(dequantised)));
    }
  }

  void refusesUnsupportedCases() {
    auto message =
        test::checkMessage(meanGraph(ir::DType::Float32, {2, 2, 2}, {0, 1, 2}, {}, false));
    QVERIFY2(message.find("MEAN over 3 distinct axes is not supported") != std::string::npos,
             message.c_str());

    message = test::checkMessage(meanGraph(ir::DType::Float32, {2, 3}, {2}, {2}, false));
    QVERIFY2(message.find("axis 2 is out of range for input shape [2,3]") != std::string::npos,
             message.c_str());

    message = test::checkMessage(meanGraph(ir::DType::Float32, {2, 3}, {1}, {2}, true));
    QVERIFY2(message.find("with keep_dims gives [2,1] but output 'out' has shape [2]") !=
                 std::string::npos,
             message.c_str());

    message = test::checkMessage(meanGraph(ir::DType::Int32, {2, 3}, {1}, {2}, false));
    QVERIFY2(message.find("input dtype int32 is not supported") != std::string::npos,
             message.c_str());

    message = test::checkMessage(meanGraph(ir::DType::Int8, {2, 3}, {1}, {2}, false));
    QVERIFY2(message.find("needs quantised input and output") != std::string::npos,
             message.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(MeanTest)

}  // namespace mean_test

#include "mean_test.moc"
