// The verdict on a board's outputs: equal bytes agree; a wrong byte or a
// wrong size is located in the message.
#include <QtTest>

#include "frontend/tflite_importer.h"
#include "project/reference_check.h"
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

    auto checks = project::checkAgainstReference(graph, inputs, {output});
    QCOMPARE(checks.size(), std::size_t{1});
    QVERIFY2(checks[0].agrees, checks[0].message.c_str());
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 agrees with the reference interpreter (bit-exact)"));

    const std::uint8_t expected = output[7];
    output[7] = static_cast<std::uint8_t>(expected + 1);
    checks = project::checkAgainstReference(graph, inputs, {output});
    QVERIFY(!checks[0].agrees);
    QCOMPARE(
        QString::fromStdString(checks[0].message),
        QString("output 0 differs from the reference: 1 of 12 bytes (first at byte 7: %1 vs %2)")
            .arg(output[7])
            .arg(expected));

    output.pop_back();
    checks = project::checkAgainstReference(graph, inputs, {output});
    QVERIFY(!checks[0].agrees);
    QCOMPARE(QString::fromStdString(checks[0].message),
             QString("output 0 has 11 bytes, the reference 12"));
  }
};

QTEST_GUILESS_MAIN(ReferenceCheck)
#include "reference_check_test.moc"
