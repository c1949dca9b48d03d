// Two compilations side by side (the Compare tab): the window's model as
// compiled now (A) and the same model with other targets or another
// planner, or another model file (B), both compiled off the GUI thread, then
// compared operator by operator (driver/compilation_diff.h). Also a table
// model of the comparison, one row per operator pair.
#pragma once

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <optional>

#include <QHash>
#include <stop_token>

#include "deploy/registries.h"
#include "driver/compilation_diff.h"
#include "models/comparison_costs.h"
#include "models/device_mapping.h"
#include "models/memory_plan_layout.h"
#include "target/target_string.h"

namespace loupe::models {

// What one side compiles.
struct ComparisonSide {
  QString label;  // "kws_ref_model · Ethos-U ethos-u55-128 + CPU · branch_and_bound"
  ir::Graph model;
  target::TargetList targets;
  QString planner;
};

class CompilationComparison : public QObject {
  Q_OBJECT

 public:
  // `registries` (which outlive it) give the targets' cycle sweeps and the
  // platforms a comparison is measured on.
  explicit CompilationComparison(const deploy::Registries& registries, QObject* parent = nullptr);
  ~CompilationComparison() override;  // stops a measurement in flight and waits

  // Reads the model B compares with; nothing, and why in `error`, when it
  // cannot be imported.
  static std::optional<ir::Graph> importModel(const QString& path, QString* error);

  // Compiles both and compares them; with `measureOn`, also runs both there
  // (on the same random inputs, each checked against the reference
  // interpreter) and compares their measured times. A comparison already
  // running finishes first and is dropped.
  void start(ComparisonSide a, ComparisonSide b,
             std::shared_ptr<const deploy::Platform> measureOn = nullptr);
  bool isRunning() const { return running_; }
  // Runs the event loop until done; false when `timeoutMs` passed first.
  bool waitUntilIdle(int timeoutMs);

  bool hasResult() const { return result_ != nullptr; }
  QString error() const;  // why the last comparison failed, or empty
  const driver::CompilationDiff& diff() const;
  const MemoryPlanLayout& planA() const;
  const MemoryPlanLayout& planB() const;
  QString labelA() const;
  QString labelB() const;
  // The table's rows: one per operator pair of diff(), but a pair of
  // operators that both stand for the same several model operators (two
  // Ethos-U operators of one region, compiled for two configurations) is
  // one row per model operator, so each gets its own figures.
  int rowCount() const;
  const driver::OperatorDifference& rowDifference(int row) const;
  // A row of such a pair: its model operator's type ("CONV_2D"); else empty.
  QString splitRowType(int row) const;
  // The imported model's operators of row `row`'s A side (what selecting
  // it selects), empty for an operator B adds.
  QList<int> modelOperatorsOfA(int row) const;
  // The same for B's side: empty for an operator B removed.
  QList<int> modelOperatorsOfB(int row) const;
  // The verdict on each imported operator of A (changed, removed) and of B
  // (changed, added), for marking the graphs; same ones are left out.
  const QHash<int, QString>& marksA() const;
  const QHash<int, QString>& marksB() const;
  // Where each side runs its operators (the graphs' target colours).
  const DeviceMapping& mappingA() const;
  const DeviceMapping& mappingB() const;
  // Measured board time per imported operator of each side (empty when not
  // measured; a call running several shares its time evenly), in diff().timeUnit.
  const std::vector<double>& operatorTimesA() const;
  const std::vector<double>& operatorTimesB() const;
  // Per row, each side's one figure for it: estimated NPU cycles where
  // an Ethos-U runs it, else the measured time (comparison_costs.h).
  const QList<RowCosts>& rowCosts() const;
  // Those with a figure on both sides, totalled per pair of kinds.
  const QList<CostTotals>& costTotals() const;

 signals:
  void started();
  // A stage of a measurement ("A build: ..."), from its worker.
  void progress(const QString& line);
  void finished();

 private:
  struct Result;
  void onFinished();

  struct Request {
    ComparisonSide a, b;
    std::shared_ptr<const deploy::Platform> measureOn;
  };

  const deploy::Registries& registries_;
  QFutureWatcher<std::shared_ptr<const Result>> watcher_;
  std::shared_ptr<const Result> result_;
  bool running_ = false;
  std::stop_source stop_;
  // A start() while running: compared when the running one finishes.
  std::unique_ptr<Request> pending_;
};

// One row per CompilationComparison row: status, operator indices, type, target A -> B, each side's
// one figure for the operator (estimated NPU cycles or measured time, the kind in the header) and B
// / A, MACs, weights, output bytes and estimated cycles of A and B, the difference of the cycles,
// the measured times and their difference, and the tensor the operator writes.
class ComparisonTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    StatusColumn,
    IndexColumn,  // "#3 -> #3": the operator in A and in B
    TypeColumn,
    TargetColumn,
    CostAColumn,  // estimated NPU cycles or measured time (RowCosts)
    CostBColumn,
    CostRatioColumn,  // B / A, also where the units differ (the header says so)
    MacsAColumn,
    MacsBColumn,
    WeightsAColumn,
    WeightsBColumn,
    OutputAColumn,
    OutputBColumn,
    CyclesAColumn,
    CyclesBColumn,
    CyclesDeltaColumn,
    TimeAColumn,  // measured on a board (empty when not measured)
    TimeBColumn,
    TimeDeltaColumn,
    TensorColumn,  // the tensor it writes (long: last)
    ColumnCount
  };
  explicit ComparisonTableModel(const CompilationComparison* comparison, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  // "same", "changed", "added", "removed"
  QString status(int row) const;
  // The kinds of figure column CostAColumn (`sideB` false) or CostBColumn holds.
  QList<CostKind> costKinds(bool sideB) const;

 private:
  const CompilationComparison* comparison_;
};

}  // namespace loupe::models
