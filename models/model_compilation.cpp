#include "models/model_compilation.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <optional>

#include "codegen/c_function_printer.h"
#include "codegen/model_compiler.h"
#include "deploy/bundled_tuning.h"
#include "deploy/tuning_coverage.h"
#include "driver/compile_driver.h"
#include "memory/memory_plan.h"
#include "memory/patch_bound.h"
#include "memory/planner_registry.h"
#include "models/model_document.h"
#include "tir/tir_printer.h"

namespace loupe::models {

// One compilation's outcome, built on the worker thread and read-only after.
struct ModelCompilation::Result {
  int generation = 0;
  QString error;    // non-empty: it failed
  ir::Graph graph;  // after the graph passes and partitioning
  std::map<int, std::int64_t> scratchBytes;
  std::vector<memory::MemoryPool> pools;     // as compiled: replans use them too
  std::vector<codegen::MemoryUse> memories;  // the board's, when compiled for one
  // What outputs were allowed to overlap (compiled with overlapOutputs):
  // replans place the same.
  std::vector<memory::OverlapAllowance> overlaps;
  // Those, or else the ones the operators' loops allow (traced once): the
  // bounds every replan of the same buffers reports.
  std::vector<memory::OverlapAllowance> traced;
  // The stage run in strips (compiled with patches): replans keep it
  // together and draw it.
  std::optional<codegen::PatchExecution> patches;
  // The plan fit first chose when the plain one did not fit the board.
  QString fitNote;
  FunctionListing tir;
  FunctionListing c;
  MemoryPlanLayout plan;
  DeviceMapping devices;
  QList<PassStageText> stages;
  TuningStatus tuning;
};

struct ModelCompilation::Replan {
  int generation = 0;
  QString error;
  MemoryPlanLayout plan;
  MemoryPlanLayout comparison;  // empty when no comparison planner is set
};

namespace {

// The allowances a plan was made with, or else those its operators' traced
// loops give (a second lowering of each: about a second for vww, once per
// compilation; replans of the same buffers reuse them).
std::vector<memory::OverlapAllowance> allowancesOf(const ir::Graph& graph,
                                                   const memory::MemoryPlan& plan,
                                                   target::CpuIsa isa) {
  if (!plan.overlaps.empty()) return plan.overlaps;
  return codegen::operatorOverlaps(graph, plan.analysis, isa);
}

// The imported model's operators a call runs: an NPU region's call runs all
// of its operators, so selecting any of them shows the region's function.
QList<int> modelOperatorsOf(const ir::Graph& graph, const codegen::OperatorCall& call) {
  QList<int> result;
  const std::vector<int> operators =
      call.operators.empty() ? std::vector<int>{call.operatorIndex} : call.operators;
  for (int index : operators) {
    for (int m : graph.operators.at(static_cast<std::size_t>(index)).modelOperators()) {
      result.append(m);
    }
  }
  return result;
}

// Re-planning keeps the compiled model's buffers, so the allowances traced
// on its functions still hold (the execution order does not depend on the
// algorithm).
memory::MemoryPlanOptions planOptions(const QString& planner,
                                      const std::map<int, std::int64_t>& scratchBytes,
                                      const std::vector<memory::MemoryPool>& pools,
                                      const std::vector<memory::OverlapAllowance>& overlaps,
                                      const std::optional<codegen::PatchExecution>& patches) {
  memory::MemoryPlanOptions options;
  if (patches) options.contiguousGroups.push_back(patches->operators);
  options.planner = planner.toStdString();
  options.scratchBytes = scratchBytes;
  if (!pools.empty()) options.pools = pools;
  if (!overlaps.empty()) {
    options.overlapOutputs = true;
    options.overlaps = [overlaps](const memory::WorkspaceAnalysis&) { return overlaps; };
  }
  return options;
}

// The layout of `plan`, with the bounds under `allowances` (allowancesOf)
// and with patches: the stage `applied` runs in strips (then `graph` is the
// rewritten one), else the one patches would run.
MemoryPlanLayout layoutWithBounds(const ir::Graph& graph, const memory::MemoryPlan& plan,
                                  const std::vector<codegen::MemoryUse>& memories,
                                  const std::vector<memory::OverlapAllowance>& allowances,
                                  const std::optional<codegen::PatchExecution>& applied) {
  MemoryPlanLayout layout = memoryPlanLayout(graph, plan, memories);
  if (plan.overlaps.empty()) {
    layout.overlapBound = memory::overlapLowerBound(plan.analysis.buffers, allowances);
  }
  memory::PatchBound patches;
  std::vector<int> stageOperators;  // in `graph`
  if (applied) {
    patches = applied->analysis;
    stageOperators = applied->operators;
    // Each strip's steps: from the first of its operators to the last.
    layout.patchStripSteps.fill({std::numeric_limits<int>::max(), -1}, applied->stage().strips);
    const auto& order = plan.analysis.order;
    for (std::size_t step = 0; step < order.size(); ++step) {
      const int strip = applied->stripOf(order[step]);
      if (strip < 0) continue;
      auto& [from, to] = layout.patchStripSteps[strip];
      from = std::min(from, static_cast<int>(step));
      to = std::max(to, static_cast<int>(step));
    }
  } else {
    patches = memory::patchLowerBound(graph, plan.analysis, allowances);
    stageOperators = patches.best.operators;
  }
  if (patches.found) {
    layout.patchBound = patches.best.bound;
    layout.patchStrips = patches.best.strips;
    for (int op : stageOperators) {
      for (int m : graph.operators.at(static_cast<std::size_t>(op)).modelOperators()) {
        if (!layout.patchOperators.contains(m)) layout.patchOperators.append(m);
      }
    }
    std::sort(layout.patchOperators.begin(), layout.patchOperators.end());
    layout.patchExtraMacsPercent = patches.extraMacsPercent();
    layout.patchWholeBound = patches.wholeBound;
  }
  return layout;
}

}  // namespace

ModelCompilation::ModelCompilation(ModelDocument* document, const target::TargetRegistry& registry,
                                   target::TargetList targets, QObject* parent)
    : QObject(parent),
      document_(document),
      registry_(registry),
      planner_(QString::fromUtf8(memory::kDefaultPlanner)),
      targets_(std::move(targets)) {
  connect(document_, &ModelDocument::modelLoaded, this, &ModelCompilation::startCompilation);
  connect(&compileWatcher_, &QFutureWatcherBase::finished, this,
          &ModelCompilation::onCompilationDone);
  connect(&replanWatcher_, &QFutureWatcherBase::finished, this, &ModelCompilation::onReplanDone);
  if (document_->isLoaded()) startCompilation();
}

ModelCompilation::~ModelCompilation() {
  // The jobs hold copies of what they read; waiting keeps their results from
  // landing on a destroyed object.
  compileWatcher_.waitForFinished();
  replanWatcher_.waitForFinished();
}

void ModelCompilation::cancel() {
  if (compiling_) stop_.request_stop();
}

void ModelCompilation::recompile() {
  if (document_->isLoaded()) startCompilation();
}

bool ModelCompilation::isBusy() const {
  return compiling_ || replanning_ || replanPending_ || state_ == State::Compiling;
}

const FunctionListing& ModelCompilation::tirListing() const {
  static const FunctionListing empty;
  return result_ ? result_->tir : empty;
}

const FunctionListing& ModelCompilation::cListing() const {
  static const FunctionListing empty;
  return result_ ? result_->c : empty;
}

const MemoryPlanLayout& ModelCompilation::memoryPlan() const {
  return memoryPlan_;
}

const DeviceMapping& ModelCompilation::deviceMapping() const {
  static const DeviceMapping empty;
  return result_ ? result_->devices : empty;
}

const QList<PassStageText>& ModelCompilation::passStages() const {
  static const QList<PassStageText> empty;
  return result_ ? result_->stages : empty;
}

QString ModelCompilation::targetString() const {
  return QString::fromStdString(target::targetListString(targets_));
}

void ModelCompilation::setTargets(target::TargetList targets) {
  if (target::targetListString(targets) == target::targetListString(targets_)) return;
  targets_ = std::move(targets);
  emit targetStringChanged(targetString());
  if (document_->isLoaded()) startCompilation();
}

void ModelCompilation::setBoard(const QString& cpu,
                                std::shared_ptr<const deploy::Platform> platform) {
  if (cpu == boardCpu_ && platform == platform_) return;
  boardCpu_ = cpu;
  platform_ = std::move(platform);
  if (document_->isLoaded()) startCompilation();
}

QString ModelCompilation::setPools(const QString& spec) {
  std::vector<memory::MemoryPool> pools;
  if (!spec.trimmed().isEmpty()) {
    try {
      pools = memory::parsePoolSpec(spec.toStdString());
    } catch (const std::invalid_argument& error) {
      return QString::fromUtf8(error.what());
    }
  }
  if (spec.trimmed() == poolSpec_) return {};
  poolSpec_ = spec.trimmed();
  pools_ = std::move(pools);
  if (document_->isLoaded()) startCompilation();
  return {};
}

void ModelCompilation::setSchedules(lowering::ScheduleTable schedules, const QString& source) {
  if (schedules == schedules_ && source == schedulesSource_) return;
  schedules_ = std::move(schedules);
  schedulesSource_ = source;
  if (document_->isLoaded()) startCompilation();
}

void ModelCompilation::setBundledTuning(bool on) {
  if (on == bundledTuning_) return;
  bundledTuning_ = on;
  // Only a board's compilation without a log of the user's uses them.
  if (document_->isLoaded() && platform_ && schedules_.empty()) startCompilation();
}

ModelCompilation::TuningStatus ModelCompilation::tuningStatus() const {
  return result_ ? result_->tuning : TuningStatus{};
}

QStringList ModelCompilation::plannerNames() {
  QStringList names;
  for (const memory::PlannerInfo& p : memory::planners()) {
    names.append(QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())));
  }
  return names;
}

