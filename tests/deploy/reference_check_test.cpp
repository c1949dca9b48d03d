// The verdict on a board's outputs: equal bytes agree; a wrong byte or a
// wrong size is located in the message. float32 outputs agree with the
// reference interpreter within kMaxReferenceUlps, said as such and not as
// bit-exact, and differ beyond it; integers have no tolerance; a NaN agrees
// only with a NaN. Against TFLite's golden outputs, float32 may be off by a
// few ulp and no more. Golden sets beside a model are
// found in order, real inputs first, and a set that does not fit the model
// is left out with the reason; a set named directly is refused with it.
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "deploy/golden_sets.h"
#include "deploy/reference_check.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;

namespace {

// Output 0: TANH of 8 floats (float32); output 1: CAST of 8 others to int32.
ir::Graph floatAndIntegerModel() {
  test::GraphBuilder g;
  const int x = g.tensor("x", ir::DType::Float32, {1, 8});
  const int z = g.tensor("z", ir::DType::Float32, {1, 8});
  const int tanh = g.tensor("tanh", ir::DType::Float32, {1, 8});
  const int cast = g.tensor("cast", ir::DType::Int32, {1, 8});
  g.op(ir::OpType::Tanh, {x}, {tanh});
  g.op(ir::OpType::Cast, {z}, {cast});
  return g.inputs({x, z}).outputs({tanh, cast}).build();
}

std::vector<std::uint8_t> bytesOf(const std::vector<float>& values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// tanh(0) is +0 (element 1), tanh(NaN) a NaN (element 7).
const std::vector<std::vector<std::uint8_t>> kInputs = {
    bytesOf(std::vector<float>{0.125f, 0.0f, 0.5f, -0.75f, 1.5f, -2.0f, 0.3f,
                               std::numeric_limits<float>::quiet_NaN()}),
    bytesOf(std::vector<float>{1.0f, 2.5f, -3.0f, 40.0f, 0.0f, 7.9f, -8.1f, 100.0f})};

std::vector<std::vector<std::uint8_t>> referenceOutputs(const ir::Graph& graph) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < kInputs.size(); ++i) interpreter.setInput(i, kInputs[i]);
  interpreter.invoke();
  return {{interpreter.output(0).begin(), interpreter.output(0).end()},
          {interpreter.output(1).begin(), interpreter.output(1).end()}};
}

float floatAt(const std::vector<std::uint8_t>& bytes, std::size_t element) {
  float value;
  std::memcpy(&value, bytes.data() + 4 * element, 4);
  return value;
}

void setBits(std::vector<std::uint8_t>& bytes, std::size_t element, std::uint32_t bits) {
  std::memcpy(bytes.data() + 4 * element, &bits, 4);
}

// `ulps` representable floats further from zero.
void nudge(std::vector<std::uint8_t>& bytes, std::size_t element, std::int32_t ulps) {
  std::int32_t bits;
  std::memcpy(&bits, bytes.data() + 4 * element, 4);
  bits += ulps;
  std::memcpy(bytes.data() + 4 * element, &bits, 4);
}

// What the message says of the relative error, |board - reference| / |reference|.
QString relativeError(float board, float reference) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g",
                std::abs(static_cast<double>(board) - reference) / std::abs(reference));
  return text;
}

}  // namespace

class ReferenceCheck : public QObject {
  Q_OBJECT

 private slots:
  void locatesDifferences() {
    const auto dir = test::modelsDir() / "kws_ref_model";
    const ir::Graph graph = frontend::importTfliteFile(dir / "model.tflite");
    const std::vector<std::vector<std::uint8_t>> inputs = {
        test::readBytes(dir / "golden" / "seed1" / "input0.bin")};
    std::vector<std::uint8_t> output = test::readBytes(dir / "golden" / "seed1" / "output0.bin");

    auto checks = deploy::checkAgainstReference(graph, inputs, {output});
    QCOMPARE(checks.size(), std::size_t{1});
    QVERIFY2(checks[0].agrees, checks[0].message.c_str());
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 agrees with the reference interpreter (bit-exact)"));
    // The Deploy panel's metrics: none of the 12 values is off.
    QVERIFY(checks[0].metrics.has_value());
    QCOMPARE(checks[0].metrics->differingElements.value_or(-1), 0);
    QCOMPARE(checks[0].metrics->maxAbsoluteError.value_or(-1), 0.0);

    const std::uint8_t expected = output[7];
    output[7] = static_cast<std::uint8_t>(expected + 1);
    checks = deploy::checkAgainstReference(graph, inputs, {output});
    QVERIFY(!checks[0].agrees);
    QCOMPARE(
        QString::fromStdString(checks[0].message),
        QString("output 0 differs from the reference: 1 of 12 bytes (first at byte 7: %1 vs %2)")
            .arg(output[7])
            .arg(expected));
    // One step of the output scale (1/256) on one element.
    QVERIFY(checks[0].metrics.has_value());
    QCOMPARE(checks[0].metrics->differingElements.value_or(-1), 1);
    QCOMPARE(checks[0].metrics->maxAbsoluteError.value_or(-1), 1.0 / 256);

    output.pop_back();
    checks = deploy::checkAgainstReference(graph, inputs, {output});
    QVERIFY(!checks[0].agrees);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 has 11 bytes, the reference 12"));
    QVERIFY(!checks[0].metrics.has_value());
  }

