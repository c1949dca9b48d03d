#include "views/operator_table_view.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QKeySequence>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <algorithm>

#include "models/model_document.h"
#include "models/operator_table_model.h"

namespace loupe::views {

using models::OperatorTableModel;

namespace {
constexpr int kMaximumOperandColumnWidth = 240;
}

OperatorTableView::OperatorTableView(models::ModelDocument* document, OperatorTableModel* model,
                                     QWidget* parent)
    : QTableView(parent), document_(document), proxy_(new QSortFilterProxyModel(this)) {
  proxy_->setSourceModel(model);
  proxy_->setSortRole(OperatorTableModel::SortRole);
  setModel(proxy_);

  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setAlternatingRowColors(true);
  setWordWrap(false);
  setShowGrid(false);
  setSortingEnabled(true);
  sortByColumn(OperatorTableModel::IndexColumn, Qt::AscendingOrder);
  verticalHeader()->hide();
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
  horizontalHeader()->setHighlightSections(false);
  horizontalHeader()->setStretchLastSection(false);

  connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) document_->setCurrentOperator(operatorAtRow(current.row()));
          });
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &OperatorTableView::showOperator);
  connect(model, &QAbstractItemModel::modelReset, this, &OperatorTableView::fitColumns);
  connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
          &OperatorTableView::fitColumns);
  fitColumns();
}

int OperatorTableView::operatorAtRow(int row) const {
  return proxy_->index(row, 0).data(OperatorTableModel::OperatorIndexRole).toInt();
}

void OperatorTableView::showOperator(int operatorIndex) {
  if (operatorIndex < 0) {
    clearSelection();
    return;
  }
  const QModelIndex source = proxy_->sourceModel()->index(operatorIndex, 0);
  const QModelIndex row = proxy_->mapFromSource(source);
  if (!row.isValid()) return;
  if (currentIndex().row() == row.row() && selectionModel()->isRowSelected(row.row())) return;
  selectionModel()->setCurrentIndex(
      row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  scrollTo(row);
}

void OperatorTableView::paintEvent(QPaintEvent* event) {
  QTableView::paintEvent(event);
  if (proxy_->rowCount() > 0) return;
  // An empty table would look broken; say how to fill it.
  QPainter painter(viewport());
  painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
  painter.drawText(viewport()->rect().adjusted(16, 24, -16, -16), Qt::AlignHCenter | Qt::AlignTop,
                   tr("No model open.\nOpen a .tflite file with File \u25b8 Open Model (%1) "
                      "or drop one on this window.")
                       .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
}

void OperatorTableView::fitColumns() {
  // resizeColumnsToContents() would reserve room for the sort arrow in every
  // header, which pushes the last columns out of sight; only the sorted
  // column shows the arrow.
  QHeaderView* header = horizontalHeader();
  const QFontMetrics headerMetrics(header->font());
  const int arrow = header->isSortIndicatorShown() ? header->sizeHint().height() : 0;
  for (int column = 0; column < proxy_->columnCount(); ++column) {
    const QString title = proxy_->headerData(column, Qt::Horizontal).toString();
    int titleWidth = headerMetrics.horizontalAdvance(title) + 16;
    if (column == header->sortIndicatorSection()) titleWidth += arrow;
    int width = std::max(sizeHintForColumn(column), titleWidth) + 6;
    // Operators with many operands (a vela CUSTOM op has five) would push the
    // numbers off screen; their cells elide and the tool tip has all of them.
    if (column == OperatorTableModel::InputsColumn || column == OperatorTableModel::OutputsColumn) {
      width = std::min(width, kMaximumOperandColumnWidth);
    }
    setColumnWidth(column, width);
  }
}

}  // namespace loupe::views
