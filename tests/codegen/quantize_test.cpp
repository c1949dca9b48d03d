// QUANTIZE and DEQUANTIZE through TIR and generated C, byte for byte against
// the reference interpreter: every dtype pair the reference kernels accept,
// several scales and zero points (some saturating most of the range), inputs
// that start at the type's edges (every 8-bit value; INT32_MIN/MAX; inf, NaN
// and extremes for float32), on 1, 13 and 285 elements. The printed TIR shows
// which inputs read a compile-time table and which call loupe_requantize,
// loupe_quantize_f32 or loupe_dequantize per element.
#include <QtTest>

#include "test_group.h"
#include "unary_codegen_cases.h"

namespace quantize_test {

using namespace loupe;
using loupe::test::UnaryCase;

namespace {

using ir::DType;
using ir::OpType;

ir::Quantization q(float scale, std::int64_t zeroPoint) {
  return test::perTensor(scale, zeroPoint);
}

UnaryCase quantize(DType in, ir::Quantization inQuant, DType out, ir::Quantization outQuant,
                   float floatRange = 12.0f) {
  return {OpType::Quantize, in, std::move(inQuant), out, std::move(outQuant), {}, floatRange};
}

UnaryCase dequantize(DType in, ir::Quantization inQuant) {
  return {OpType::Dequantize, in, std::move(inQuant), DType::Float32, {}};
}

const test::NamedUnaryCase kCases[] = {
    {"float32 -> int8 0.1 zp 3", quantize(DType::Float32, {}, DType::Int8, q(0.1f, 3))},
    {"float32 -> int8 1/128 zp -128",
     quantize(DType::Float32, {}, DType::Int8, q(1.0f / 128, -128), 1.0f)},
    {"float32 -> int8 0.001 saturating",
     quantize(DType::Float32, {}, DType::Int8, q(0.001f, 0), 1.0f)},
    {"float32 -> int16 0.001", quantize(DType::Float32, {}, DType::Int16, q(0.001f, 0), 40.0f)},
    {"float32 -> int16 2^-15",
     quantize(DType::Float32, {}, DType::Int16, q(1.0f / 32768, 0), 1.0f)},
    {"float32 -> int16 0.5 zp -100",
     quantize(DType::Float32, {}, DType::Int16, q(0.5f, -100), 20000.0f)},

    {"int8 -> int8 rescale", quantize(DType::Int8, q(0.1f, 3), DType::Int8, q(0.05f, -7))},
    {"int8 -> int8 identity", quantize(DType::Int8, q(0.1f, 3), DType::Int8, q(0.1f, 3))},
    {"int8 -> int8 coarser", quantize(DType::Int8, q(0.01f, 0), DType::Int8, q(1.0f, 0))},
    {"int8 -> uint8 +128", quantize(DType::Int8, q(0.1f, 3), DType::UInt8, q(0.1f, 131))},
    {"int8 -> uint8 saturating", quantize(DType::Int8, q(0.05f, -10), DType::UInt8, q(0.02f, 0))},
    {"int8 -> int16", quantize(DType::Int8, q(0.1f, 3), DType::Int16, q(0.001f, 0))},
    {"int8 -> int16 saturating", quantize(DType::Int8, q(1.0f, 0), DType::Int16, q(1e-5f, 0))},
    {"int8 -> int32", quantize(DType::Int8, q(0.1f, 3), DType::Int32, q(0.001f, 0))},
    {"int8 -> int32 large multiplier",
     quantize(DType::Int8, q(0.5f, -128), DType::Int32, q(1e-6f, 1000))},
    {"uint8 -> int8 -128", quantize(DType::UInt8, q(0.1f, 131), DType::Int8, q(0.1f, 3))},
    {"uint8 -> int8 rescale", quantize(DType::UInt8, q(0.02f, 128), DType::Int8, q(0.05f, -1))},
    {"int16 -> int8", quantize(DType::Int16, q(0.001f, 0), DType::Int8, q(0.1f, 3))},
    {"int16 -> int8 saturating", quantize(DType::Int16, q(0.001f, 0), DType::Int8, q(1e-5f, 0))},
    {"int16 -> int16 rescale", quantize(DType::Int16, q(0.001f, 0), DType::Int16, q(0.002f, 0))},
    {"int16 -> int16 saturating",
     quantize(DType::Int16, q(0.001f, 0), DType::Int16, q(0.0001f, 0))},
    {"int16 -> int16 zero points",
     quantize(DType::Int16, q(0.5f, 100), DType::Int16, q(0.25f, -50))},
    {"int16 -> int32", quantize(DType::Int16, q(0.001f, 0), DType::Int32, q(0.0001f, 5))},
    {"int32 -> int8", quantize(DType::Int32, q(0.0001f, 0), DType::Int8, q(0.1f, 3))},
    {"int32 -> int8 saturating", quantize(DType::Int32, q(1.0f, 10), DType::Int8, q(0.5f, -5))},
    {"int32 -> int16", quantize(DType::Int32, q(1e-4f, 0), DType::Int16, q(1e-3f, 0))},
    {"int32 -> int16 saturating", quantize(DType::Int32, q(2.0f, -7), DType::Int16, q(0.001f, 0))},

    {"dequantize int8 0.1 zp 3", dequantize(DType::Int8, q(0.1f, 3))},
    {"dequantize int8 1e-30 zp -128", dequantize(DType::Int8, q(1e-30f, -128))},
    {"dequantize uint8 0.02 zp 128", dequantize(DType::UInt8, q(0.02f, 128))},
    {"dequantize uint8 3e37 (overflows to inf)", dequantize(DType::UInt8, q(3e37f, 0))},
    {"dequantize int16 0.001", dequantize(DType::Int16, q(0.001f, 0))},
    {"dequantize int16 0.5 zp 100", dequantize(DType::Int16, q(0.5f, 100))},
};

}  // namespace

class QuantizeCodegen : public QObject {
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