  void goldenIntegersMustBeExact() {
    const auto dir = test::modelsDir() / "kws_ref_model";
    const ir::Graph graph = frontend::importTfliteFile(dir / "model.tflite");
    const std::vector<std::uint8_t> golden =
        test::readBytes(dir / "golden" / "real1" / "output0.bin");
    auto checks = deploy::checkAgainstGolden(graph, {golden}, {golden});
    QVERIFY(checks[0].agrees);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 equals TFLite's (bit-exact)"));
    std::vector<std::uint8_t> board = golden;
    board[3] = static_cast<std::uint8_t>(board[3] ^ 1);
    checks = deploy::checkAgainstGolden(graph, {board}, {golden});
    QVERIFY(!checks[0].agrees);
    QVERIFY2(
        QString::fromStdString(checks[0].message)
            .startsWith("output 0 differs from TFLite's output: 1 of 12 bytes (first at byte 3"),
        checks[0].message.c_str());
  }

  void goldenFloatsWithinFourUlp() {
    const auto dir = test::modelsDir() / "hello_world_float";
    const ir::Graph graph = frontend::importTfliteFile(dir / "model.tflite");
    const std::vector<std::uint8_t> golden =
        test::readBytes(dir / "golden" / "seed1" / "output0.bin");
    QCOMPARE(golden.size(), std::size_t{4});
    auto nudged = [&](std::int32_t ulps) {
      std::int32_t bits;
      std::memcpy(&bits, golden.data(), 4);
      bits += ulps;
      std::vector<std::uint8_t> board(4);
      std::memcpy(board.data(), &bits, 4);
      return board;
    };
    auto checks = deploy::checkAgainstGolden(graph, {nudged(3)}, {golden});
    QVERIFY(checks[0].agrees);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 is within 3 ulp of TFLite's"));
    checks = deploy::checkAgainstGolden(graph, {nudged(5)}, {golden});
    QVERIFY(!checks[0].agrees);
    QVERIFY2(
        QString::fromStdString(checks[0].message)
            .startsWith("output 0 differs from TFLite's by more than 4 ulp in 1 of 1 elements"),
        checks[0].message.c_str());
    QCOMPARE(deploy::ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
    QCOMPARE(deploy::ulpDistance(-0.0f, 0.0f), 0u);
  }

  void floatOutputsAgreeWithinTheTolerance() {
    const ir::Graph graph = floatAndIntegerModel();
    const auto reference = referenceOutputs(graph);
    QVERIFY(std::isnan(floatAt(reference[0], 7)));

    auto checks = deploy::checkAgainstReference(graph, kInputs, reference);
    QCOMPARE(checks.size(), std::size_t{2});
    for (const auto& check : checks) {
      QVERIFY(check.agrees);
      QVERIFY(check.bitExact);
    }
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 agrees with the reference interpreter (bit-exact)"));
    QCOMPARE(QString::fromStdString(deploy::referenceVerdict(checks)),
             QString("outputs agree with the reference interpreter (bit-exact)"));

    // Two elements a few ulp off: agrees, but not bit-exact, and says how far.
    std::vector<std::uint8_t> board = reference[0];
    nudge(board, 2, 3);
    nudge(board, 5, -1);
    checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(checks[0].agrees);
    QVERIFY(!checks[0].bitExact);
    QVERIFY(checks[1].bitExact);
    const QString worst =
        std::max(relativeError(floatAt(board, 2), floatAt(reference[0], 2)),
                 relativeError(floatAt(board, 5), floatAt(reference[0], 5)),
                 [](const QString& a, const QString& b) { return a.toDouble() < b.toDouble(); });
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 agrees with the reference interpreter within 3 ulp (2 of 8 "
                     "elements differ, max relative error %1)")
                 .arg(worst));
    QVERIFY(worst.toDouble() > 1e-7 && worst.toDouble() < 4e-7);
    QCOMPARE(QString::fromStdString(deploy::referenceVerdict(checks)),
             QString("outputs agree with the reference interpreter within 32 ulp (float32, not "
                     "bit-exact)"));
    // The metrics are still those of validate.
    QCOMPARE(checks[0].metrics->differingElements.value_or(-1), 2);

    // Exactly the tolerance agrees; one ulp more differs, with the count, the
    // worst distance, the relative error and the first element beyond it.
    board = reference[0];
    nudge(board, 4, static_cast<std::int32_t>(deploy::kMaxReferenceUlps));
    checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(checks[0].agrees);
    QVERIFY2(QString::fromStdString(checks[0].message)
                 .startsWith("output 0 agrees with the reference interpreter within 32 ulp (1 "
                             "of 8 elements differ"),
             checks[0].message.c_str());
    board = reference[0];
    nudge(board, 0, 2);
    nudge(board, 4, 33);
    nudge(board, 6, 40);
    checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(!checks[0].agrees);
    QVERIFY(!checks[0].bitExact);
    QVERIFY(checks[1].agrees);
    char first[64];
    std::snprintf(first, sizeof first, "%.9g vs %.9g", static_cast<double>(floatAt(board, 4)),
                  static_cast<double>(floatAt(reference[0], 4)));
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 differs from the reference: 2 of 8 elements by more than 32 ulp "
                     "(worst 40 ulp, max relative error %1; first at element 4: %2)")
                 .arg(relativeError(floatAt(board, 6), floatAt(reference[0], 6)), first));
    QVERIFY(deploy::referenceVerdict(checks).empty());
  }

  void integerOutputsHaveNoTolerance() {
    const ir::Graph graph = floatAndIntegerModel();
    const auto reference = referenceOutputs(graph);
    std::vector<std::uint8_t> board = reference[1];
    std::int32_t value;
    std::memcpy(&value, board.data() + 12, 4);
    QCOMPARE(value, 40);
    ++value;  // one LSB of an int32
    std::memcpy(board.data() + 12, &value, 4);
    const auto checks = deploy::checkAgainstReference(graph, kInputs, {reference[0], board});
    QVERIFY(checks[0].bitExact);
    QVERIFY(!checks[1].agrees);
    QVERIFY(!checks[1].bitExact);
    QCOMPARE(QString::fromStdString(checks[1].message),
             QString("output 1 differs from the reference: 1 of 32 bytes (first at byte 12: 41 "
                     "vs 40)"));
    QVERIFY(deploy::referenceVerdict(checks).empty());
  }

  void nanAgreesOnlyWithNan() {
    const ir::Graph graph = floatAndIntegerModel();
    const auto reference = referenceOutputs(graph);
    std::uint32_t nanBits;
    std::memcpy(&nanBits, reference[0].data() + 28, 4);

    // The same NaN: bit-exact. A NaN of the other sign (x86's default NaN is
    // negative, Arm's positive), and -0 for +0: equal values, other bits.
    std::vector<std::uint8_t> board = reference[0];
    setBits(board, 7, nanBits ^ 0x80000000u);
    setBits(board, 1, 0x80000000u);
    auto checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(checks[0].agrees);
    QVERIFY(!checks[0].bitExact);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 agrees with the reference interpreter within 0 ulp (2 of 8 "
                     "elements differ, 1 zero of the other sign, 1 NaN of other bits)"));

    // A number where the reference has a NaN, and a NaN where it has a number.
    board = reference[0];
    setBits(board, 7, 0x3f000000u);  // 0.5
    checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(!checks[0].agrees);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 differs from the reference: 1 of 8 elements by more than 32 ulp "
                     "(1 NaN or infinite against another value; first at element 7: 0.5 vs "
                     "%1)")
                 .arg(std::signbit(floatAt(reference[0], 7)) ? "-nan" : "nan"));
    board = reference[0];
    setBits(board, 3, 0x7fc00000u);
    checks = deploy::checkAgainstReference(graph, kInputs, {board, reference[1]});
    QVERIFY(!checks[0].agrees);
    QVERIFY2(QString::fromStdString(checks[0].message)
                 .startsWith("output 0 differs from the reference: 1 of 8 elements by more "
                             "than 32 ulp (1 NaN or infinite against another value; first at "
                             "element 3: nan vs "),
             checks[0].message.c_str());

    // Infinity is one ulp from FLT_MAX, and still not a number close to it
    // (TFLite's golden outputs are compared the same way, within 4 ulp).
    std::vector<std::uint8_t> golden = reference[0];
    setBits(golden, 0, 0x7f7fffffu);  // FLT_MAX
    board = golden;
    setBits(board, 0, 0x7f800000u);  // +infinity
    QCOMPARE(deploy::ulpDistance(floatAt(board, 0), floatAt(golden, 0)), 1u);
    checks = deploy::checkAgainstGolden(graph, {board, reference[1]}, {golden, reference[1]});
    QVERIFY(!checks[0].agrees);
    QVERIFY2(QString::fromStdString(checks[0].message)
                 .startsWith("output 0 differs from TFLite's by more than 4 ulp in 1 of 8 "
                             "elements (1 NaN or infinite against another value; first at "
                             "element 0: inf vs 3.40282347e+38)"),
             checks[0].message.c_str());
  }

  void goldenSetsBesideTheModelRealFirstAndChecked() {
    QTemporaryDir temp;
    const std::filesystem::path root = temp.path().toStdString();
    const auto source = test::modelsDir() / "kws_ref_model";
    std::filesystem::copy_file(source / "model.tflite", root / "model.tflite");
    for (const char* set : {"seed1", "real2"}) {
      std::filesystem::create_directories(root / "golden" / set);
      for (const char* file : {"input0.bin", "output0.bin"}) {
        std::filesystem::copy_file(source / "golden" / set / file, root / "golden" / set / file);
      }
    }
    std::filesystem::create_directories(root / "golden" / "short");
    std::filesystem::copy_file(source / "golden" / "seed1" / "input0.bin",
                               root / "golden" / "short" / "input0.bin");
    std::ofstream(root / "golden" / "short" / "output0.bin") << "abc";
    std::filesystem::create_directories(root / "golden" / "empty");

    const ir::Graph graph = frontend::importTfliteFile(root / "model.tflite");
    const deploy::GoldenSets found = deploy::findGoldenSets(root / "model.tflite", graph);
    QCOMPARE(found.sets.size(), std::size_t{2});
    QCOMPARE(found.sets[0].name, std::string("real2"));
    QCOMPARE(found.sets[1].name, std::string("seed1"));
    QCOMPARE(found.sets[0].inputs, std::vector{root / "golden" / "real2" / "input0.bin"});
    QCOMPARE(found.sets[0].outputs, std::vector{root / "golden" / "real2" / "output0.bin"});
    QCOMPARE(found.skipped.size(), std::size_t{2});
    QVERIFY2(QString::fromStdString(found.skipped[0])
                 .startsWith("empty: input0.bin is missing (for input 0 '"),
             found.skipped[0].c_str());
    QVERIFY2(QString::fromStdString(found.skipped[1])
                 .startsWith("short: output0.bin has 3 bytes, output 0 '"),
             found.skipped[1].c_str());
    QVERIFY2(QString::fromStdString(found.skipped[1]).endsWith("' needs 12"),
             found.skipped[1].c_str());
    // No golden/ folder: no sets, nothing skipped.
    QVERIFY(deploy::findGoldenSets(root / "golden" / "model.tflite", graph).sets.empty());

    // A set the user names is checked the same way, and refused with the reason.
    const deploy::GoldenSet named = deploy::goldenSetIn(root / "golden" / "seed1" / "", graph);
    QCOMPARE(named.name, std::string("seed1"));
    QCOMPARE(named.outputs, std::vector{root / "golden" / "seed1" / "output0.bin"});
    QCOMPARE(deploy::readGoldenFiles(named.outputs)[0],
             test::readBytes(source / "golden" / "seed1" / "output0.bin"));
    for (const char* set : {"short", "missing"}) {
      try {
        deploy::goldenSetIn(root / "golden" / set, graph);
        QFAIL(set);
      } catch (const std::invalid_argument& error) {
        const QString message = error.what();
        QVERIFY2(message.startsWith("the golden set " +
                                    QString::fromStdString((root / "golden" / set).string())),
                 error.what());
        QVERIFY2(message.endsWith(std::string(set) == "short" ? "' needs 12" : " does not exist"),
                 error.what());
      }
    }
  }
};

QTEST_GUILESS_MAIN(ReferenceCheck)
#include "reference_check_test.moc"
