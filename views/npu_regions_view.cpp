#include "views/npu_regions_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>

#include "models/display_text.h"
#include "models/npu_operation_selection.h"
#include "models/npu_region_model.h"
#include "views/npu_region_chart.h"
#include "views/view_fonts.h"

namespace loupe::views {

using models::NpuRegionModel;

NpuRegionsView::NpuRegionsView(NpuRegionModel* model, models::NpuOperationSelection* selection,
                               QWidget* parent)
    : QWidget(parent),
      model_(model),
      selection_(selection),
      header_(new QLabel(this)),
      tabs_(new QTabBar(this)),
      pages_(new QStackedWidget(this)),
      placeholder_(new QLabel(this)),
      chart_(new NpuRegionChart(this)),
      table_(new QTableView(this)),
      laneRows_(new QSortFilterProxyModel(this)),
      split_(new QSplitter(Qt::Horizontal, this)) {
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 0);
  bar->addWidget(tabs_);
  bar->addWidget(header_, 1);
  tabs_->setDrawBase(false);
  tabs_->setExpanding(false);

  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setContentsMargins(16, 16, 16, 16);

  // Only the shown region's rows.
  laneRows_->setSourceModel(model_);
  laneRows_->setFilterRole(NpuRegionModel::LaneRole);
  laneRows_->setFilterKeyColumn(0);
  table_->setModel(laneRows_);
  table_->setFont(codeFont());
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setColumnHidden(NpuRegionModel::RegionColumn, true);  // the tab says it

  split_->addWidget(chart_);
  split_->addWidget(table_);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  split_->setChildrenCollapsible(false);
  pages_->addWidget(placeholder_);
  pages_->addWidget(split_);

  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addLayout(bar);
  column->addWidget(pages_, 1);

  connect(model_, &QAbstractItemModel::modelReset, this, &NpuRegionsView::showLayout);
  connect(model_, &NpuRegionModel::selectionShown, this, &NpuRegionsView::showSelection);
  connect(tabs_, &QTabBar::currentChanged, this, &NpuRegionsView::showLane);
  connect(chart_, &NpuRegionChart::operationClicked, this, [this](int ordinal) {
    if (model_->operatorIndex() >= 0) selection_->select(model_->operatorIndex(), ordinal);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &NpuRegionsView::onRowActivated);
  showLayout();
}

QString NpuRegionsView::headerText() const {
  return header_->text();
}

QString NpuRegionsView::placeholderText() const {
  return pages_->currentWidget() == placeholder_ ? placeholder_->text() : QString();
}

bool NpuRegionsView::showRegion(int region) {
  const int lane = model_->layout().laneOf(region);
  if (lane < 0) return false;
  tabs_->setCurrentIndex(lane);
  return true;
}

void NpuRegionsView::showLayout() {
  const models::NpuRegionLayout& layout = model_->layout();
  {
    const QSignalBlocker blocker(tabs_);
    while (tabs_->count() > 0) tabs_->removeTab(0);
    for (const models::NpuRegionLane& lane : layout.lanes) {
      tabs_->addTab(QStringLiteral("%1 \u00b7 %2").arg(lane.region).arg(lane.name));
    }
  }
  if (layout.isEmpty()) {
    header_->clear();
    tabs_->hide();
    placeholder_->setText(model_->placeholderText());
    pages_->setCurrentWidget(placeholder_);
    chart_->setLane(layout, -1);
    return;
  }
  tabs_->show();
  QStringList parts;
  for (const models::NpuRegionLane& lane : layout.lanes) {
    QString part = QStringLiteral("%1 %2 B").arg(lane.name, models::groupedNumber(lane.extent()));
    if (lane.region == 0) {
      part += tr(", %1 B unused").arg(models::groupedNumber(layout.unusedFlashBytes));
    } else {
      part += tr(", %n range(s)", nullptr, static_cast<int>(lane.boxes.size()));
    }
    parts << part;
  }
  if (!layout.problems.isEmpty())
    parts << tr("%n problem(s)", nullptr, static_cast<int>(layout.problems.size()));
  header_->setText(parts.join(QStringLiteral(" \u00b7 ")));
  header_->setToolTip(layout.problems.join(QLatin1Char('\n')));
  pages_->setCurrentWidget(split_);
  // The scratch first: the feature maps are what the stream is about.
  const int scratch = layout.laneOf(1);
  const int lane = scratch >= 0 ? scratch : 0;
  tabs_->setCurrentIndex(lane);
  showLane(lane);
}

void NpuRegionsView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitSplit();
}

void NpuRegionsView::fitSplit() {
  // The chart is the point: three fifths of the width, whatever the table's
  // columns would like; once the dock has a width, then the user's.
  if (sized_ || split_->width() < 400) return;
  split_->setSizes({split_->width() * 3 / 5, split_->width() * 2 / 5});
  sized_ = true;
  // The selected operation's row, now that the table has its height.
  if (table_->currentIndex().isValid()) {
    table_->scrollTo(table_->currentIndex(), QAbstractItemView::PositionAtCenter);
  }
}

void NpuRegionsView::showLane(int lane) {
  const models::NpuRegionLayout& layout = model_->layout();
  chart_->setLane(layout, lane);
  laneRows_->setFilterRegularExpression(QRegularExpression(QStringLiteral("^%1$").arg(lane)));
  table_->resizeColumnsToContents();
  fitSplit();
  showSelection();
}

void NpuRegionsView::showSelection() {
  const int ordinal = model_->selectedOperation();
  chart_->setSelectedOperation(ordinal);
  if (ordinal < 0) return;
  // Already on one of its rows: leave the user's row.
  const QModelIndex current = table_->currentIndex();
  if (current.isValid() && current.data(NpuRegionModel::SelectedRole).toBool()) return;
  for (int row = 0; row < laneRows_->rowCount(); ++row) {
    const QModelIndex index = laneRows_->index(row, NpuRegionModel::KindColumn);
    if (!index.data(NpuRegionModel::SelectedRole).toBool()) continue;
    const QSignalBlocker blocker(table_->selectionModel());
    table_->setCurrentIndex(index);
    table_->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return;
  }
}

void NpuRegionsView::onRowActivated() {
  const QModelIndex current = table_->currentIndex();
  if (!current.isValid() || model_->operatorIndex() < 0) return;
  // A row of the selected operation keeps it; another picks the row's first user.
  if (current.data(NpuRegionModel::SelectedRole).toBool()) return;
  const int ordinal = current.data(NpuRegionModel::FirstOperationRole).toInt();
  if (ordinal >= 0) selection_->select(model_->operatorIndex(), ordinal);
}

}  // namespace loupe::views