  void eightBitInputsReadATableOfTheOutputType_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("load");
    QTest::newRow("int8 -> int8") << "int8 -> int8 rescale"
                                  << R"(output_table = T.allocate_const(..., "int8", (256,)))"
                                  << R"(output[i] = output_table[T.Cast("uint8", input[i])])";
    QTest::newRow("uint8 -> int8") << "uint8 -> int8 -128"
                                   << R"(output_table = T.allocate_const(..., "int8", (256,)))"
                                   << "output[i] = output_table[input[i]]";
    QTest::newRow("int8 -> int32") << "int8 -> int32"
                                   << R"(output_table = T.allocate_const(..., "int32", (256,)))"
                                   << R"(output[i] = output_table[T.Cast("uint8", input[i])])";
    QTest::newRow("dequantize int8") << "dequantize int8 0.1 zp 3"
                                     << R"(output_table = T.allocate_const(..., "float32", (256,)))"
                                     << R"(output[i] = output_table[T.Cast("uint8", input[i])])";
  }

  void eightBitInputsReadATableOfTheOutputType() {
    QFETCH(QString, name);
    QFETCH(QString, table);
    QFETCH(QString, load);
    const std::string tir = test::unaryTir(test::caseNamed(kCases, name.toUtf8().constData()));
    QVERIFY2(tir.find(table.toStdString()) != std::string::npos, tir.c_str());
    QVERIFY2(tir.find(load.toStdString()) != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("T.call_intrin") == std::string::npos, tir.c_str());
  }

  void otherInputsCallTheSharedHelpers_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("call");
    QTest::newRow("float32 -> int8")
        << "float32 -> int8 0.1 zp 3"
        << R"(T.Cast("int8", T.call_intrin("int32", "loupe.quantize_f32", input[i], T.float32(0.100000001), 3, -128, 127)))";
    QTest::newRow("int16 -> int16")
        << "int16 -> int16 rescale"
        << R"(T.call_intrin("int32", "loupe.requantize", T.Cast("int32", input[i]), 0, )";
    QTest::newRow("int32 -> int8") << "int32 -> int8"
                                   << R"(T.call_intrin("int32", "loupe.requantize", input[i], 0, )";
    QTest::newRow("dequantize int16")
        << "dequantize int16 0.001"
        << R"(T.call_intrin("float32", "loupe.dequantize", T.Cast("int32", input[i]), )";
    // 255 * 3e37 has no float: the table cannot be written, the helper runs.
    QTest::newRow("dequantize uint8 to inf")
        << "dequantize uint8 3e37 (overflows to inf)"
        << R"(T.call_intrin("float32", "loupe.dequantize", T.Cast("int32", input[i]), )";
  }

  void otherInputsCallTheSharedHelpers() {
    QFETCH(QString, name);
    QFETCH(QString, call);
    const std::string tir = test::unaryTir(test::caseNamed(kCases, name.toUtf8().constData()));
    QVERIFY2(tir.find(call.toStdString()) != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("allocate_const") == std::string::npos, tir.c_str());
  }

  void whatTheReferenceRefusesIsRefusedWithItsReason_data() {
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("out");
    QTest::addColumn<bool>("perChannelInput");
    QTest::addColumn<QString>("reason");
    QTest::newRow("QUANTIZE float32 -> uint8")
        << static_cast<int>(DType::Float32) << static_cast<int>(DType::UInt8) << false
        << "#0 QUANTIZE: QUANTIZE does not support float32 input with uint8 output";
    QTest::newRow("QUANTIZE uint8 -> int16")
        << static_cast<int>(DType::UInt8) << static_cast<int>(DType::Int16) << false
        << "QUANTIZE does not support uint8 input with int16 output";
    QTest::newRow("QUANTIZE per-channel int8 input")
        << static_cast<int>(DType::Int8) << static_cast<int>(DType::Int8) << true
        << "quantised per channel";
  }

  void whatTheReferenceRefusesIsRefusedWithItsReason() {
    QFETCH(int, in);
    QFETCH(int, out);
    QFETCH(bool, perChannelInput);
    QFETCH(QString, reason);
    const auto inType = static_cast<DType>(in);
    ir::Quantization inQuant = inType == DType::Float32 ? ir::Quantization{} : q(0.1f, 0);
    if (perChannelInput) inQuant = test::perChannel({0.1f, 0.2f}, 0);
    const UnaryCase c = quantize(inType, inQuant, static_cast<DType>(out), q(0.1f, 0));
    const std::string error = test::compileError(c.graph({2, 3}));
    QVERIFY2(error.find(reason.toStdString()) != std::string::npos, error.c_str());
  }

  void dequantizeOfFloatIsRefused() {
    const UnaryCase c = dequantize(DType::Float32, {});
    const std::string error = test::compileError(c.graph({3}));
    QVERIFY2(error.find("DEQUANTIZE does not support float32 input with float32 output") !=
                 std::string::npos,
             error.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(QuantizeCodegen)

}  // namespace quantize_test

#include "quantize_test.moc"
