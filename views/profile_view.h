// The Profile dock: the last board run's per-operator profile as a sortable
// table (operator, type, time, MACs, % of the run) and a horizontal bar chart
// of the slowest operator calls, the unit in the axis title. Selecting a row
// or clicking a bar selects the operator in every view.
#pragma once

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

class QChartView;

namespace loupe::models {
class BoardRun;
class ModelDocument;
class ProfileTableModel;
}  // namespace loupe::models

namespace loupe::views {

class ProfileView : public QWidget {
  Q_OBJECT

 public:
  ProfileView(models::ModelDocument* document, models::BoardRun* run,
              models::ProfileTableModel* model, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  QChartView* chartView() const { return chartView_; }
  // The operator calls the chart shows (the slowest first), at most kMaxBars.
  int barCount() const { return barCount_; }
  static constexpr int kMaxBars = 16;
  // Selects the operator of the chart's bar `index` (as a click does).
  void activateBar(int index);

 private:
  void rebuildChart();
  void updateSummary();
  void showCurrentOperator(int operatorIndex);

  models::ModelDocument* document_;
  models::BoardRun* run_;
  models::ProfileTableModel* model_;
  QSortFilterProxyModel* proxy_;
  QLabel* summary_;
  QTableView* table_;
  QChartView* chartView_;
  QList<int> barOperators_;  // per bar, the operator it selects
  int barCount_ = 0;
};

}  // namespace loupe::views
