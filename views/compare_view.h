// The Compare tab: the window's compilation (A) beside another (B) - the
// same model with other targets or another planner, or another model file -
// operator by operator (added, removed and changed rows coloured), the
// totals with B/A, both memory plans on one byte scale, and both graphs with
// the changed, added and removed operators marked. Optionally both run on a
// board and their measured times are compared. Selecting a row selects its
// operator in every view (and in B's graph).
#pragma once

#include <QList>
#include <QWidget>

#include "deploy/registries.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTabWidget;

namespace loupe::models {
class CompilationComparison;
class ComparisonTableModel;
class DocumentGraphLayout;
class ModelCompilation;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class GraphView;
class MemoryTimelineChart;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  CompareView(models::ModelDocument* document, models::ModelCompilation* compilation,
              const deploy::Registries& registries, QWidget* parent = nullptr);
  ~CompareView() override;

  // Editable: a choice, or a target list typed as `loupec --target` takes
  // it; once parsed it shows the choice B compiles (setTargetB).
  QComboBox* targetBSelector() const { return targetB_; }
  // B compiles for `targetString`: the box shows its choice, canonical
  // ("ethos-u, c" shows "Ethos-U ethos-u55-128 + CPU"). Returns why it is
  // not a target list (the box unchanged), or empty.
  QString setTargetB(const QString& targetString);
  // The canonical target string B compiles for now.
  QString targetBString() const;
  QComboBox* plannerBSelector() const { return plannerB_; }
  QPushButton* compareButton() const { return compareButton_; }
  // "don't run" (first), then the platforms that need no serial port.
  QComboBox* measureSelector() const { return measure_; }
  QTabWidget* lowerTabs() const { return lowerTabs_; }
  // Both graphs, made with the first result (nullptr before).
  GraphView* graphA() const { return graphA_; }
  GraphView* graphB() const { return graphB_; }
  models::ModelDocument* documentB() const { return documentB_; }
  QTableView* table() const { return table_; }
  MemoryTimelineChart* chartA() const { return chartA_; }
  MemoryTimelineChart* chartB() const { return chartB_; }
  models::CompilationComparison* comparison() const { return comparison_; }
  models::ComparisonTableModel* tableModel() const { return tableModel_; }
  QString summaryText() const;

  // Comparing, or laying out the graphs of the last comparison.
  bool isBusy() const;
  // Runs the event loop until !isBusy(); false when `timeoutMs` passed first.
  bool waitUntilIdle(int timeoutMs);

  // B compiles the model in `path` (a retrained or re-quantised version);
  // empty: the window's own model. Returns why it cannot be read, or empty.
  QString setModelB(const QString& path);
  // Compiles A and B and compares them, off the GUI thread.
  void compare();

 private:
  void chooseModelB();
  // What Target B's box asks for: the chosen item's target string, or the typed text.
  QString typedTargetB() const;
  void showResult();
  void showGraphs();
  // Selects in B's graph the operator corresponding to A's `modelOperatorA`.
  void selectInB(int modelOperatorA);
  // Selects in B's graph table row `row`'s B operator: `modelOperatorA`
  // itself where B's operator stands for it among others (a merged pair),
  // else B's first.
  void selectRowInB(int row, int modelOperatorA);

  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  const deploy::Registries& registries_;
  models::CompilationComparison* comparison_;
  models::ComparisonTableModel* tableModel_;
  QString modelBPath_;
  QLabel* modelBLabel_;
  QComboBox* targetB_;
  QComboBox* plannerB_;
  QComboBox* measure_;
  QPushButton* compareButton_;
  QLabel* summary_;
  QTableView* table_;
  QTabWidget* lowerTabs_;
  MemoryTimelineChart* chartA_;
  MemoryTimelineChart* chartB_;
  QWidget* graphs_;
  // B's model and both graphs' layouts, made with the first result.
  models::ModelDocument* documentB_ = nullptr;
  models::DocumentGraphLayout* layoutA_ = nullptr;
  models::DocumentGraphLayout* layoutB_ = nullptr;
  GraphView* graphA_ = nullptr;
  GraphView* graphB_ = nullptr;
};

}  // namespace loupe::views
