// The tuning logs bundled with Loupe (deploy/bundled_tuning.h): the table a
// board is offered holds only records measured on that board, best per
// workload; a compilation applies the offered schedules its operators take
// (tuning::schedulesThatFit) and leaves out stale ones (a knob or a choice
// the operator does not offer) instead of failing, while the same record
// asked for explicitly is refused; explicit schedules win; a damaged log is
// skipped and named; the build tree finds bench/tuning, LOUPE_TUNING_DIR
// replaces it; and the coverage counts what was applied.
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "deploy/auto_tuner.h"
#include "deploy/bundled_tuning.h"
#include "deploy/tuning_coverage.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "platforms/builtin_platforms.h"
#include "targets/builtin_targets.h"
#include "test_data.h"
#include "tir/tir_printer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

const char* const kM55 = "qemu-mps3-an547";
const char* const kM3 = "qemu-mps2-an385";

tuning::TuningRecord record(const std::string& workload, const lowering::Schedule& knobs,
                            double cost, const std::string& board) {
  return {workload, "CONV_2D", knobs, cost, "instructions", board, "test", {}};
}

driver::CompileRequest kwsRequest(const std::string& board) {
  const auto platform = platforms::builtinPlatformRegistry().find(board);
  return {frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite"),
          target::parseTargetString("c", targets::builtinTargetRegistry()),
          {},
          platform->cpu()};
}

// The schedule attribute of every generated function lowered with one.
std::map<std::string, std::string> functionSchedules(const codegen::CompiledModel& model) {
  std::map<std::string, std::string> schedules;
  for (const tir::PrimFunc& f : model.functions) {
    if (auto it = f.attrs.find("schedule"); it != f.attrs.end()) schedules[f.name] = it->second;
  }
  return schedules;
}

}  // namespace

class BundledTuning : public QObject {
  Q_OBJECT

  // The model's workloads on the M55 with default schedules.
  std::vector<deploy::TuningWorkload> kwsWorkloads() {
    return deploy::findWorkloads(driver::compileModel(kwsRequest(kM55)), 0);
  }

 private slots:
  void aBoardIsOfferedOnlyItsOwnRecordsBestPerWorkload() {
    const std::vector<tuning::TuningRecord> records = {
        record("W", {{"unroll", "1"}}, 100, kM55),
        record("W", {{"unroll", "4"}}, 90, kM55),
        record("W", {{"unroll", "8"}}, 10, kM3),  // cheaper, but another board's
        record("V", {{"unroll", "2"}}, 50, kM3),
    };
    const lowering::ScheduleTable m55 = deploy::bundledSchedules(records, kM55);
    QCOMPARE(m55.size(), std::size_t{1});
    QCOMPARE(m55.at("W"), (lowering::Schedule{{"unroll", "4"}}));
    const lowering::ScheduleTable m3 = deploy::bundledSchedules(records, kM3);
    QCOMPARE(m3.size(), std::size_t{2});
    QCOMPARE(m3.at("W"), (lowering::Schedule{{"unroll", "8"}}));
    QVERIFY(deploy::bundledSchedules(records, "qemu-mps2-an386").empty());
  }

  void theBuildTreeFindsTheBundledLogsAndTheirBoardsTablesApply() {
    // Run from the build tree: its share/loupe/tuning links bench/tuning.
    const fs::path directory = deploy::bundledTuningDirectory();
    QVERIFY(!directory.empty());
    QVERIFY(fs::exists(directory / "kws_ref_model.qemu-mps3-an547.jsonl"));
    const deploy::BundledTuningLogs logs = deploy::readBundledTuningLogs(directory);
    QVERIFY2(logs.problems.empty(), logs.problems.empty() ? "" : logs.problems[0].c_str());
    const lowering::ScheduleTable offered = deploy::bundledSchedules(logs.records, kM55);
    QVERIFY(!offered.empty());

    // kws on the M55: every workload its own log tuned is applied, and each
    // function lowered for one names its schedule.
    driver::CompileRequest request = kwsRequest(kM55);
    request.offeredSchedules = offered;
    const driver::Compilation tuned = driver::compileModel(std::move(request));
    const std::vector<deploy::TuningWorkload> workloads = kwsWorkloads();
    int inOwnLog = 0;
    for (const deploy::TuningWorkload& workload : workloads) {
      if (!offered.contains(workload.key)) continue;
      ++inOwnLog;
      QVERIFY2(tuned.schedules.contains(workload.key), workload.key.c_str());
      QCOMPARE(tuned.schedules.at(workload.key), offered.at(workload.key));
    }
    QCOMPARE(inOwnLog, static_cast<int>(workloads.size()));  // the log tuned all of kws
    const auto named = functionSchedules(tuned.model);
    QVERIFY(!named.empty());
    for (const auto& [function, schedule] : named) {
      QVERIFY2(!schedule.empty(), function.c_str());
    }
    const deploy::TuningCoverage coverage = deploy::tuningCoverage(tuned);
    QCOMPARE(coverage.workloads, static_cast<int>(workloads.size()));
    QCOMPARE(coverage.tuned, coverage.workloads);
    QCOMPARE(deploy::tuningCoverageText({5, 7}),
             std::string("5 of 7 workloads tuned; 2 keep their default schedule"));

    // The same model on the M3: the M55's records are not its board's, and
    // their keys name MVE, so even offered by mistake nothing applies.
    driver::CompileRequest onM3 = kwsRequest(kM3);
    onM3.offeredSchedules = offered;
    const driver::Compilation m3 = driver::compileModel(std::move(onM3));
    QVERIFY(m3.schedules.empty());
    QVERIFY(functionSchedules(m3.model).empty());
    QCOMPARE(deploy::tuningCoverage(m3).tuned, 0);
  }

