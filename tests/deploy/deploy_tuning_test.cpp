// Tuning on the board (deploy/auto_tuner.h) end to end on qemu-mps2-an385:
// every candidate schedule of a small model's workloads is built, run and
// measured (instructions under QEMU -icount, deterministic), the tuner finds
// a schedule strictly better than the default, the log's best schedules
// applied reproduce the measured costs and bit-exact outputs, a
// resumed tuning measures nothing twice, and a spent time budget starts no
// trial.
#include <QtTest>

#include <cmath>
#include <map>

#include "builtin_registries.h"
#include "deploy/auto_tuner.h"
#include "deploy/run_on_board.h"
#include "generated_c_harness.h"
#include "simd_kernel_cases.h"

using namespace loupe;

namespace {

const char* const kBoard = "qemu-mps2-an385";

deploy::TuneRequest tuneRequest(const deploy::Registries& registries, const ir::Graph& graph) {
  deploy::TuneRequest request;
  request.platform = registries.platforms.find(kBoard);
  request.compile = {graph, target::parseTargetString("c", registries.targets), {}};
  request.inputs = test::randomInputs(graph, 9);
  request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
  request.jobs = 2;
  request.version = "test";
  return request;
}

}  // namespace

class DeployTuning : public QObject {
  Q_OBJECT