QString ModelCompilation::plannerSummary(const QString& name) {
  const memory::PlannerInfo* info = memory::findPlanner(name.toStdString());
  return info
             ? QString::fromUtf8(info->summary.data(), static_cast<qsizetype>(info->summary.size()))
             : QString();
}

void ModelCompilation::startCompilation() {
  ++generation_;
  state_ = State::Compiling;
  errorMessage_.clear();
  emit busyChanged(true);
  emit compilationStarted();
  // A job already running finishes into a result that onCompilationDone drops
  // (its generation is old), stopped early; this one starts when it is done.
  if (compiling_) {
    stop_.request_stop();
    return;
  }

  compiling_ = true;
  const int generation = generation_;
  stop_ = std::stop_source();
  // Progress crosses to the GUI thread; a newer compilation's generation
  // makes an old job's reports stale.
  auto progress = [this, generation](const std::string& stage) {
    QMetaObject::invokeMethod(
        this,
        [this, generation, text = QString::fromStdString(stage)] {
          if (generation == generation_ && compiling_) emit progressChanged(text);
        },
        Qt::QueuedConnection);
  };
  ir::Graph imported = document_->graph();
  const QString planner = planner_;
  const bool overlapOutputs = overlapOutputs_;
  const bool patches = patches_;
  // The bundled logs' schedules for the board, unless the user's log
  // replaces them or the user turned them off.
  lowering::ScheduleTable offered;
  QString offeredSource;
  if (bundledTuning_ && schedules_.empty() && platform_) {
    offered = deploy::bundledSchedules(deploy::bundledTuningLogs().records, platform_->name());
    if (!offered.empty()) {
      offeredSource = tr("bundled tuning logs (%1)").arg(QString::fromStdString(platform_->name()));
    }
  }
  const QString schedulesSource = schedules_.empty() ? offeredSource : schedulesSource_;
  compileWatcher_.setFuture(QtConcurrent::run(
      [imported = std::move(imported), planner, overlapOutputs, patches, targets = targets_,
       cpu = boardCpu_.toStdString(), platform = platform_, pools = pools_, schedules = schedules_,
       offered = std::move(offered), schedulesSource, &registry = registry_, progress,
       stop = stop_.get_token(), generation]() -> std::shared_ptr<const Result> {
        auto result = std::make_shared<Result>();
        result->generation = generation;
        try {
          // The driver `loupec compile --target` uses.
          const int importedOperators = static_cast<int>(imported.operators.size());
          driver::CompileRequest request{std::move(imported), targets, {}, {}};
          request.options.memory.planner = planner.toStdString();
          request.options.memory.overlapOutputs = overlapOutputs;
          request.options.memory.patches = patches;
          if (!pools.empty()) request.options.memory.pools = pools;
          request.options.progress = progress;
          request.options.stop = stop;
          request.options.schedules = schedules;
          request.offeredSchedules = offered;
          request.boardCpu = cpu;
          // Planned in the board's memories, as Run on board plans it.
          if (platform) request.options.boardMemories = platform->memoryRegions(request.model);
          // And fitted to them as Run on board fits them: with both switches
          // off, a board gets overlapped outputs, or the first plan that fits
          // when those do not, so the views show what will run on it.
          request.fitToMemories = !request.options.boardMemories.empty() && pools.empty();
          driver::Compilation compilation = driver::compileModel(std::move(request));
          if (!schedulesSource.isEmpty()) {
            const deploy::TuningCoverage coverage = deploy::tuningCoverage(compilation);
            result->tuning = {schedulesSource, coverage.tuned, coverage.workloads};
          }
          result->fitNote = QString::fromStdString(compilation.fit.summary(compilation.model));
          for (const passes::Stage& stage : compilation.timeline.stages()) {
            if (stage.kind != passes::StageKind::Graph) continue;
            result->stages.append(
                {QString::fromStdString(stage.name), QString::fromStdString(stage.text)});
          }
          result->graph = std::move(compilation.graph);
          const codegen::CompiledModel& model = compilation.model;
          result->devices =
              deviceMappingOf(result->graph, compilation.devices, targets, model.devices,
                              QString::fromStdString(model.modelName), importedOperators, registry);
          result->scratchBytes = model.memoryPlan.scratchBytes;
          result->pools = model.memoryPlan.pools;
          result->memories = model.memories;
          // Each function once, in the order of its first call, with the
          // operators of every call (the strips of patches share functions).
          std::vector<std::size_t> functionOrder;
          std::map<std::size_t, QList<int>> operatorsOfFunction;
          for (const codegen::OperatorCall& call : model.calls) {
            if (!operatorsOfFunction.contains(call.function))
              functionOrder.push_back(call.function);
            QList<int>& modelOps = operatorsOfFunction[call.function];
            for (int m : modelOperatorsOf(result->graph, call)) {
              if (!modelOps.contains(m)) modelOps.append(m);
            }
          }
          for (std::size_t function : functionOrder) {
            const tir::PrimFunc& f = model.functions[function];
            const QList<int>& modelOps = operatorsOfFunction[function];
            const QString name = QString::fromStdString(f.name);
            result->tir.append(name, modelOps, QString::fromStdString(tir::printPrimFunc(f)));
            result->c.append(name, modelOps, QString::fromStdString(codegen::printCSource(f)));
          }
          // The rest of the generated code (AOT executor, registry, header)
          // follows the operators, so the C view holds everything that is built.
          for (const auto* files : {&model.sources, &model.headers}) {
            for (const codegen::GeneratedFile& file : *files) {
              const bool operatorSource =
                  std::any_of(model.functions.begin(), model.functions.end(),
                              [&](const tir::PrimFunc& f) { return file.name == f.name + ".c"; });
              if (operatorSource) continue;
              result->c.append(
                  {}, {},
                  QStringLiteral("// ---- %1 ----\n").arg(QString::fromStdString(file.name)) +
                      QString::fromStdString(file.text));
            }
          }
          result->overlaps = model.memoryPlan.overlaps;
          result->traced = allowancesOf(model.graph, model.memoryPlan, model.isa);
          result->patches = model.patches;
          result->plan = layoutWithBounds(model.graph, model.memoryPlan, model.memories,
                                          result->traced, result->patches);
        } catch (const std::exception& error) {
          result->error = QString::fromUtf8(error.what());
        }
        return result;
      }));
}

