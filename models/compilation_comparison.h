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

#include "driver/compilation_diff.h"
#include "models/memory_plan_layout.h"
#include "target/target_string.h"

namespace loupe::models {

// What one side compiles.
struct ComparisonSide {
  QString label;  // "kws_ref_model · NPU npu-128 + CPU · branch_and_bound"
  ir::Graph model;
  target::TargetList targets;
  QString planner;
};

class CompilationComparison : public QObject {
  Q_OBJECT

 public:
  explicit CompilationComparison(QObject* parent = nullptr);
  ~CompilationComparison() override;

  // Reads the model B compares with; nothing, and why in `error`, when it
  // cannot be imported.
  static std::optional<ir::Graph> importModel(const QString& path, QString* error);

  // Compiles both and compares them; a comparison already running finishes
  // first and is dropped.
  void start(ComparisonSide a, ComparisonSide b);
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
  // The imported model's operators of row `row`'s A side (what selecting
  // it selects), empty for an operator B adds.
  QList<int> modelOperatorsOfA(int row) const;

 signals:
  void started();
  void finished();

 private:
  struct Result;
  void onFinished();

  QFutureWatcher<std::shared_ptr<const Result>> watcher_;
  std::shared_ptr<const Result> result_;
  bool running_ = false;
  // A start() while running: compared when the running one finishes.
  std::unique_ptr<std::pair<ComparisonSide, ComparisonSide>> pending_;
};

// Status, operator indices, type, target A -> B, MACs, weights, output
// bytes and estimated cycles of A and B, the difference of the cycles, and
// the tensor the operator writes.
class ComparisonTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    StatusColumn,
    IndexColumn,  // "#3 -> #3": the operator in A and in B
    TypeColumn,
    TargetColumn,
    MacsAColumn,
    MacsBColumn,
    WeightsAColumn,
    WeightsBColumn,
    OutputAColumn,
    OutputBColumn,
    CyclesAColumn,
    CyclesBColumn,
    CyclesDeltaColumn,
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

 private:
  const CompilationComparison* comparison_;
};

}  // namespace loupe::models
