// Every shared model and every golden set through the whole C path — graph
// passes, TIR, generated C built natively at -O2, run as a child process —
// against TFLite Micro's golden outputs: bit-exact (float32 within a few ulp),
// and every TFLM SEANet per-layer case likewise. Each model is built once.
#include <QtTest>

#include <map>

#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "golden_compare.h"
#include "golden_sets.h"
#include "passes/pass_manager.h"
#include "project/host_build.h"
#include "test_data.h"

using namespace loupe;

namespace {

struct Built {
  codegen::CompiledModel model;
  project::HostBuild build;
};

const Built& builtModel(const std::filesystem::path& path) {
  static std::map<std::filesystem::path, Built> cache;
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  passes::StageTimeline timeline;
  Built built;
  built.model =
      codegen::compileToC(passes::runGraphPipeline(frontend::importTfliteFile(path), timeline), {});
  project::HostBuildOptions options;
  options.cacheRoot = test::codegenCacheRoot();
  built.build = project::buildHostExecutable(built.model, options);
  return cache.emplace(path, std::move(built)).first->second;
}

}  // namespace

class GeneratedCMatchesGolden : public QObject {
  Q_OBJECT

  std::vector<test::GoldenSet> sets_ = test::goldenSets();
  std::vector<test::SeanetCase> seanet_ = test::seanetCases();

 private slots:
  void outputsMatch_data() {
    QTest::addColumn<int>("set");
    QVERIFY(sets_.size() >= 40);
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      QTest::newRow(sets_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void outputsMatch() {
    QFETCH(int, set);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      const Built& built = builtModel(golden.model);
      std::vector<test::Bytes> inputs;
      for (const auto& file : golden.inputs) inputs.push_back(test::readBytes(file));
      const auto outputs = project::runHostExecutable(built.build, built.model, inputs);
      QCOMPARE(outputs.size(), golden.outputs.size());
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto dtype = golden.manifest["outputs"][i]["dtype"].get<std::string>();
        const QString difference =
            test::compareBytes(outputs[i], test::readBytes(golden.outputs[i]), dtype);
        QVERIFY2(difference.isEmpty(), qPrintable(QString("output %1: %2").arg(i).arg(difference)));
      }
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  void seanetCasesMatch_data() {
    QTest::addColumn<int>("index");
    QCOMPARE(seanet_.size(), std::size_t{17 + 22 + 19});
    for (std::size_t i = 0; i < seanet_.size(); ++i) {
      QTest::newRow(seanet_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void seanetCasesMatch() {
    QFETCH(int, index);
    const auto& c = seanet_[static_cast<std::size_t>(index)];
    try {
      const Built& built = builtModel(c.model);
      const auto outputs = project::runHostExecutable(built.build, built.model, c.inputBytes());
      const QString difference = test::compareBytes(outputs.at(0), c.expectedBytes(), "int16");
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }
};

QTEST_APPLESS_MAIN(GeneratedCMatchesGolden)
#include "generated_c_matches_golden_test.moc"
