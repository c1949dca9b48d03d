// Every shared model and every golden set, deployed to each platform through
// the Project API and run over the serial session, each compiled for its
// board's CPU: deploy_golden_on_boards (the default run) runs every set on
// the native host, and each model's first set and seed1 on the Cortex-M3
// (Thumb kernels) and the Cortex-M55 (MVE kernels); deploy_golden_on_dsp_boards
// (label boards) runs every set on the Cortex-M4, M7 and M33 (DSP kernels)
// and every set on the M3 and M55, each with the schedules the bundled
// tuning logs measured on that board (deploy/bundled_tuning.h, as loupec
// applies them by default; a model's own log must apply whole, or it is
// stale), and every set on the M3, M4 and M55 with every workload's last
// schedule (loop nests unrolled by 8, as a tuning log can choose); the two
// together run every set on all five boards. The outputs must
// equal TFLite's golden bytes, and the profile must have one entry per call of
// the compiled model (an operator, or a whole Ethos-U region) adding up to
// the total. On the host and the M55 every set also runs compiled for
// "ethos-u -accelerator_config=ethos-u55-128, c", each NPU region one Ethos-U
// operator whose command stream the firmware's functional model runs (the
// boards run: with every other configuration, and on NXP's system, too).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "codegen/model_compiler.h"
#include "deploy/auto_tuner.h"
#include "deploy/bundled_tuning.h"
#include "deploy/deploy_error.h"
#include "deploy/deployment.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "golden_compare.h"
#include "golden_sets.h"
#include "lowering/schedule.h"
#include "platforms/builtin_platforms.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;

namespace {

// The target string of a row whose model is compiled with non-default
// schedules (deploy_golden_on_dsp_boards).
constexpr std::string_view kTunedSuffix = " (tuned)";
// ... with the bundled tuning logs' schedules for the board.
constexpr std::string_view kBundledSuffix = " (bundled)";
// ... and with outputs planned over their dying inputs (--overlap-outputs).
constexpr std::string_view kOverlapSuffix = " (overlaps)";
constexpr std::string_view kPatchSuffix = " (patches)";

// A model deployed to one platform, kept open across its golden sets.
struct DeployedModel {
  codegen::CompiledModel model;
  std::unique_ptr<deploy::Deployment> deployment;
  std::string doesNotFit;  // the DoesNotFit message, when it does not fit
  // With the bundled logs: the workloads of the model's own log on the
  // board that the compilation did not apply (a stale log), or empty.
  std::string staleLog;
};

// The workloads the bundled log of the model in `modelFile` (tests/data/
// models/<model>/model.tflite) on `board` tuned; none when it has no log
// there. (Which schedule wins is the best over every bundled log of the
// board: another model's log may have measured the same workload.)
std::set<std::string> ownLogWorkloads(const std::filesystem::path& modelFile,
                                      const std::string& board) {
  const std::string model = modelFile.parent_path().filename().string();
  const std::filesystem::path log =
      deploy::bundledTuningDirectory() / (model + "." + board + ".jsonl");
  std::set<std::string> workloads;
  if (!std::filesystem::exists(log)) return workloads;
  for (const auto& entry :
       deploy::bundledSchedules(tuning::readTuningLogFile(log.string()), board)) {
    workloads.insert(entry.first);
  }
  return workloads;
}

}  // namespace

class DeployGoldenOnBoards : public QObject {
  Q_OBJECT

  deploy::PlatformRegistry registry_ = platforms::builtinPlatformRegistry();
  std::vector<test::GoldenSet> sets_ = test::goldenSets();
  std::map<std::tuple<std::string, std::string, std::filesystem::path>, DeployedModel> deployed_;
  // Models that ran on each platform, for the "runs on the other board" check.
  std::map<std::string, std::set<std::filesystem::path>> ran_;

