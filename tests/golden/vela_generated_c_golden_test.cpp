// Every Vela-compiled model of tests/data/models/vela compiled to C (its
// ethos-u operator a function calling the runtime's Ethos-U driver with the
// payload and flash as constants and the arena in the workspace), built
// natively once per file and run on every golden set of its original
// model: the golden bytes, exactly.
#include <QtTest>

#include <map>

#include "codegen/model_compiler.h"
#include "deploy/host_build.h"
#include "deploy/model_project_files.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "passes/pass_manager.h"

using namespace loupe;
using namespace loupe::test::ethosu;

namespace {

struct BuiltVelaModel {
  codegen::CompiledModel model;
  deploy::HostBuild build;
};

const BuiltVelaModel& builtVelaModel(const std::string& file) {
  static std::map<std::string, BuiltVelaModel> cache;
  if (auto it = cache.find(file); it != cache.end()) return it->second;
  passes::StageTimeline timeline;
  BuiltVelaModel built;
  built.model =
      codegen::compileToC(passes::runGraphPipeline(frontend::importTfliteFile(file), timeline), {});
  deploy::HostBuildOptions options;
  options.cacheRoot = test::codegenCacheRoot();
  built.build = deploy::buildHostExecutable(built.model, options);
  return cache.emplace(file, std::move(built)).first->second;
}

}  // namespace

class VelaGeneratedCGoldenTest : public QObject {
  Q_OBJECT

 private slots:
  void everyVelaFileGivesTheGoldenBytesInC_data() {
    addVelaGoldenRows();
  }

  void everyVelaFileGivesTheGoldenBytesInC() {
    QFETCH(QString, file);
    QFETCH(QString, set);
    const BuiltVelaModel& built = builtVelaModel(file.toStdString());
    const std::filesystem::path dir = set.toStdString();
    std::vector<std::vector<std::uint8_t>> inputs;
    for (std::size_t i = 0; i < built.model.graph.inputs.size(); ++i) {
      inputs.push_back(loupe::test::readBytes(dir / ("input" + std::to_string(i) + ".bin")));
    }
    const auto outputs = deploy::runHostExecutable(built.build, built.model, inputs);
    QCOMPARE(outputs.size(), built.model.graph.outputs.size());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const auto golden = loupe::test::readBytes(dir / ("output" + std::to_string(i) + ".bin"));
      QCOMPARE(outputs[i].size(), golden.size());
      QVERIFY(std::equal(outputs[i].begin(), outputs[i].end(), golden.begin()));
    }
  }

  // Only a model with an Ethos-U operator links the Ethos-U runtime sources.
  void theEthosURuntimeGoesOnlyWithAnEthosUOperator() {
    const BuiltVelaModel& built = builtVelaModel(velaFiles().front().path.string());
    QVERIFY(codegen::runsEthosU(built.model));
    QVERIFY(codegen::needsRuntimeFile(built.model, "src/ethosu/ethosu_driver.c"));
    codegen::CompiledModel withoutOne = built.model;
    withoutOne.graph.operators.clear();
    QVERIFY(!codegen::runsEthosU(withoutOne));
    QVERIFY(!codegen::needsRuntimeFile(withoutOne, "src/ethosu/ethosu_driver.c"));
    QVERIFY(codegen::needsRuntimeFile(withoutOne, "src/error.c"));
    // A firmware project's files: the driver only with the operator.
    const auto hasDriver = [](const codegen::CompiledModel& model) {
      const auto files = deploy::modelProjectFiles(model);
      return std::any_of(files.begin(), files.end(), [](const deploy::ProjectFile& f) {
        return f.path == "runtime/src/ethosu/ethosu_driver.c";
      });
    };
    QVERIFY(hasDriver(built.model));
    QVERIFY(!hasDriver(withoutOne));
  }
};

QTEST_APPLESS_MAIN(VelaGeneratedCGoldenTest)
#include "vela_generated_c_golden_test.moc"