void ModelCompilation::onCompilationDone() {
  std::shared_ptr<const Result> result = compileWatcher_.result();
  compiling_ = false;
  if (result->generation != generation_) {
    startCompilation();  // the model changed while this one compiled
    return;
  }
  if (!result->error.isEmpty()) {
    result_.reset();
    memoryPlan_ = {};
    comparisonPlan_ = {};
    state_ = State::Failed;
    errorMessage_ = result->error;
    emit compilationFailed(errorMessage_);
  } else {
    result_ = result;
    memoryPlan_ = result->plan;
    comparisonPlan_ = {};  // planned next, when one is chosen
    state_ = State::Compiled;
    emit compiled();
    emit memoryPlanChanged();
  }
  // The user may have picked another planner while it compiled.
  if (state_ == State::Compiled &&
      (memoryPlan_.planner != planner_ || comparisonPlan_.planner != comparisonPlanner_)) {
    startReplan();
    return;
  }
  emit busyChanged(isBusy());
}

void ModelCompilation::setPlanner(const QString& name) {
  if (memory::findPlanner(name.toStdString()) == nullptr || name == planner_) return;
  planner_ = name;
  if (state_ == State::Compiled) startReplan();
}

void ModelCompilation::setOverlapOutputs(bool on) {
  if (on == overlapOutputs_) return;
  overlapOutputs_ = on;
  emit overlapOutputsChanged(on);
  if (document_->isLoaded()) startCompilation();
}

