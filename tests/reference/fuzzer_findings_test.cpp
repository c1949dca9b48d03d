// Models that once made the reference interpreter overflow or shift out of
// range under the fuzzer (fuzz/reference_interpreter_fuzzer.cpp): each must
// import and evaluate, or be refused with a reason. Run under the asan preset
// to see undefined behaviour, not only crashes.
#include <QtTest>

#include "frontend/tflite_importer.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"
#include "test_group.h"

namespace fuzzer_findings_test {

class FuzzerFindings : public QObject {
  Q_OBJECT

 private slots:
  void evaluateOrRefuse() {
    const auto dir = loupe::test::modelsDir().parent_path() / "interpreter_regressions";
    int evaluated = 0, count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      ++count;
      try {
        const auto graph = loupe::frontend::importTfliteFile(entry.path());
        loupe::reference::ReferenceInterpreter interpreter(graph);
        interpreter.invoke();
        for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
          QCOMPARE(static_cast<std::int64_t>(interpreter.output(i).size()),
                   graph.tensor(graph.outputs[i]).byteSize());
        }
        ++evaluated;
      } catch (const loupe::frontend::ImportError&) {
      } catch (const loupe::reference::UnsupportedModelError&) {
      }
    }
    QVERIFY(count >= 2);
    qInfo("%d of %d regression models evaluated, the rest refused", evaluated, count);
  }
};

LOUPE_TEST_APPLESS_MAIN(FuzzerFindings)

}  // namespace fuzzer_findings_test

#include "fuzzer_findings_test.moc"