 private slots:
  void tuningFindsABetterScheduleAndTheLogReproducesIt() {
    const deploy::Registries registries = plugins::builtinRegistries();
    // Four random int8 operators (convolutions, depthwise, fully connected, ADD).
    const ir::Graph graph = test::randomSimdKernelGraph(21, 4);
    deploy::TuneResult tuned;
    // The workloads are announced before any record (and again, the same
    // ones, before a second round); then one call per record.
    std::vector<std::string> announced;
    int recordCalls = 0;
    deploy::TuneRequest request = tuneRequest(registries, graph);
    request.progress = [&](const deploy::TuningProgress& progress) {
      if (progress.record) {
        QVERIFY(!announced.empty());
        ++recordCalls;
        return;
      }
      std::vector<std::string> keys;
      for (const auto& workload : *progress.workloads) keys.push_back(workload.key);
      if (announced.empty()) {
        QVERIFY(recordCalls == 0 && progress.trialsDone == 0);
        announced = keys;
      } else {
        QVERIFY(recordCalls > 0 && progress.trialsDone == progress.trialsTotal - 1);
        QCOMPARE(keys, announced);
      }
    };
    try {
      tuned = deploy::tuneOnBoard(std::move(request));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    QCOMPARE(recordCalls, static_cast<int>(tuned.records.size()));
    QCOMPARE(announced.size(), tuned.workloads.size());
    for (std::size_t w = 0; w < announced.size(); ++w)
      QCOMPARE(announced[w], tuned.workloads[w].key);
    std::size_t candidates = 0;
    for (const auto& workload : tuned.workloads) candidates += workload.candidates.size();
    QCOMPARE(tuned.records.size(), candidates);
    QCOMPARE(tuned.unit, std::string("instructions"));
    QCOMPARE(tuned.trialsSkipped, 0);

    // Every candidate ran and gave the reference's bytes (a failed one has
    // an error instead of a cost); the default is each workload's first.
    std::map<std::string, double> defaultCost, bestCost;
    for (const tuning::TuningRecord& record : tuned.records) {
      QVERIFY2(record.cost.has_value(), record.error.c_str());
      QCOMPARE(record.board, std::string(kBoard));
      defaultCost.try_emplace(record.workload, *record.cost);
      auto [it, added] = bestCost.try_emplace(record.workload, *record.cost);
      if (!added) it->second = std::min(it->second, *record.cost);
    }
    int improved = 0;
    for (const auto& [workload, cost] : bestCost)
      improved += cost < defaultCost.at(workload) ? 1 : 0;
    QVERIFY2(improved > 0, "no schedule beat the default on any workload");

    // The log applied: each operator costs exactly what its best record says.
    deploy::BoardRunRequest run;
    run.platform = registries.platforms.find(kBoard);
    run.compile = {graph, target::parseTargetString("c", registries.targets), {}};
    run.compile.options.schedules = tuning::bestSchedules(tuned.records);
    run.inputs = test::randomInputs(graph, 9);
    run.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    deploy::BoardRunResult result;
    try {
      result = deploy::runOnBoard(std::move(run));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    QVERIFY(result.outputsBitExact());
    for (const auto& workload : tuned.workloads) {
      double sum = 0;
      for (const deploy::OperatorTime& time : result.profile.operators) {
        for (int op : workload.operators) sum += time.operatorIndex == op ? time.time : 0;
      }
      // The board's SysTick wrap interrupt (every 2^24 instructions) adds its
      // few instructions to whichever operator runs then, which moves with
      // the other operators' schedules: equal within 0.5%.
      const double applied = sum / static_cast<double>(workload.operators.size());
      const double recorded = bestCost.at(workload.key);
      QVERIFY2(std::abs(applied - recorded) <= 0.005 * recorded,
               qPrintable(QString("%1: %2 applied, %3 recorded")
                              .arg(QString::fromStdString(workload.key))
                              .arg(applied)
                              .arg(recorded)));
    }

    // Resuming from the log measures nothing again.
    deploy::TuneRequest again = tuneRequest(registries, graph);
    again.previous = tuned.records;
    const deploy::TuneResult resumed = deploy::tuneOnBoard(std::move(again));
    QCOMPARE(resumed.trialsRun, 0);
    QVERIFY(resumed.records.empty());
  }

  void theSecondRoundCombinesEachKnobsBest() {
    deploy::TuningWorkload workload{"W", "CONV_2D", {0}, {}};
    workload.candidates = {{{"kernel", "simd"}, {"pixels", "4"}, {"unroll", "1"}}};
    const auto record = [](lowering::Schedule knobs, std::optional<double> cost,
                           const std::string& board = "b") {
      return tuning::TuningRecord{"W",   "CONV_2D", std::move(knobs),    cost, "instructions",
                                  board, "test",    cost ? "" : "failed"};
    };
    const lowering::Schedule defaults = workload.candidates.front();
    auto with = [&](const std::string& knob, const std::string& choice) {
      lowering::Schedule schedule = defaults;
      schedule[knob] = choice;
      return schedule;
    };
    std::vector<tuning::TuningRecord> records = {
        record(defaults, 100),           record(with("kernel", "loops"), 150),
        record(with("unroll", "2"), 90), record(with("unroll", "4"), 80),
        record(with("unroll", "8"), {}), record(with("pixels", "1"), 120)};
    // Only unroll gained: its best alone was measured in the first round.
    QVERIFY(!deploy::combinedBestSchedule(workload, records, "b"));
    // pixels=1 gains too: unroll=4 and pixels=1 together.
    records.push_back(record(with("pixels", "1"), 95));
    const auto combined = deploy::combinedBestSchedule(workload, records, "b");
    QVERIFY(combined);
    QCOMPARE(*combined, (lowering::Schedule{{"kernel", "simd"}, {"pixels", "1"}, {"unroll", "4"}}));
    // Records of another board, or without the default's cost, say nothing.
    QVERIFY(!deploy::combinedBestSchedule(workload, records, "other"));
    records.erase(records.begin());
    QVERIFY(!deploy::combinedBestSchedule(workload, records, "b"));
  }

  void aSpentTimeBudgetStartsNoTrial() {
    const deploy::Registries registries = plugins::builtinRegistries();
    const ir::Graph graph = test::randomSimdKernelGraph(22, 2);
    deploy::TuneRequest request = tuneRequest(registries, graph);
    request.timeBudgetSeconds = 1e-9;
    const deploy::TuneResult result = deploy::tuneOnBoard(std::move(request));
    QCOMPARE(result.trialsRun, 0);
    QVERIFY(result.trialsSkipped > 0);
    QVERIFY(result.records.empty());
  }
};

QTEST_APPLESS_MAIN(DeployTuning)
#include "deploy_tuning_test.moc"
