// LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU and HARD_SWISH through TIR and
// generated C, byte for byte against the reference interpreter: every dtype
// the reference kernels accept, several scales and zero points (some that
// saturate most of the range), inputs that start at the type's edges (every
// int8 value; inf, NaN and extremes for float32), on 1, 13 and 285 elements.
// The printed TIR shows the int8 table path and the per-element helpers.
#include <QtTest>

#include "lowering/lowering_support.h"
#include "test_group.h"
#include "unary_codegen_cases.h"

namespace activation_test {

using namespace loupe;
using loupe::test::UnaryCase;

namespace {

using ir::DType;
using ir::OpType;

ir::Quantization q(float scale, std::int64_t zeroPoint) {
  return test::perTensor(scale, zeroPoint);
}

ir::LeakyReluAttrs alpha(float value) {
  ir::LeakyReluAttrs attrs;
  attrs.alpha = value;
  return attrs;
}

// Quantised LOGISTIC writes scale 1/256 (int8, zero point -128) or 2^-15
// (int16); TANH's int8 output is computed for 1/128 whatever the tensor says.
const ir::Quantization kLogisticInt8Out = q(1.0f / 256, -128);
const ir::Quantization kSigmoidInt16Out = q(1.0f / 32768, 0);

const test::NamedUnaryCase kCases[] = {
    {"logistic float32", {OpType::Logistic, DType::Float32, {}, DType::Float32, {}, {}, 20.0f}},
    {"logistic int8 0.1 zp 7",
     {OpType::Logistic, DType::Int8, q(0.1f, 7), DType::Int8, kLogisticInt8Out}},
    {"logistic int8 1/16 zp -128",
     {OpType::Logistic, DType::Int8, q(1.0f / 16, -128), DType::Int8, kLogisticInt8Out}},
    {"logistic int8 0.5 saturating",
     {OpType::Logistic, DType::Int8, q(0.5f, 0), DType::Int8, kLogisticInt8Out}},
    {"logistic int8 2^-20 zp 100",
     {OpType::Logistic, DType::Int8, q(1.0f / (1 << 20), 100), DType::Int8, kLogisticInt8Out}},
    {"logistic int16 2^-12 (power of two)",
     {OpType::Logistic, DType::Int16, q(1.0f / 4096, 0), DType::Int16, kSigmoidInt16Out}},
    {"logistic int16 0.001",
     {OpType::Logistic, DType::Int16, q(0.001f, 0), DType::Int16, kSigmoidInt16Out}},
    {"logistic int16 2.5 saturating",
     {OpType::Logistic, DType::Int16, q(2.5f, 0), DType::Int16, kSigmoidInt16Out}},

    {"tanh float32", {OpType::Tanh, DType::Float32, {}, DType::Float32, {}, {}, 6.0f}},
    {"tanh int8 0.1 zp 7", {OpType::Tanh, DType::Int8, q(0.1f, 7), DType::Int8, q(1.0f / 128, 0)}},
    {"tanh int8 0.5 zp -128 saturating",
     {OpType::Tanh, DType::Int8, q(0.5f, -128), DType::Int8, q(1.0f / 128, 0)}},
    {"tanh int8 0.003 zp 20, output quantisation ignored",
     {OpType::Tanh, DType::Int8, q(0.003f, 20), DType::Int8, q(0.05f, 3)}},
    {"tanh int16 2^-12 (shift 0)",
     {OpType::Tanh, DType::Int16, q(1.0f / 4096, 0), DType::Int16, kSigmoidInt16Out}},
    {"tanh int16 2^-11 (shift 1)",
     {OpType::Tanh, DType::Int16, q(1.0f / 2048, 0), DType::Int16, kSigmoidInt16Out}},
    {"tanh int16 0.0007",
     {OpType::Tanh, DType::Int16, q(0.0007f, 0), DType::Int16, kSigmoidInt16Out}},

    {"relu float32", {OpType::Relu, DType::Float32, {}, DType::Float32, {}}},
    {"relu int8 same quantisation",
     {OpType::Relu, DType::Int8, q(0.05f, -3), DType::Int8, q(0.05f, -3)}},
    {"relu int8 0.05 zp -3 -> 0.1 zp -128",
     {OpType::Relu, DType::Int8, q(0.05f, -3), DType::Int8, q(0.1f, -128)}},
    {"relu int8 finer output saturating",
     {OpType::Relu, DType::Int8, q(0.02f, 10), DType::Int8, q(0.01f, 5)}},
    {"relu int8 1.0 -> 0.001 zp 100",
     {OpType::Relu, DType::Int8, q(1.0f, 0), DType::Int8, q(0.001f, 100)}},
    {"relu int8 zp 127 -> zp -128",
     {OpType::Relu, DType::Int8, q(0.1f, 127), DType::Int8, q(0.1f, -128)}},
    {"relu int16 0.001 -> 0.002",
     {OpType::Relu, DType::Int16, q(0.001f, 0), DType::Int16, q(0.002f, 0)}},
    {"relu int16 finer output saturating",
     {OpType::Relu, DType::Int16, q(0.01f, 0), DType::Int16, q(0.0005f, 0)}},

    {"relu6 float32", {OpType::Relu6, DType::Float32, {}, DType::Float32, {}, {}, 10.0f}},
    {"relu6 int8 0.05 zp -3",
     {OpType::Relu6, DType::Int8, q(0.05f, -3), DType::Int8, q(0.05f, -3)}},
    {"relu6 int8 0.01 (six above int8)",
     {OpType::Relu6, DType::Int8, q(0.01f, 0), DType::Int8, q(0.01f, 0)}},
    {"relu6 int8 0.1 zp 100",
     {OpType::Relu6, DType::Int8, q(0.1f, 100), DType::Int8, q(0.1f, 100)}},
    {"relu6 int8 1/8 zp -128",
     {OpType::Relu6, DType::Int8, q(0.125f, -128), DType::Int8, q(0.125f, -128)}},
    {"relu6 int8 zp 200 (TFLM wraps it to -56)",
     {OpType::Relu6, DType::Int8, q(0.1f, 200), DType::Int8, q(0.1f, 200)}},
    {"relu6 int16 0.0005",
     {OpType::Relu6, DType::Int16, q(0.0005f, 0), DType::Int16, q(0.0005f, 0)}},
    {"relu6 int16 0.0001 zp 5 (six above int16)",
     {OpType::Relu6, DType::Int16, q(0.0001f, 5), DType::Int16, q(0.0001f, 5)}},

    {"leaky_relu float32 alpha 0.2",
     {OpType::LeakyRelu, DType::Float32, {}, DType::Float32, {}, alpha(0.2f)}},
    {"leaky_relu float32 alpha -1.5",
     {OpType::LeakyRelu, DType::Float32, {}, DType::Float32, {}, alpha(-1.5f)}},
    {"leaky_relu float32 alpha 3",
     {OpType::LeakyRelu, DType::Float32, {}, DType::Float32, {}, alpha(3.0f)}},
    {"leaky_relu int8 alpha 0.1",
     {OpType::LeakyRelu, DType::Int8, q(0.05f, 3), DType::Int8, q(0.03f, -10), alpha(0.1f)}},
    {"leaky_relu int8 alpha 2 saturating",
     {OpType::LeakyRelu, DType::Int8, q(0.05f, 0), DType::Int8, q(0.005f, 0), alpha(2.0f)}},
    {"leaky_relu int8 alpha -0.3 zp -128",
     {OpType::LeakyRelu, DType::Int8, q(0.1f, -128), DType::Int8, q(0.1f, -128), alpha(-0.3f)}},
    {"leaky_relu int8 alpha -0.5 ties",  // TFLM negates after scaling by |alpha|
     {OpType::LeakyRelu, DType::Int8, q(0.25f, 0), DType::Int8, q(0.25f, 0), alpha(-0.5f)}},
    {"leaky_relu int16 alpha 0.2",
     {OpType::LeakyRelu, DType::Int16, q(0.001f, 0), DType::Int16, q(0.001f, 0), alpha(0.2f)}},
    {"leaky_relu int16 alpha 1.5 zero points saturating",
     {OpType::LeakyRelu, DType::Int16, q(0.002f, 7), DType::Int16, q(0.0005f, -3), alpha(1.5f)}},

    {"hard_swish float32", {OpType::HardSwish, DType::Float32, {}, DType::Float32, {}, {}, 8.0f}},
    {"hard_swish int8 0.1 -> 0.05 zp -20",
     {OpType::HardSwish, DType::Int8, q(0.1f, 0), DType::Int8, q(0.05f, -20)}},
    {"hard_swish int8 0.02 zp -100 -> zp -128",
     {OpType::HardSwish, DType::Int8, q(0.02f, -100), DType::Int8, q(0.02f, -128)}},
    {"hard_swish int8 0.5 zp 10 -> 0.1 saturating",
     {OpType::HardSwish, DType::Int8, q(0.5f, 10), DType::Int8, q(0.1f, 0)}},
    {"hard_swish int8 0.2 -> 0.002 saturating",
     {OpType::HardSwish, DType::Int8, q(0.2f, -3), DType::Int8, q(0.002f, 0)}},
};

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace

class ActivationCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
      QTest::newRow(kCases[i].name) << static_cast<int>(i);
    }
  }

  void matchesReference() {
    QFETCH(int, index);
    test::expectUnaryCaseMatches(kCases[static_cast<std::size_t>(index)].c);
  }

  void int8InputsReadAConstantTable() {
    // One flat loop over all 285 elements of the 3-D tensor, one table load
    // per element indexed by the input's bits, and no helper call at run time.
    const std::string tir = test::unaryTir(test::caseNamed(kCases, "logistic int8 0.1 zp 7"));
    QVERIFY2(
        tir.find("output_table = T.allocate_const(..., \"int8\", (256,))") != std::string::npos,
        tir.c_str());
    QVERIFY2(tir.find("output[i] = output_table[T.Cast(\"uint8\", input[i])]") != std::string::npos,
             tir.c_str());
    QVERIFY2(tir.find("T.call_intrin") == std::string::npos, tir.c_str());
    QCOMPARE(occurrences(tir, "for "), std::size_t{1});
    QVERIFY2(tir.find("for i in range(285):") != std::string::npos, tir.c_str());
  }

  void int16AndFloatInputsCallTheSharedHelpers_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("call");
    QTest::newRow("logistic int16")
        << "logistic int16 0.001"
        << R"(T.call_intrin("int16", "loupe.logistic_int16_lut", input[i], )";
    QTest::newRow("tanh int16") << "tanh int16 0.0007"
                                << R"(T.call_intrin("int16", "loupe.tanh_int16_lut", input[i], )";
    QTest::newRow("relu int16") << "relu int16 0.001 -> 0.002"
                                << R"(T.call_intrin("int32", "loupe.relu_quantized", )";
    QTest::newRow("relu6 int16") << "relu6 int16 0.0005"
                                 << R"(T.call_intrin("int32", "loupe.relu6_quantized", )";
    QTest::newRow("leaky_relu int16") << "leaky_relu int16 alpha 0.2"
                                      << R"(T.call_intrin("int32", "loupe.leaky_relu_quantized", )";
    QTest::newRow("logistic float32")
        << "logistic float32"
        << R"(T.call_intrin("float32", "loupe.logistic_f32", input[i]))";
    QTest::newRow("tanh float32") << "tanh float32"
                                  << R"(T.call_intrin("float32", "loupe.tanh_f32", input[i]))";
    QTest::newRow("relu float32") << "relu float32"
                                  << R"(T.call_intrin("float32", "loupe.relu_f32", input[i]))";
    QTest::newRow("relu6 float32") << "relu6 float32"
                                   << R"(T.call_intrin("float32", "loupe.relu6_f32", input[i]))";
    QTest::newRow("leaky_relu float32")
        << "leaky_relu float32 alpha -1.5"
        << R"(T.call_intrin("float32", "loupe.leaky_relu_f32", input[i], T.float32(-1.5)))";
    QTest::newRow("hard_swish float32")
        << "hard_swish float32"
        << R"(T.call_intrin("float32", "loupe.hard_swish_f32", input[i]))";
  }

  void int16AndFloatInputsCallTheSharedHelpers() {
    QFETCH(QString, name);
    QFETCH(QString, call);
    const std::string tir = test::unaryTir(test::caseNamed(kCases, name.toUtf8().constData()));
    QVERIFY2(tir.find(call.toStdString()) != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("allocate_const") == std::string::npos, tir.c_str());
    QCOMPARE(occurrences(tir, "for "), std::size_t{1});
  }

  void emptyTensorsCompileAndRun_data() {
    QTest::addColumn<QString>("name");
    for (const char* name :
         {"logistic int8 0.1 zp 7", "relu int16 0.001 -> 0.002", "tanh float32"}) {
      QTest::newRow(name) << name;
    }
  }

  void emptyTensorsCompileAndRun() {
    // No elements: no loop, no table, and nothing unused for the strict C flags to reject.
    QFETCH(QString, name);
    const ir::Graph graph = test::caseNamed(kCases, name.toStdString()).graph({2, 0, 3});
    const std::string difference = test::differenceOn(graph, {test::Bytes{}});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void theComparisonSeesADifferentQuantisation() {
    // The check is not vacuous: C compiled for one output zero point differs
    // from the reference run with another.
    const UnaryCase compiled = test::caseNamed(kCases, "relu int8 0.05 zp -3 -> 0.1 zp -128");
    UnaryCase expected = compiled;
    expected.outputQuant = q(0.1f, -127);
    const ir::Graph graph = compiled.graph({300});
    const std::vector<test::Bytes> inputs = {test::unaryInputBytes(graph, 1, 1.0f)};
    const auto actual = test::runGeneratedC(graph, inputs);
    const auto reference = test::runReference(expected.graph({300}), inputs);
    QVERIFY(!test::firstDifference(actual.at(0), reference.at(0)).empty());
  }

  void nonFiniteFloatAlphaIsRefused() {
    UnaryCase c = test::caseNamed(kCases, "leaky_relu float32 alpha 0.2");
    c.attributes = alpha(std::numeric_limits<float>::infinity());
    const std::string error = test::compileError(c.graph({4}));
    QVERIFY2(error.find("#0 LEAKY_RELU: alpha inf is not finite") != std::string::npos,
             error.c_str());
  }

  void whatTheReferenceRefusesIsRefusedWithItsReason_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<QString>("reason");
    QTest::newRow("int16 HARD_SWISH")
        << static_cast<int>(OpType::HardSwish) << static_cast<int>(DType::Int16)
        << "HARD_SWISH does not support int16 input with int16 output";
    QTest::newRow("uint8 RELU") << static_cast<int>(OpType::Relu) << static_cast<int>(DType::UInt8)
                                << "RELU does not support uint8 input with uint8 output";
    QTest::newRow("int32 TANH") << static_cast<int>(OpType::Tanh) << static_cast<int>(DType::Int32)
                                << "TANH does not support int32 input with int32 output";
  }

  void whatTheReferenceRefusesIsRefusedWithItsReason() {
    QFETCH(int, type);
    QFETCH(int, dtype);
    QFETCH(QString, reason);
    const UnaryCase c{static_cast<OpType>(type), static_cast<DType>(dtype), q(0.1f, 0),
                      static_cast<DType>(dtype), q(0.1f, 0)};
    const std::string error = test::compileError(c.graph({4}));
    QVERIFY2(error.find(reason.toStdString()) != std::string::npos, error.c_str());
  }

  void logisticInt8NeedsTheOutputZeroPointTflmAssumes() {
    UnaryCase c = test::caseNamed(kCases, "logistic int8 0.1 zp 7");
    c.outputQuant = q(1.0f / 256, 0);
    const std::string error = test::compileError(c.graph({4}));
    QVERIFY2(error.find("must have zero point -128") != std::string::npos, error.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(ActivationCodegen)

}  // namespace activation_test

#include "activation_test.moc"
