#include "views/properties_view.h"

#include <QHeaderView>
#include <QPainter>

#include "models/operator_properties_model.h"

namespace loupe::views {

PropertiesView::PropertiesView(models::OperatorPropertiesModel* model, QWidget* parent)
    : QTreeView(parent) {
  setModel(model);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setAlternatingRowColors(true);
  setUniformRowHeights(true);
  setIndentation(14);
  setTextElideMode(Qt::ElideMiddle);
  header()->setSectionResizeMode(models::OperatorPropertiesModel::PropertyColumn,
                                 QHeaderView::ResizeToContents);
  header()->setStretchLastSection(true);
  // Every section and every operand is worth seeing at once: expand as the
  // model adds rows.
  connect(model, &QAbstractItemModel::rowsInserted, this,
          [this, model](const QModelIndex& parent, int first, int last) {
            for (int row = first; row <= last; ++row) expand(model->index(row, 0, parent));
          });
}

void PropertiesView::paintEvent(QPaintEvent* event) {
  QTreeView::paintEvent(event);
  if (model() && model()->rowCount() > 0) return;
  QPainter painter(viewport());
  painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
  painter.drawText(viewport()->rect().adjusted(8, 8, -8, -8), Qt::AlignHCenter | Qt::AlignTop,
                   tr("No operator selected"));
}

}  // namespace loupe::views
