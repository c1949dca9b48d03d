// The reference interpreter against TFLite Micro's golden data: every model,
// every golden set, bit-exact outputs (float32: within a few ulp), every
// per-tensor dump, and every SEANet per-layer case. Expected values are read
// from the golden files only.
#include <QtTest>

#include <cstring>
#include <fstream>

#include "frontend/tflite_importer.h"
#include "golden_compare.h"
#include "golden_sets.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using loupe::test::GoldenSet;

namespace {

// Runs `body`; an exception (an unsupported operator, say) fails this test
// row with its message instead of aborting the whole suite.
#define FAIL_ON_EXCEPTION(body)           \
  try {                                   \
    body                                  \
  } catch (const std::exception& error) { \
    QFAIL(error.what());                  \
  }

}  // namespace

class ReferenceMatchesGolden : public QObject {
  Q_OBJECT

  std::vector<GoldenSet> sets_ = loupe::test::goldenSets();
  std::vector<loupe::test::SeanetCase> seanetCases_ = loupe::test::seanetCases();

 private slots:
  void initTestCase() {
    QVERIFY2(sets_.size() >= 40, "the project's golden sets are missing from tests/data/models");
    // Every model's seed1 set carries a per-tensor dump (tests/data/models/README.md).
    for (const GoldenSet& set : sets_) {
      if (set.name.ends_with("/seed1")) QVERIFY2(set.tensorDumps.has_value(), set.name.c_str());
    }
  }

  void outputsMatch_data() {
    QTest::addColumn<int>("set");
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      QTest::newRow(sets_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void outputsMatch() {
    QFETCH(int, set);
    FAIL_ON_EXCEPTION({
      const GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
      const auto graph = loupe::frontend::importTfliteFile(golden.model);
      loupe::reference::ReferenceInterpreter interpreter(graph);
      for (std::size_t i = 0; i < golden.inputs.size(); ++i) {
        interpreter.setInput(i, loupe::test::readBytes(golden.inputs[i]));
      }
      interpreter.invoke();
      for (std::size_t i = 0; i < golden.outputs.size(); ++i) {
        const auto expected = loupe::test::readBytes(golden.outputs[i]);
        const auto dtype = golden.manifest["outputs"][i]["dtype"].get<std::string>();
        const QString difference =
            loupe::test::compareBytes(interpreter.output(i), expected, dtype);
        QVERIFY2(difference.isEmpty(), qPrintable(QString("output %1: %2").arg(i).arg(difference)));
      }
    })
  }

  void tensorDumpsMatch_data() {
    QTest::addColumn<int>("set");
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      if (sets_[i].tensorDumps) QTest::newRow(sets_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void tensorDumpsMatch() {
    QFETCH(int, set);
    FAIL_ON_EXCEPTION({
      const GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
      const auto graph = loupe::frontend::importTfliteFile(golden.model);
      loupe::reference::ReferenceInterpreter interpreter(graph);
      for (std::size_t i = 0; i < golden.inputs.size(); ++i) {
        interpreter.setInput(i, loupe::test::readBytes(golden.inputs[i]));
      }
      interpreter.invoke();
      std::ifstream indexFile(*golden.tensorDumps / "index.json");
      auto index = nlohmann::json::parse(indexFile);
      // Compare in execution order so the first failure is where a bug starts.
      std::stable_sort(index.begin(), index.end(), [](const auto& a, const auto& b) {
        return a["producer_op_index"].template get<int>() <
               b["producer_op_index"].template get<int>();
      });
      int compared = 0;
      for (const auto& entry : index) {
        if (entry["file"].is_null()) continue;
        const int tensor = entry["tensor_index"].get<int>();
        const auto expected =
            loupe::test::readBytes(*golden.tensorDumps / entry["file"].get<std::string>());
        const QString difference = loupe::test::compareBytes(
            interpreter.tensorBytes(tensor), expected, entry["dtype"].get<std::string>());
        QVERIFY2(difference.isEmpty(),
                 qPrintable(
                     QString("tensor %1 '%2' (written by operator %3 %4): %5")
                         .arg(tensor)
                         .arg(QString::fromStdString(entry["name"].get<std::string>()))
                         .arg(entry["producer_op_index"].get<int>())
                         .arg(QString::fromStdString(entry["producer_op"].is_null()
                                                         ? "input"
                                                         : entry["producer_op"].get<std::string>()))
                         .arg(difference)));
        ++compared;
      }
      QVERIFY(compared > 0);
    })
  }

  void seanetCasesMatch_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    const auto& cases = seanetCases_;
    QCOMPARE(cases.size(), std::size_t{17 + 22 + 19});
    for (std::size_t i = 0; i < cases.size(); ++i) {
      QTest::newRow(cases[i].name.c_str())
          << QString::fromStdString(cases[i].name) << static_cast<int>(i);
    }
  }

  void seanetCasesMatch() {
    QFETCH(int, index);
    FAIL_ON_EXCEPTION({
      const auto& c = seanetCases_[static_cast<std::size_t>(index)];
      const auto graph = loupe::frontend::importTfliteFile(c.model);
      loupe::reference::ReferenceInterpreter interpreter(graph);
      QCOMPARE(c.inputs.size(), graph.inputs.size());
      const auto inputs = c.inputBytes();
      for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
      interpreter.invoke();
      const QString difference =
          loupe::test::compareBytes(interpreter.output(0), c.expectedBytes(), "int16");
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    })
  }
};

QTEST_APPLESS_MAIN(ReferenceMatchesGolden)
#include "reference_matches_golden_test.moc"
