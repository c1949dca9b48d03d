// The verdict on a board's outputs: equal bytes agree; a wrong byte or a
// wrong size is located in the message. Against TFLite's golden outputs,
// float32 may be off by a few ulp and no more. Golden sets beside a model are
// found in order, real inputs first, and a set that does not fit the model
// is left out with the reason; a set named directly is refused with it.
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "deploy/golden_sets.h"
#include "deploy/reference_check.h"
#include "frontend/tflite_importer.h"
#include "test_data.h"

using namespace loupe;

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
