// The NPU Regions dock: what the selected Vela operator's (ethos-u) command
// stream keeps where. One tab per memory region - the flash (weights,
// bias and scale records, lookup tables, unused bytes), the scratch and the
// fast scratch (feature maps and DMA copies over their lifetimes) - each a
// chart on the (NPU operation x address) plane beside a table of its
// ranges. Picking a box or a row picks its NPU operation in the Graph view
// and the Command Stream too, and the other way round.
#pragma once

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTabBar;
class QTableView;

namespace loupe::models {
class NpuOperationSelection;
class NpuRegionModel;
}  // namespace loupe::models

namespace loupe::views {

class NpuRegionChart;

class NpuRegionsView : public QWidget {
  Q_OBJECT

 public:
  NpuRegionsView(models::NpuRegionModel* model, models::NpuOperationSelection* selection,
                 QWidget* parent = nullptr);

  models::NpuRegionModel* model() const { return model_; }
  NpuRegionChart* chart() const { return chart_; }
  QTabBar* regionTabs() const { return tabs_; }
  // The table of the shown region's ranges (a filter over the model).
  QTableView* table() const { return table_; }
  // "op 0 CUSTOM(ethos-u) · flash 260,480 B, 1,024 B unused · scratch 74,464 B".
  QString headerText() const;
  QString placeholderText() const;
  // Shows the lane of region `region`; false when there is none.
  bool showRegion(int region);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fitSplit();
  void showLayout();
  void showLane(int lane);
  void showSelection();
  void onRowActivated();

  models::NpuRegionModel* model_;
  models::NpuOperationSelection* selection_;
  QLabel* header_;
  QTabBar* tabs_;
  QStackedWidget* pages_;
  QLabel* placeholder_;
  NpuRegionChart* chart_;
  QTableView* table_;
  QSortFilterProxyModel* laneRows_;
  QSplitter* split_;
  bool sized_ = false;  // the chart's share of the width set once, then the user's
};

}  // namespace loupe::views
