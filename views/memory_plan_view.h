// The Memory Plan tab: the algorithm selector (every planner of the registry;
// choosing one re-plans at once, off the GUI thread), the plan's total, lower
// bound and gap, and the timeline chart with the current operator's buffers
// highlighted; optionally a second algorithm's plan under it, on the same
// scale, to compare. Compiled for a board, the board's memories with their
// fill above the chart, whose lanes are its pools.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace loupe::models {
class ModelCompilation;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class BoardMemoryBars;
class MemoryTimelineChart;

class MemoryPlanView : public QWidget {
  Q_OBJECT

 public:
  MemoryPlanView(models::ModelDocument* document, models::ModelCompilation* compilation,
                 QWidget* parent = nullptr);

  QComboBox* plannerSelector() const { return planner_; }
  // "nothing" first, then every planner: the plan drawn under the first.
  QComboBox* comparisonSelector() const { return comparison_; }
  // The user's pools, as --pools takes them; empty: the board's memories
  // (or one workspace pool). Applied when editing finishes.
  QLineEdit* poolsEditor() const { return pools_; }
  // Lets outputs start inside their dying inputs (recompiles).
  QCheckBox* overlapSwitch() const { return overlap_; }
  // Runs the first operators strip by strip where that lowers the bound
  // (recompiles).
  QCheckBox* patchSwitch() const { return patches_; }
  MemoryTimelineChart* chart() const { return chart_; }
  // The board's memories and their fill (hidden when compiled for no board).
  BoardMemoryBars* memoryBars() const { return memoryBars_; }
  MemoryTimelineChart* comparisonChart() const { return comparisonChart_; }
  // The total the view states, in bytes (-1 when there is no plan).
  qint64 shownTotalBytes() const;
  // What the firmware last built for `platform` loads into each memory
  // (deploy::footprintLines), shown under the memories' bars; no lines: hidden.
  void setFlashFootprint(const QString& platform, const QStringList& lines);
  QString flashText() const;
  QString summaryText() const;

 private:
  void showPlan();
  void showState();

  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  QComboBox* planner_;
  QComboBox* comparison_;
  QLineEdit* pools_;
  QCheckBox* overlap_;
  QCheckBox* patches_;
  QLabel* flash_;
  QLabel* summary_;
  BoardMemoryBars* memoryBars_;
  MemoryTimelineChart* chart_;
  MemoryTimelineChart* comparisonChart_;
};

}  // namespace loupe::views
