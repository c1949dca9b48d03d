// Every Vela-compiled model (ethos-u55-128, -256 and Vela 3.11's
// person_detect) compiled to C and run over the RPC session on the
// Cortex-M55 board (QEMU mps3-an547): its ethos-u operator's function drives
// the Ethos-U functional model in the firmware, and the board gives the
// original model's golden bytes, as the reference interpreter does. One
// firmware per file, its first golden set (the host and the reference run
// every set: golden_vela_generated_c, golden_vela_reference).
#include <QtTest>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"

using namespace loupe;
using namespace loupe::test::ethosu;

class DeployVela : public QObject {
  Q_OBJECT

 private slots:
  void velaModelGivesTheGoldenBytesOnTheM55Board_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("set");
    for (const auto& f : velaFiles()) {
      const auto sets = goldenSets(f.model);
      QVERIFY(!sets.empty());
      QTest::newRow(f.name.c_str()) << QString::fromStdString(f.path.string())
                                    << QString::fromStdString(sets.front().string());
    }
  }

  void velaModelGivesTheGoldenBytesOnTheM55Board() {
    QFETCH(QString, file);
    QFETCH(QString, set);
    const deploy::Registries registries = plugins::builtinRegistries();
    const std::filesystem::path dir = set.toStdString();
    const auto graph = frontend::importTfliteFile(file.toStdString());
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find("qemu-mps3-an547");
    request.compile = {graph, target::parseTargetString("c", registries.targets), {}};
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      request.inputs.push_back(
          loupe::test::readBytes(dir / ("input" + std::to_string(i) + ".bin")));
    }
    std::vector<std::vector<std::uint8_t>> golden;
    for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
      golden.push_back(loupe::test::readBytes(dir / ("output" + std::to_string(i) + ".bin")));
    }
    request.goldenOutputs = golden;
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    QVERIFY2(run.outputsBitExact(), run.checks.back().message.c_str());
    QCOMPARE(run.outputs.size(), golden.size());
    for (std::size_t i = 0; i < golden.size(); ++i) QVERIFY(run.outputs[i] == golden[i]);
  }
};

QTEST_APPLESS_MAIN(DeployVela)
#include "deploy_vela_test.moc"
