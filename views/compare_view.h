// The Compare tab: the window's compilation (A) beside another (B) - the
// same model with other targets or another planner, or another model file -
// operator by operator (added, removed and changed rows coloured), the
// totals with B/A, and both memory plans on one byte scale. Selecting a row
// selects its operator in every view.
#pragma once

#include <QList>
#include <QWidget>

#include "models/target_choice.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace loupe::models {
class CompilationComparison;
class ComparisonTableModel;
class ModelCompilation;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class MemoryTimelineChart;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  CompareView(models::ModelDocument* document, models::ModelCompilation* compilation,
              const target::TargetRegistry& targets, QWidget* parent = nullptr);
  ~CompareView() override;

  QComboBox* targetBSelector() const { return targetB_; }
  QComboBox* plannerBSelector() const { return plannerB_; }
  QPushButton* compareButton() const { return compareButton_; }
  QTableView* table() const { return table_; }
  MemoryTimelineChart* chartA() const { return chartA_; }
  MemoryTimelineChart* chartB() const { return chartB_; }
  models::CompilationComparison* comparison() const { return comparison_; }
  models::ComparisonTableModel* tableModel() const { return tableModel_; }
  QString summaryText() const;

  // B compiles the model in `path` (a retrained or re-quantised version);
  // empty: the window's own model. Returns why it cannot be read, or empty.
  QString setModelB(const QString& path);
  // Compiles A and B and compares them, off the GUI thread.
  void compare();

 private:
  void chooseModelB();
  void showResult();

  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  const target::TargetRegistry& targets_;
  models::CompilationComparison* comparison_;
  models::ComparisonTableModel* tableModel_;
  QString modelBPath_;
  QLabel* modelBLabel_;
  QComboBox* targetB_;
  QComboBox* plannerB_;
  QPushButton* compareButton_;
  QLabel* summary_;
  QTableView* table_;
  MemoryTimelineChart* chartA_;
  MemoryTimelineChart* chartB_;
};

}  // namespace loupe::views