  DeployedModel& deploy(const std::string& platformName, const std::string& targetString,
                        const std::filesystem::path& path) {
    auto key = std::tuple{platformName, targetString, path};
    if (auto it = deployed_.find(key); it != deployed_.end()) return it->second;
    // One board at a time: an idle firmware still polls its UART, and every
    // emulated board left running would take a share of the CPU.
    for (auto& [other, entry] : deployed_) entry.deployment.reset();
    DeployedModel& entry = deployed_[key];
    const deploy::Platform& platform = *registry_.find(platformName);
    // Lowered for the board's core: MVE kernels on the Cortex-M55, DSP on the M4.
    // "tuned" rows: every workload with the last schedule of its space (the
    // loop nests unrolled by 8), as a tuning log would apply it.
    // "overlaps" rows: outputs written over the inputs that die with them,
    // as far as the traced loops allow.
    std::string targets = targetString;
    auto takeSuffix = [&targets](std::string_view suffix) {
      if (!targets.ends_with(suffix)) return false;
      targets.resize(targets.size() - suffix.size());
      return true;
    };
    // "patches" rows: those overlaps, and the first operators run strip by
    // strip where that lowers the bound.
    const bool patches = takeSuffix(kPatchSuffix);
    const bool overlaps = takeSuffix(kOverlapSuffix) || patches;
    const bool tuned = takeSuffix(kTunedSuffix);
    const bool bundled = takeSuffix(kBundledSuffix);
    // Planned in the board's memories, as loupec run and the GUI plan it.
    ir::Graph imported = frontend::importTfliteFile(path);
    codegen::CompileOptions options;
    options.boardMemories = platform.memoryRegions(imported);
    options.memory.overlapOutputs = overlaps;
    options.memory.patches = patches;
    driver::CompileRequest request{
        std::move(imported), target::parseTargetString(targets, targets::builtinTargetRegistry()),
        std::move(options), platform.cpu()};
    if (tuned) {
      // The last schedule of each workload's space: the loop nests, the
      // narrowest kernel variants and the compiler asked to unroll by 8.
      const driver::Compilation untuned = driver::compileModel(request);
      for (const deploy::TuningWorkload& workload : deploy::findWorkloads(untuned, 0)) {
        const ir::Operator& op = untuned.graph.operators.at(workload.operators.front());
        request.options.schedules[workload.key] =
            lowering::scheduleSpace(untuned.graph, op, untuned.model.isa).candidates().back();
      }
    }
    if (bundled) {
      request.offeredSchedules =
          deploy::bundledSchedules(deploy::bundledTuningLogs().records, platformName);
    }
    try {
      driver::Compilation compilation = driver::compileModel(std::move(request));
      if (bundled) {
        for (const std::string& workload : ownLogWorkloads(path, platformName)) {
          if (!compilation.schedules.contains(workload)) entry.staleLog += "\n  " + workload;
        }
      }
      entry.model = std::move(compilation.model);
    } catch (const memory::MemoryPlanError& error) {
      entry.doesNotFit = error.what();  // the plan found the board's memories too small
      return entry;
    }
    deploy::DeploymentOptions deployment;
    deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    try {
      entry.deployment = std::make_unique<deploy::Deployment>(platform, entry.model, deployment);
      const std::string log = entry.deployment->firmware().log;
      if (log.find("warning:") != std::string::npos) {
        qWarning("%s", log.c_str());
        QTest::qFail("the firmware build printed warnings", __FILE__, __LINE__);
      }
    } catch (const deploy::DeployError& error) {
      if (error.kind() != deploy::DeployError::Kind::DoesNotFit) throw;
      entry.doesNotFit = error.what();
    }
    return entry;
  }

  // Each model's first golden set and its seed1: what the default run
  // deploys to the QEMU boards (every set runs on the host).
  bool representative(std::size_t i) const {
    return i == 0 || sets_[i - 1].model != sets_[i].model || sets_[i].name.ends_with("/seed1");
  }

  // `model` (a directory name): that model's sets only; empty: every model's.
  void addRows(const char* platform, const QString& targets, const QString& label,
               bool representativeSets, bool otherSets, std::string_view model = {}) {
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      if (!(representative(i) ? representativeSets : otherSets)) continue;
      if (!model.empty() && !sets_[i].name.starts_with(std::string(model) + "/")) continue;
      QTest::newRow(qPrintable(QString("%1 %2%3").arg(platform, label, sets_[i].name.c_str())))
          << QString(platform) << targets << static_cast<int>(i);
    }
  }

 private slots:
  void goldenSetsMatch_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("targets");
    QTest::addColumn<int>("set");
    QVERIFY(sets_.size() >= 40);
    const QString npu = "ethos-u -accelerator_config=ethos-u55-128, c";
