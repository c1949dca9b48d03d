// Compiles the document's model the way `loupec compile --target T` does
// (graph passes, partitioning for the chosen targets, lowering to TIR - the
// NPU's operators to NPU functions -, C, memory plan) on a worker thread, and
// keeps what the TIR, C, Memory Plan, Device Mapping and pass views show. The window never waits:
// results arrive by signal, a failure becomes a message (Problems shows it), and a result that
// belongs to a model no longer open is dropped. Re-planning with another
// algorithm reuses the compiled graph and runs only the planner.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <memory>
#include <stop_token>

#include "deploy/platform.h"
#include "lowering/schedule.h"
#include "models/device_mapping.h"
#include "models/function_listing.h"
#include "models/memory_plan_layout.h"
#include "target/target_registry.h"
#include "target/target_string.h"

namespace loupe::models {

class ModelDocument;

// One graph stage of the pass timeline: the pass's name and the graph it left, printed.
struct PassStageText {
  QString name;  // "imported", "fuse_operators", "partition_graph"
  QString text;
};

class ModelCompilation : public QObject {
  Q_OBJECT

 public:
  enum class State { NoModel, Compiling, Compiled, Failed };

  // Compiles for `targets` (priority order, parsed where the user chose
  // them); `registry` (which outlives this) makes the targets' other
  // configurations for the Devices view's sweep.
  ModelCompilation(ModelDocument* document, const target::TargetRegistry& registry,
                   target::TargetList targets, QObject* parent = nullptr);
  ~ModelCompilation() override;

  State state() const { return state_; }
  // Compiling or re-planning.
  bool isBusy() const;
  // Stops the compilation under way (at its next operator or stage); it then
  // fails with "the compilation was cancelled" and the views stay empty
  // until the next one (recompile() or any change).
  void cancel();
  // Compiles again with the same settings (after a cancel, say).
  void recompile();
  // Why the last compilation failed (state() == Failed).
  QString errorMessage() const { return errorMessage_; }

  // Valid once compiled; empty otherwise.
  const FunctionListing& tirListing() const;
  const FunctionListing& cListing() const;
  const MemoryPlanLayout& memoryPlan() const;
  // Where each operator runs and what it costs there; empty until compiled.
  const DeviceMapping& deviceMapping() const;
  // Every graph stage of the last compilation, in pipeline order.
  const QList<PassStageText>& passStages() const;

  // The targets to compile for, and as `loupec compile --target` takes them
  // ("ethos-u -accelerator_config=ethos-u55-128, c").
  const target::TargetList& targets() const { return targets_; }
  QString targetString() const;
  // Recompiles for `targets` (on the worker thread) when they differ.
  void setTargets(target::TargetList targets);

  // The board the code is for (the Deploy panel's platform): its -mcpu
  // ("cortex-m55") picks the kernels' instruction set and its memories hold
  // the pools and constants, as Run on board does; empty cpu: portable C,
  // no platform (or one that knows no memories): one workspace pool.
  // Recompiles when either changes.
  const QString& boardCpu() const { return boardCpu_; }
  void setBoard(const QString& cpu, std::shared_ptr<const deploy::Platform> platform);

  // Pools the user named ("dtcm:size=16K;sram:size=2M,memory=SRAM", as
  // `--pools` takes them) instead of one workspace pool or the board's
  // memories; empty: those. Recompiles; returns why `spec` is wrong (and
  // keeps the pools) or empty.
  QString setPools(const QString& spec);
  const QString& poolSpec() const { return poolSpec_; }

  // The schedule per workload (a tuning log's best records, lowering/
  // schedule.h) and where they came from ("kws.tuning.json"); an operator
  // whose workload has none keeps its default. Recompiles.
  const lowering::ScheduleTable& schedules() const { return schedules_; }
  const QString& schedulesSource() const { return schedulesSource_; }
  void setSchedules(lowering::ScheduleTable schedules, const QString& source);

  // Whether a compilation for a board, without schedules of the user's, is
  // offered the schedules the tuning logs bundled with Loupe measured on
  // that board (deploy/bundled_tuning.h; those the model's operators take
  // are applied), as loupec does unless --no-tuning-log. On by default;
  // recompiles.
  bool bundledTuning() const { return bundledTuning_; }
  void setBundledTuning(bool on);

