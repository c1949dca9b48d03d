// Hybrid CONV_2D (float32 activations, int8 filter), which TFLite runs and
// TFLite Micro refuses, in models written with the schema's object API:
// TFLite's own kernel-test cases (conv_test.cc) with one filter scale, with
// several equal scales (run per-tensor, as TFLite does), and per channel,
// with strides, SAME padding and dilation. Each output is within TFLite's
// tolerance of the values its test expects and exactly the value of TFLite's
// optimized kernels worked through in float32 (tests/support/
// hybrid_reference.py); generated C gives the reference's bytes.
#include <QtTest>

#include <cmath>

#include "hybrid_checks.h"
#include "hybrid_conv2d_model.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace hybrid_conv2d_test {

using namespace loupe;

namespace {

using namespace test::hybrid_conv;
using namespace test::hybrid_checks;

ConvCase channelsCase() {
  ConvCase c = simpleCase();
  c.inputShape = {2, 2, 4, 2};
  c.filterShape = {3, 2, 2, 2};
  c.filter = kChannelsFilter;
  return c;
}

std::string problemOf(const ConvCase& c) {
  const auto problems = reference::findUnsupportedOperators(convModel(c));
  return problems.empty() ? std::string() : problems[0].reason;
}

}  // namespace

class HybridConv2DTest : public QObject {
  Q_OBJECT

 private slots:
  void perTensorFilterMatchesTflite() {
    const auto out = run(convModel(simpleCase()), kSimpleInput);
    QVERIFY2(near(out, kSimpleExpected, 0.16f), text(out).constData());
    QCOMPARE(out, kSimpleExact);
  }

  // SimpleTestHybridInt8WithDilation: stride 1, dilation 2 across.
  void dilationMatchesTflite() {
    ConvCase c = simpleCase();
    c.strideH = c.strideW = 1;
    c.dilationW = 2;
    const auto out = run(convModel(c), kSimpleInput);
    QVERIFY2(near(out, {18, 2, 5, 18, 2, 5, 23, 6, 3, 33, 6, 3}, 0.16f), text(out).constData());
    QCOMPARE(out,
             (std::vector<float>{18.031681060791016f, 2.0f, 4.999876022338867f, 18.031681060791016f,
                                 2.0f, 4.999876022338867f, 23.0313720703125f, 5.999752044677734f,
                                 3.0f, 33.12598419189453f, 5.999752044677734f, 3.0f}));
  }

  // PointwiseHybridInt8: a 1x1 filter over two channels, stride 1.
  void pointwiseMatchesTflite() {
    ConvCase c;
    c.inputShape = {2, 2, 4, 2};
    c.filterShape = {1, 1, 1, 2};
    c.filter = {1, 2};
    c.bias = {0};
    c.strideH = c.strideW = 1;
    c.outputShape = {2, 2, 4, 1};
    const auto out = run(convModel(c), kChannelsInput);
    QVERIFY2(near(out, {1.5, 1.5, 1.5, 1.5, 3, 3, 3, 3, 1.5, 3, 4.5, 6, 1.5, 3, 4.5, 6}, 0.0316f),
             text(out).constData());
    QCOMPARE(out,
             (std::vector<float>{
                 1.5157790184020996f, 1.5157790184020996f, 1.5157790184020996f, 1.5157790184020996f,
                 3.007874011993408f, 3.007874011993408f, 3.007874011993408f, 3.007874011993408f,
                 1.5157790184020996f, 3.031558036804199f, 4.499969005584717f, 6.015748023986816f,
                 1.5157790184020996f, 3.031558036804199f, 4.499969005584717f, 6.015748023986816f}));
  }

  // SimpleTestHybridWithChannelsInt8: three equal scales run as one.
  void equalChannelScalesRunPerTensor() {
    ConvCase c = channelsCase();
    c.scaleCopies = 3;
    const auto out = run(convModel(c), kChannelsInput);
    QCOMPARE(out, kSimpleExact);
  }

  // SimpleTestHybridPerChannel: asymmetric input quantisation per batch.
  void perChannelFilterMatchesTflite() {
    ConvCase c = channelsCase();
    c.perChannel = true;
    const auto out = run(convModel(c), kChannelsInput);
    QVERIFY2(near(out, kSimpleExpected, 0.16f), text(out).constData());
    QCOMPARE(out,
             (std::vector<float>{17.996017456054688f, 2.0f, 5.007843017578125f, 17.996017456054688f,
                                 2.0f, 5.007843017578125f, 17.0f, 3.976470708847046f, 3.0f,
                                 37.047306060791016f, 4.007843017578125f, 3.0f}));
  }

  // SimpleTestHybridWithPaddingPerChannel: SAME, stride 2 down, 1 across;
  // the last column's window runs off the input.
  void perChannelSamePaddingMatchesTflite() {
    ConvCase c = channelsCase();
    c.perChannel = true;
    c.strideW = 1;
    c.padding = tflite::Padding::SAME;
    c.outputShape = {2, 1, 4, 3};
    const auto out = run(convModel(c), kChannelsInput);
    QVERIFY2(
        near(out, {18, 2, 5, 18, 2, 5, 18, 2, 5, 8, -1, 4, 17, 4, 3, 27, 4, 3, 37, 4, 3, 17, -6, 3},
             0.16f),
        text(out).constData());
    QCOMPARE(out[9], 7.988173961639404f);
    QCOMPARE(out[22], -6.0f);
    QCOMPARE(out[15], 26.992280960083008f);
  }

  // SimpleTestHybridWithDilationPerChannel.
  void perChannelDilationMatchesTflite() {
    ConvCase c = simpleCase();
    c.perChannel = true;
    c.strideH = c.strideW = 1;
    c.dilationW = 2;
    const auto out = run(convModel(c), kSimpleInput);
    QVERIFY2(near(out, {18, 2, 5, 18, 2, 5, 23, 6, 3, 33, 6, 3}, 0.16f), text(out).constData());
    QCOMPARE(out[6], 23.03934097290039f);
    QCOMPARE(out[9], 33.031620025634766f);
  }

  // The activation clamps after the bias: RELU6 on the simple case.
  void theActivationClampsLast() {
    ConvCase c = simpleCase();
    c.activation = tflite::ActivationFunctionType::RELU6;
    c.bias = {-14, 2, 3};
    const auto out = run(convModel(c), kSimpleInput);
    QCOMPARE(out.size(), std::size_t{12});
    QCOMPARE(out[0], 3.0316810607910156f);  // 17.03 - 14, inside [0, 6]
    QCOMPARE(out[9], 6.0f);                 // 36.03 - 14 > 6
    QCOMPARE(out[4], 2.0f);
  }

  void unsupportedFormsAreRefusedWithTheReason() {
    ConvCase grouped = channelsCase();
    grouped.filterShape = {3, 2, 2, 1};
    grouped.filter = kSimpleFilter;
    QVERIFY2(
        problemOf(grouped).find("filter depth must equal the input depth") != std::string::npos,
        problemOf(grouped).c_str());
    ConvCase tanh = simpleCase();
    tanh.activation = tflite::ActivationFunctionType::TANH;
    QVERIFY2(problemOf(tanh).find("TANH is not supported on a hybrid CONV_2D") != std::string::npos,
             problemOf(tanh).c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(HybridConv2DTest)

}  // namespace hybrid_conv2d_test

#include "hybrid_conv2d_test.moc"