#if LOUPE_GOLDEN_DSP_BOARDS
    // deploy_golden_on_dsp_boards (label boards, outside the default run):
    // every set with the DSP kernels on the Cortex-M4, M7 and M33 and with
    // the Thumb and MVE kernels on the M3 and the M55, each board with the
    // schedules its bundled tuning logs measured (what loupec applies by
    // default; the default run has the M3's and M55's representative sets
    // with default schedules),
    const QString bundled = QString("c") + QString::fromUtf8(kBundledSuffix.data());
    for (const char* platform : {"qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps2-an500",
                                 "qemu-mps2-an505", "qemu-mps3-an547"}) {
      addRows(platform, bundled, "bundled ", true, true);
    }
    addRows("qemu-mps3-an547", npu, "ethos-u55-128 ", false, true);
    // every set on the host and the M55 with every other Ethos-U
    // configuration, and the U55-128 on NXP's system (most weights buffered),
    for (const char* config :
         {"ethos-u55-32", "ethos-u55-64", "ethos-u55-256", "ethos-u65-256", "ethos-u65-512"}) {
      const QString targets = QString("ethos-u -accelerator_config=%1, c").arg(config);
      addRows("host", targets, QString(config) + " ", true, true);
      addRows("qemu-mps3-an547", targets, QString(config) + " ", true, true);
    }
    const QString nxp = "ethos-u -accelerator_config=ethos-u55-128 -system_config=nxp-imx93, c";
    addRows("host", nxp, "ethos-u55-128 nxp-imx93 ", true, true);
    addRows("qemu-mps3-an547", nxp, "ethos-u55-128 nxp-imx93 ", true, true);
    // every set on the STM32F405 of qemu-netduinoplus2 and the nRF51 of
    // qemu-microbit (the sets whose models do not fit it refused first),
    addRows("qemu-netduinoplus2", "c", "", true, true);
    addRows("qemu-microbit", "c", "", false, true);
    // the rest of the sets with outputs over their dying inputs,
    const QString overlaps = QString("c") + QString::fromUtf8(kOverlapSuffix.data());
    addRows("qemu-mps2-an385", overlaps, "overlaps ", false, true);
    addRows("qemu-mps3-an547", overlaps, "overlaps ", false, true);
    // the rest of vww's sets with its first operators in strips,
    const QString patches = QString("c") + QString::fromUtf8(kPatchSuffix.data());
    addRows("qemu-mps2-an385", patches, "patches ", false, true, "vww_96_int8");
    addRows("qemu-mps3-an547", patches, "patches ", false, true, "vww_96_int8");
    // and non-default schedules on one board of each kind of kernel.
    for (const char* platform : {"qemu-mps2-an385", "qemu-mps2-an386", "qemu-mps3-an547"}) {
      addRows(platform, QString("c") + QString::fromUtf8(kTunedSuffix.data()), "tuned ", true,
              true);
    }
#else
    // The default run: every set in portable C on the host, alone and with
    // the Ethos-U; each model's representative sets with the Thumb kernels on
    // the Cortex-M3 and with MVE and the Ethos-U on the Cortex-M55
    // (deploy_simd_kernels runs the DSP kernels on random operators).
    addRows("host", "c", "", true, true);
    addRows("host", npu, "ethos-u55-128 ", true, true);
    addRows("qemu-mps2-an385", "c", "", true, false);
    addRows("qemu-mps3-an547", "c", "", true, false);
    addRows("qemu-mps3-an547", npu, "ethos-u55-128 ", true, false);
    // Outputs over their dying inputs, with the Thumb and the MVE kernels.
    const QString overlaps = QString("c") + QString::fromUtf8(kOverlapSuffix.data());
    addRows("qemu-mps2-an385", overlaps, "overlaps ", true, false);
    addRows("qemu-mps3-an547", overlaps, "overlaps ", true, false);
    // vww's first operators strip by strip (the only shared model patches
    // lower), both kinds of kernel.
    const QString patches = QString("c") + QString::fromUtf8(kPatchSuffix.data());
    addRows("qemu-mps2-an385", patches, "patches ", true, false, "vww_96_int8");
    addRows("qemu-mps3-an547", patches, "patches ", true, false, "vww_96_int8");
    // The 16 KB micro:bit: hello_world and micro_speech run, the others are
    // refused before anything is built, with the memory and bytes missing.
    addRows("qemu-microbit", "c", "", true, false);
