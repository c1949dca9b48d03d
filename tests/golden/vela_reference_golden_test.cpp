// Every Vela-compiled model of tests/data/models/vela, imported as a model
// and run by the reference interpreter (its ethos-u operator on the Ethos-U
// functional model), gives its original model's golden bytes on every
// golden set, exactly.
#include <QtTest>

#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "reference/reference_interpreter.h"

using namespace loupe::test::ethosu;

class VelaReferenceGoldenTest : public QObject {
  Q_OBJECT

 private slots:
  void everyVelaFileGivesTheGoldenBytes_data() {
    addVelaGoldenRows();
  }

  void everyVelaFileGivesTheGoldenBytes() {
    QFETCH(QString, file);
    QFETCH(QString, set);
    const auto graph = loupe::frontend::importTfliteFile(file.toStdString());
    loupe::reference::ReferenceInterpreter interpreter(graph);
    const std::filesystem::path dir = set.toStdString();
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      interpreter.setInput(i, loupe::test::readBytes(dir / ("input" + std::to_string(i) + ".bin")));
    }
    interpreter.invoke();
    for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
      const auto golden = loupe::test::readBytes(dir / ("output" + std::to_string(i) + ".bin"));
      const auto output = interpreter.output(i);
      QCOMPARE(output.size(), golden.size());
      QVERIFY(std::equal(output.begin(), output.end(), golden.begin()));
    }
  }
};

QTEST_APPLESS_MAIN(VelaReferenceGoldenTest)
#include "vela_reference_golden_test.moc"
