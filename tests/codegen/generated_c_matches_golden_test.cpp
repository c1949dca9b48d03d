// Every shared model and every golden set through the whole C path — graph
// passes, TIR, generated C built natively at -O2, run as a child process —
// against TFLite Micro's golden outputs: bit-exact (float32 within a few ulp),
// and every TFLM SEANet per-layer case likewise. Each model is built once.
// Every memory planning algorithm, and a plan split over two pools the
// application passes in, keep the shared models bit-exact. So does
// compiling for "ethos-u -accelerator_config=ethos-u55-128, c" and running
// its operators on the functional model. So does writing outputs partly over their dying
// inputs (overlapping outputs).
#include <QtTest>

#include <map>
#include <set>

#include "deploy/host_build.h"
#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "golden_compare.h"
#include "golden_sets.h"
#include "memory/planner_registry.h"
#include "passes/pass_manager.h"
#include "target/target_lowering.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;

namespace {

struct Built {
  codegen::CompiledModel model;
  deploy::HostBuild build;
};

// `variant` names the compile options, so each model is built once per variant.
// `partitioned`: the graph to compile instead of the graph pipeline's (the
// external functions of the compile options index its regions).
const Built& builtModel(const std::filesystem::path& path,
                        const codegen::CompileOptions& compileOptions = {},
                        const std::string& variant = "default",
                        const ir::Graph* partitioned = nullptr) {
  static std::map<std::pair<std::filesystem::path, std::string>, Built> cache;
  if (auto it = cache.find({path, variant}); it != cache.end()) return it->second;
  passes::StageTimeline timeline;
  Built built;
  built.model = codegen::compileToC(
      partitioned != nullptr ? *partitioned
                             : passes::runGraphPipeline(frontend::importTfliteFile(path), timeline),
      compileOptions);
  deploy::HostBuildOptions options;
  options.cacheRoot = test::codegenCacheRoot();
  built.build = deploy::buildHostExecutable(built.model, options);
  return cache.emplace(std::pair{path, variant}, std::move(built)).first->second;
}

// The model partitioned for the Ethos-U (u55-128): each region one Ethos-U
// operator, which the host runs through Loupe's functional model.
ir::Graph ethosUPartitioned(const std::filesystem::path& path) {
  const target::TargetList targets = target::parseTargetString(
      "ethos-u -accelerator_config=ethos-u55-128, c", targets::builtinTargetRegistry());
  passes::StageTimeline timeline;
  passes::PassContext context;
  return passes::runPartitionPipeline(
      passes::runGraphPipeline(frontend::importTfliteFile(path), timeline, context), targets,
      timeline, context);
}

// Runs golden set `golden` on `built`; empty when every output matches.
QString differenceFromGolden(const Built& built, const test::GoldenSet& golden) {
  std::vector<test::Bytes> inputs;
  for (const auto& file : golden.inputs) inputs.push_back(test::readBytes(file));
  const auto outputs = deploy::runHostExecutable(built.build, built.model, inputs);
  if (outputs.size() != golden.outputs.size()) return "wrong number of outputs";
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto dtype = golden.manifest["outputs"][i]["dtype"].get<std::string>();
    const QString difference =
        test::compareBytes(outputs[i], test::readBytes(golden.outputs[i]), dtype);
    if (!difference.isEmpty()) return QString("output %1: %2").arg(i).arg(difference);
  }
  return {};
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
      const QString difference = differenceFromGolden(builtModel(golden.model), golden);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // The first golden set of every shared model, under every planner, and
  // under a plan split between a small fast pool (half the lower bound) and
  // a large one, both passed in by the application.
  void everyPlanMatches_data() {
    QTest::addColumn<int>("set");
    QTest::addColumn<QString>("planner");
    std::set<std::filesystem::path> seen;
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      if (!seen.insert(sets_[i].model).second) continue;
      for (const memory::PlannerInfo& p : memory::planners()) {
        const QString planner = QString::fromUtf8(p.name.data(), static_cast<int>(p.name.size()));
        QTest::newRow(qPrintable(QString::fromStdString(sets_[i].name) + " " + planner))
            << static_cast<int>(i) << planner;
      }
      QTest::newRow(qPrintable(QString::fromStdString(sets_[i].name) + " two pools"))
          << static_cast<int>(i) << QString();
    }
    QCOMPARE(seen.size(), std::size_t{8});
  }

  void everyPlanMatches() {
    QFETCH(int, set);
    QFETCH(QString, planner);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      codegen::CompileOptions options;
      std::string variant = planner.toStdString();
      if (planner.isEmpty()) {
        const std::int64_t bound = builtModel(golden.model).model.memoryPlan.lowerBound;
        options.externalWorkspace = true;
        options.memory.pools = {{"fast", std::max<std::int64_t>(bound / 2, 16), 16},
                                {"slow", 1 << 24, 32}};
        variant = "two pools";
      } else {
        options.memory.planner = variant;
      }
      const Built& built = builtModel(golden.model, options, variant);
      QCOMPARE(QString::fromStdString(built.model.memoryPlan.planner),
               planner.isEmpty() ? QString("branch_and_bound") : planner);
      if (planner.isEmpty() && built.model.memoryPlan.lowerBound > 32) {
        QVERIFY(built.model.memoryPlan.result.poolBytes.at(1) > 0);  // really split
      }
      const QString difference = differenceFromGolden(built, golden);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // Outputs placed partly over the inputs that die with them (memory
  // planned with --overlap-outputs, hill_climb): every golden set stays
  // bit-exact, and the plans do use overlaps, below the tensor-level bound.
  void overlappingOutputsMatch_data() { outputsMatch_data(); }

  void overlappingOutputsMatch() {
    QFETCH(int, set);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      codegen::CompileOptions options;
      options.memory.planner = "hill_climb";
      options.memory.overlapOutputs = true;
      const Built& built = builtModel(golden.model, options, "overlapping outputs");
      const memory::MemoryPlan& plan = built.model.memoryPlan;
      QVERIFY(plan.result.totalBytes <= plan.tensorLevelBound);
      if (golden.name.starts_with("kws_ref_model/") || golden.name.starts_with("vww_96_int8/") ||
          golden.name.starts_with("ic_resnet8_int8/")) {
        QVERIFY2(!plan.usedOverlaps().empty(), golden.name.c_str());
        QVERIFY(plan.result.totalBytes < plan.tensorLevelBound);
      }
      const QString difference = differenceFromGolden(built, golden);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // The first operators run strip by strip (--patches, with overlaps): every
  // golden set stays bit-exact; vww's stage is rewritten and its plan is the
  // bound the patch analysis predicted before the rewrite, under half the
  // tensor-level bound of the model as it was; kws and ResNet-8 gain nothing
  // from patches and compile as they did.
  void patchesMatch_data() { outputsMatch_data(); }

  void patchesMatch() {
    QFETCH(int, set);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      codegen::CompileOptions options;
      options.memory.overlapOutputs = true;
      options.memory.patches = true;
      const Built& built = builtModel(golden.model, options, "patches");
      const memory::MemoryPlan& plan = built.model.memoryPlan;
      if (golden.name.starts_with("vww_96_int8/")) {
        QVERIFY(built.model.patches.has_value());
        const memory::PatchStage& stage = built.model.patches->stage();
        QCOMPARE(plan.result.totalBytes, stage.bound);
        const Built& whole = builtModel(golden.model, {}, "default");
        QVERIFY(2 * plan.result.totalBytes <= whole.model.memoryPlan.tensorLevelBound);
        // One slice, the stage's operators, per strip, and the concatenation.
        QCOMPARE(built.model.patches->operators.size(),
                 static_cast<std::size_t>(stage.strips) * (stage.operators.size() + 1) + 1);
        // The middle strips share their functions.
        std::set<std::size_t> functions;
        for (const codegen::OperatorCall& call : built.model.calls) functions.insert(call.function);
        QVERIFY(functions.size() < built.model.calls.size());
      } else if (golden.name.starts_with("kws_ref_model/") ||
                 golden.name.starts_with("ic_resnet8_int8/")) {
        QVERIFY(!built.model.patches.has_value());
      }
      const QString difference = differenceFromGolden(built, golden);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  void ethosUOffloadMatches() {
    QFETCH(int, set);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      const ir::Graph partitioned = ethosUPartitioned(golden.model);
      const Built& built = builtModel(golden.model, {}, "ethos-u55-128", &partitioned);
      if (golden.name.starts_with("kws_ref_model/")) {
        // Every operator, SOFTMAX too, is one Ethos-U operator, whose
        // function hands the command stream to the driver and returns its
        // status.
        int ethosU = 0;
        for (const ir::Operator& op : built.model.graph.operators) {
          ethosU += op.type == ir::OpType::EthosU;
        }
        QCOMPARE(ethosU, 1);
        QCOMPARE(built.model.graph.operators.size(), std::size_t{1});
        QVERIFY(built.model.devices.empty());
        bool checked = false;
        for (const auto& source : built.model.sources) {
          const auto call = source.text.find("loupe_ethosu_run_operator(");
          if (call == std::string::npos) continue;
          checked = source.text.find("if (status != 0) return status;", call) < call + 200;
          break;
        }
        QVERIFY(checked);
      }
      const QString difference = differenceFromGolden(built, golden);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }
  void ethosUOffloadMatches_data() { outputsMatch_data(); }

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
      const auto outputs = deploy::runHostExecutable(built.build, built.model, c.inputBytes());
      const QString difference = test::compareBytes(outputs.at(0), c.expectedBytes(), "int16");
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }
};

QTEST_APPLESS_MAIN(GeneratedCMatchesGolden)
#include "generated_c_matches_golden_test.moc"