#endif
  }

  void goldenSetsMatch() {
    QFETCH(QString, platform);
    QFETCH(QString, targets);
    QFETCH(int, set);
    const test::GoldenSet& golden = sets_[static_cast<std::size_t>(set)];
    try {
      DeployedModel& deployed = deploy(platform.toStdString(), targets.toStdString(), golden.model);
      if (!deployed.doesNotFit.empty() || !deployed.deployment) {
        QVERIFY2(deployed.deployment || !deployed.doesNotFit.empty(),
                 "the golden sets of one model must be consecutive rows");
        // Reported with the memory and the bytes missing, and skipped here;
        // cleanupTestCase checks that it ran on another board.
        QVERIFY2(deployed.doesNotFit.find("bytes short") != std::string::npos,
                 deployed.doesNotFit.c_str());
        // The micro:bit's 16 KB are known before building: refused by the
        // memory plan or the platform's own check, not by the linker.
        if (platform == "qemu-microbit") {
          QVERIFY2(deployed.doesNotFit.find("do not fit") != std::string::npos ||
                       deployed.doesNotFit.find("needs at least") != std::string::npos,
                   deployed.doesNotFit.c_str());
        }
        qInfo("%s", deployed.doesNotFit.c_str());
        return;
      }
      // A model's own bundled log on this board that no longer applies whole
      // is stale: regenerate it (README, Bundled tuning logs).
      QVERIFY2(deployed.staleLog.empty(),
               qPrintable("its bundled tuning log has schedules the compilation did not apply "
                          "(stale; regenerate it):" +
                          QString::fromStdString(deployed.staleLog)));
      if (targets.endsWith(QString::fromUtf8(kPatchSuffix.data()))) {
        // Run in strips, at the bound the patch analysis predicted.
        QVERIFY(deployed.model.patches.has_value());
        QCOMPARE(deployed.model.memoryPlan.result.totalBytes,
                 deployed.model.patches->stage().bound);
      }
      if (targets.endsWith(QString::fromUtf8(kOverlapSuffix.data()))) {
        // The larger models' plans do use overlaps (kws, vww, ResNet-8):
        // these rows run outputs written over live inputs.
        const memory::MemoryPlan& plan = deployed.model.memoryPlan;
        QVERIFY(plan.result.totalBytes <= plan.tensorLevelBound);
        if (plan.tensorLevelBound > 10000) QVERIFY(!plan.usedOverlaps().empty());
      }
      if (deployed.model.stateBytes > 0) deployed.deployment->resetState();
      std::vector<std::vector<std::uint8_t>> inputs;
      for (const auto& file : golden.inputs) inputs.push_back(test::readBytes(file));
      const auto outputs = deployed.deployment->run(inputs);
      QCOMPARE(outputs.size(), golden.outputs.size());
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto dtype = golden.manifest["outputs"][i]["dtype"].get<std::string>();
        const QString difference =
            test::compareBytes(outputs[i], test::readBytes(golden.outputs[i]), dtype);
        QVERIFY2(difference.isEmpty(), qPrintable(QString("output %1: %2").arg(i).arg(difference)));
      }
      // One entry per call the compiled model makes (an Ethos-U region is one
      // call, however many operators it runs), adding up to the measured total.
      const deploy::RunProfile& profile = deployed.deployment->profile();
      QCOMPARE(profile.operators.size(), deployed.model.calls.size());
      QCOMPARE(QString::fromStdString(profile.unit),
               platform == "host" ? QString("ns") : QString("instructions"));
      QVERIFY(profile.total > 0);
      const double sum = profile.operatorSum();
      const double gap = profile.total - sum;
      const QString numbers = QString("operators sum to %1 of %2 %3 (gap %4%)")
                                  .arg(sum)
                                  .arg(profile.total)
                                  .arg(QString::fromStdString(profile.unit))
                                  .arg(100.0 * gap / profile.total, 0, 'f', 2);
      // The profiler's marks split the run without gaps; what is left is the
      // RPC server's call into the model and back, outside the first and last
      // mark: about 60 instructions, which is more than 5% of a model as
      // small as hello_world_int8 with the MVE kernels (900 instructions).
      // Host wall-clock times are noisy (a preemption there would count), so
      // the bound is held on the boards, whose instruction counts are exact.
      QVERIFY2(gap >= 0, qPrintable(numbers));
      if (platform != "host") {
        QVERIFY2(gap <= std::max(0.05 * profile.total, 100.0), qPrintable(numbers));
        qInfo("%s", qPrintable(numbers));
      }
      ran_[platform.toStdString()].insert(golden.model);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // A model too large for one board must still run on another.
  void cleanupTestCase() {
    // The micro:bit runs the small models; the others it refuses.
    if (const auto microbit = ran_.find("qemu-microbit"); microbit != ran_.end()) {
      for (const char* model : {"hello_world_int8", "hello_world_float"}) {
        QVERIFY2(
            std::any_of(microbit->second.begin(), microbit->second.end(),
                        [&](const auto& path) { return path.parent_path().filename() == model; }),
            model);
      }
    }
    for (const auto& [key, entry] : deployed_) {
      if (entry.doesNotFit.empty()) continue;
      bool ranElsewhere = false;
      for (const auto& [platform, models] : ran_) {
        if (platform != std::get<0>(key) && platform != "host" &&
            models.contains(std::get<2>(key))) {
          ranElsewhere = true;
        }
      }
      QVERIFY2(ranElsewhere,
               qPrintable(QString::fromStdString(std::get<2>(key).string() +
                                                 " runs on no board: " + entry.doesNotFit)));
    }
    deployed_.clear();
  }
};

QTEST_GUILESS_MAIN(DeployGoldenOnBoards)
#include "deploy_golden_test.moc"