QString ModelCompilation::fitNote() const {
  return result_ ? result_->fitNote : QString();
}

void ModelCompilation::setPatches(bool on) {
  if (on == patches_) return;
  patches_ = on;
  emit patchesChanged(on);
  if (document_->isLoaded()) startCompilation();
}

void ModelCompilation::setComparisonPlanner(const QString& name) {
  if (!name.isEmpty() && memory::findPlanner(name.toStdString()) == nullptr) return;
  if (name == comparisonPlanner_) return;
  comparisonPlanner_ = name;
  if (state_ == State::Compiled) startReplan();
}

void ModelCompilation::startReplan() {
  if (replanning_) {
    replanPending_ = true;  // run again with the newest choice once it is done
    return;
  }
  replanPending_ = false;
  replanning_ = true;
  emit busyChanged(true);
  std::shared_ptr<const Result> compiledResult = result_;
  const QString planner = planner_;
  const QString comparison = comparisonPlanner_;
  const int generation = generation_;
  replanWatcher_.setFuture(QtConcurrent::run(
      [compiledResult, planner, comparison, generation]() -> std::shared_ptr<const Replan> {
        auto replan = std::make_shared<Replan>();
        replan->generation = generation;
        try {
          if (!comparison.isEmpty()) {
            const memory::MemoryPlan other = memory::planMemoryUnchecked(
                compiledResult->graph,
                planOptions(comparison, compiledResult->scratchBytes, compiledResult->pools,
                            compiledResult->overlaps, compiledResult->patches));
            replan->comparison =
                memoryPlanLayout(compiledResult->graph, other, compiledResult->memories);
          }
          const memory::MemoryPlan plan = memory::planMemoryUnchecked(
              compiledResult->graph,
              planOptions(planner, compiledResult->scratchBytes, compiledResult->pools,
                          compiledResult->overlaps, compiledResult->patches));
          replan->plan = layoutWithBounds(compiledResult->graph, plan, compiledResult->memories,
                                          compiledResult->traced, compiledResult->patches);
        } catch (const std::exception& error) {
          replan->error = QString::fromUtf8(error.what());
        }
        return replan;
      }));
}

void ModelCompilation::onReplanDone() {
  std::shared_ptr<const Replan> replan = replanWatcher_.result();
  replanning_ = false;
  if (replan->generation == generation_ && state_ == State::Compiled) {
    if (replan->error.isEmpty()) {
      memoryPlan_ = replan->plan;
      comparisonPlan_ = replan->comparison;
      emit memoryPlanChanged();
    } else {
      emit compilationFailed(replan->error);
    }
  }
  if (replanPending_ && state_ == State::Compiled) {
    startReplan();
    return;
  }
  replanPending_ = false;
  emit busyChanged(isBusy());
}

bool ModelCompilation::waitUntilIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (isBusy() && !deadline.hasExpired()) {
    // Sleep in the event loop until something changes, waking now and then
    // to check the deadline.
    QEventLoop loop;
    QTimer::singleShot(50, &loop, &QEventLoop::quit);
    connect(this, &ModelCompilation::busyChanged, &loop, &QEventLoop::quit);
    loop.exec();
  }
  return !isBusy();
}

}  // namespace loupe::models
