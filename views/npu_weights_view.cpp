#include "views/npu_weights_view.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "models/display_text.h"
#include "models/npu_weights_model.h"
#include "views/npu_weight_heat_map.h"
#include "views/view_fonts.h"

namespace loupe::views {

NpuWeightsView::NpuWeightsView(models::NpuWeightsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      header_(new QLabel(this)),
      pages_(new QStackedWidget(this)),
      placeholder_(new QLabel(this)),
      table_(new QTableView(this)),
      heatMap_(new NpuWeightHeatMap(this)),
      split_(new QSplitter(Qt::Horizontal, this)) {
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  header_->setContentsMargins(8, 4, 8, 4);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setContentsMargins(16, 16, 16, 16);

  table_->setModel(model_);
  table_->setFont(codeFont());
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);

  split_->addWidget(table_);
  split_->addWidget(heatMap_);
  split_->setStretchFactor(0, 0);
  split_->setStretchFactor(1, 1);
  split_->setChildrenCollapsible(false);
  pages_->addWidget(placeholder_);
  pages_->addWidget(split_);

  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addWidget(header_);
  column->addWidget(pages_, 1);

  connect(model_, &QAbstractItemModel::modelReset, this, &NpuWeightsView::showWeights);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { heatMap_->setSelectedChannel(current.row()); });
  connect(heatMap_, &NpuWeightHeatMap::channelClicked, this, [this](int channel) {
    const QModelIndex row = model_->index(channel, 0);
    table_->setCurrentIndex(row);
    table_->scrollTo(row);
  });
  showWeights();
}

QString NpuWeightsView::headerText() const {
  return header_->text();
}

QString NpuWeightsView::placeholderText() const {
  return pages_->currentWidget() == placeholder_ ? placeholder_->text() : QString();
}

void NpuWeightsView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitSplit();
}

void NpuWeightsView::fitSplit() {
  // The table as wide as its columns, the heat map the rest (once the dock
  // has a width to share).
  int tableWidth = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
  for (int c = 0; c < model_->columnCount(); ++c) tableWidth += table_->columnWidth(c);
  const int total = split_->width();
  if (!fitPending_ || total < tableWidth + 200) return;
  split_->setSizes({tableWidth, total - tableWidth});
  fitPending_ = false;
}

void NpuWeightsView::showWeights() {
  const models::NpuWeights& w = model_->weights();
  heatMap_->setWeights(w);
  if (w.isEmpty()) {
    header_->clear();
    placeholder_->setText(model_->placeholderText());
    pages_->setCurrentWidget(placeholder_);
    return;
  }
  QStringList parts{w.title, w.shapeText(), w.compressionText(),
                    tr("scales %1 B").arg(models::groupedNumber(w.scaleBytes))};
  if (w.cores > 1) parts << tr("%1 cores").arg(w.cores);
  if (!w.copiedBy.isEmpty()) parts << tr("read from the copy %1 made").arg(w.copiedBy);
  header_->setText(parts.join(QStringLiteral(" \u00b7 ")));
  pages_->setCurrentWidget(split_);
  table_->resizeColumnsToContents();
  fitPending_ = true;
  fitSplit();
}

}  // namespace loupe::views