  // What tuned the last compilation's code: the user's log (its name) or
  // "bundled tuning logs (qemu-mps3-an547)", and how many of the model's
  // distinct C workloads got a tuned schedule; empty source: default
  // schedules everywhere.
  struct TuningStatus {
    QString source;
    int tuned = 0;
    int workloads = 0;
  };
  TuningStatus tuningStatus() const;

  // The planning algorithms by name, in the registry's order, and a sentence each.
  static QStringList plannerNames();
  static QString plannerSummary(const QString& name);
  QString planner() const { return planner_; }
  // Re-plans the compiled model with `name` (asynchronously when a model is
  // compiled) and emits memoryPlanChanged().
  void setPlanner(const QString& name);

  // Whether outputs may start inside the inputs that die with them, as far
  // as their traced loops allow (loupec --overlap-outputs). Recompiles: the
  // functions whose output overlaps drop `restrict`.
  bool overlapOutputs() const { return overlapOutputs_; }
  void setOverlapOutputs(bool on);

  // Whether the first high-resolution operators run strip by strip when that
  // lowers the bound (loupec --patches). Recompiles: the graph, functions
  // and plan are the rewritten ones.
  bool patches() const { return patches_; }
  void setPatches(bool on);

  // With both switches off and a board with memories of its own, the plan
  // the board was given ("fits with overlapped outputs, every board's
  // default: 8,640 of 10,912 workspace bytes ..."); empty otherwise.
  QString fitNote() const;

  // A second algorithm to show beside the first (empty: none). Planned with
  // the first, on the same buffers; memoryPlanChanged() covers both.
  QString comparisonPlanner() const { return comparisonPlanner_; }
  void setComparisonPlanner(const QString& name);
  const MemoryPlanLayout& comparisonPlan() const { return comparisonPlan_; }

  // Blocks (running the event loop) until nothing is in flight or `timeoutMs`
  // passed; for screenshots and tests. Returns !isBusy().
  bool waitUntilIdle(int timeoutMs = 60000);

 signals:
  void compilationStarted();
  void compiled();
  void targetStringChanged(const QString& targetString);
  void compilationFailed(const QString& message);
  void memoryPlanChanged();
  void overlapOutputsChanged(bool on);
  void patchesChanged(bool on);
  void busyChanged(bool busy);
  // The stage the running compilation is in ("lowering operator 12 of 65
  // (CONV_2D)"), for the status bar.
  void progressChanged(const QString& stage);

 private:
  struct Result;
  struct Replan;
  void startCompilation();
  void onCompilationDone();
  void onReplanDone();
  void startReplan();

  ModelDocument* document_;
  const target::TargetRegistry& registry_;
  QString planner_;
  QString comparisonPlanner_;
  bool overlapOutputs_ = false;
  bool patches_ = false;
  target::TargetList targets_;
  QString boardCpu_;
  std::shared_ptr<const deploy::Platform> platform_;
  QString poolSpec_;
  std::vector<memory::MemoryPool> pools_;  // poolSpec_ parsed; empty: the default
  lowering::ScheduleTable schedules_;
  QString schedulesSource_;
  bool bundledTuning_ = true;
  State state_ = State::NoModel;
  QString errorMessage_;
  std::stop_source stop_;  // of the compilation under way
  std::shared_ptr<const Result> result_;
  MemoryPlanLayout memoryPlan_;
  MemoryPlanLayout comparisonPlan_;
  // Bumped on every new model; a finished job from an older one is dropped.
  int generation_ = 0;
  bool replanPending_ = false;
  // Set when a job starts, cleared when its result has been taken: the
  // watchers' isRunning() turns false before their finished() is delivered.
  bool compiling_ = false;
  bool replanning_ = false;
  QFutureWatcher<std::shared_ptr<const Result>> compileWatcher_;
  QFutureWatcher<std::shared_ptr<const Replan>> replanWatcher_;
};

}  // namespace loupe::models