  void aStaleOfferedRecordIsLeftOutButAnExplicitOneIsRefused() {
    const std::vector<deploy::TuningWorkload> workloads = kwsWorkloads();
    QVERIFY(workloads.size() >= 3);
    lowering::ScheduleTable offered;
    // A knob this Loupe does not have, a choice the unroll knob does not
    // offer, and a good schedule (the space's last candidate).
    offered[workloads[0].key] = {{"tile", "4"}};
    offered[workloads[1].key] = {{"unroll", "3"}};
    offered[workloads[2].key] = workloads[2].candidates.back();
    offered["CONV_2D of another model @mve"] = {{"unroll", "2"}};
    driver::CompileRequest request = kwsRequest(kM55);
    request.offeredSchedules = offered;
    const driver::Compilation compilation = driver::compileModel(std::move(request));
    QCOMPARE(compilation.schedules.size(), std::size_t{1});
    QCOMPARE(compilation.schedules.at(workloads[2].key), workloads[2].candidates.back());
    QCOMPARE(deploy::tuningCoverage(compilation).tuned, 1);

    // Asked for, the stale record fails the compilation.
    driver::CompileRequest explicitRequest = kwsRequest(kM55);
    explicitRequest.options.schedules[workloads[1].key] = {{"unroll", "3"}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             driver::compileModel(std::move(explicitRequest)));
  }

  void explicitSchedulesWinOverOfferedOnes() {
    const std::vector<deploy::TuningWorkload> workloads = kwsWorkloads();
    const deploy::TuningWorkload& workload = workloads.front();
    QVERIFY(workload.candidates.size() >= 2);
    driver::CompileRequest request = kwsRequest(kM55);
    request.options.schedules[workload.key] = workload.candidates[1];
    request.offeredSchedules[workload.key] = workload.candidates.back();
    const driver::Compilation compilation = driver::compileModel(std::move(request));
    QCOMPARE(compilation.schedules.at(workload.key), workload.candidates[1]);
  }

  void aDamagedLogIsSkippedAndNamedAndAMissingFolderHasNone() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fs::path folder = dir.path().toStdString();
    std::ofstream(folder / "good.qemu-mps3-an547.jsonl")
        << tuning::tuningRecordLine(record("W", {{"unroll", "4"}}, 90, kM55)) << "\n";
    std::ofstream(folder / "broken.qemu-mps3-an547.jsonl") << "not a record\n{}\n";
    std::ofstream(folder / "notes.txt") << "not a log, not read\n";
    const deploy::BundledTuningLogs logs = deploy::readBundledTuningLogs(folder);
    QCOMPARE(logs.directory, folder);
    QCOMPARE(logs.records.size(), std::size_t{1});
    QCOMPARE(logs.records[0].workload, std::string("W"));
    QCOMPARE(logs.problems.size(), std::size_t{1});
    QVERIFY2(logs.problems[0].find("broken.qemu-mps3-an547.jsonl:1") != std::string::npos,
             logs.problems[0].c_str());

    const deploy::BundledTuningLogs none = deploy::readBundledTuningLogs(folder / "missing");
    QVERIFY(none.directory.empty() && none.records.empty() && none.problems.empty());
  }

  void loupeTuningDirReplacesTheBundledFolder() {
    qputenv("LOUPE_TUNING_DIR", "/some/folder/of/logs");
    const fs::path replaced = deploy::bundledTuningDirectory();
    qunsetenv("LOUPE_TUNING_DIR");
    QCOMPARE(replaced, fs::path("/some/folder/of/logs"));
    QVERIFY(deploy::bundledTuningDirectory() != replaced);
  }
};

QTEST_GUILESS_MAIN(BundledTuning)
#include "bundled_tuning_test.moc"
