// Every Vela-compiled model of tests/data/models/vela, on every golden set
// of its original model, run through ethosu_invoke_v3 on the functional
// model: the output bytes are the golden ones, exactly.
#include <QtTest>

#include <cstring>

#include "ethosu_test_model.h"

using namespace loupe::test::ethosu;

class EthosuGoldenTest : public QObject {
  Q_OBJECT

 private slots:
  void everyVelaFileGivesTheGoldenBytes_data() { addVelaGoldenRows(); }

  void everyVelaFileGivesTheGoldenBytes() {
    QFETCH(QString, file);
    QFETCH(QString, set);
    int accelerator = -1;
    for (const auto& f : velaFiles()) {
      if (f.path.string() == file.toStdString()) accelerator = f.accelerator;
    }
    const EthosuOperator e = loadEthosuOperator(file.toStdString());
    QVERIFY(!e.arenaOffsets.empty());
    const auto input =
        loupe::test::readBytes(std::filesystem::path(set.toStdString()) / "input0.bin");
    const auto golden =
        loupe::test::readBytes(std::filesystem::path(set.toStdString()) / "output0.bin");
    const auto inOffset = static_cast<std::size_t>(e.arenaOffsets.at(e.inputTensor()));
    const auto outOffset = static_cast<std::size_t>(e.arenaOffsets.at(e.outputTensor()));
    std::vector<std::uint8_t> arena(e.scratchSize), fast(e.fastScratchSize);
    QVERIFY(inOffset + input.size() <= arena.size());
    QVERIFY(outOffset + golden.size() <= arena.size());
    std::memcpy(arena.data() + inOffset, input.data(), input.size());

    static std::int16_t workspace[1 << 17];
    static ethosu_driver driver;
    QCOMPARE(loupe_ethosu_driver_init(&driver, accelerator, workspace, 1 << 17), 0);
    const int status = invoke(driver, e, arena, fast);
    QVERIFY2(status == 0, ethosu_last_error_message(&driver));

    int mismatches = 0;
    for (std::size_t i = 0; i < golden.size(); ++i) {
      if (arena[outOffset + i] != golden[i]) ++mismatches;
    }
    QCOMPARE(mismatches, 0);
  }
};

QTEST_APPLESS_MAIN(EthosuGoldenTest)
#include "golden_test.moc"
