#include "views/problems_view.h"

#include <QHeaderView>
#include <QPainter>
#include <QStyledItemDelegate>

#include "models/model_document.h"
#include "models/problem_list_model.h"

namespace loupe::views {

namespace {

using models::ProblemListModel;

// The model says how severe a problem is; the style decides how that looks.
class SeverityIconDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.column() != ProblemListModel::DescriptionColumn) return;
    const auto severity =
        static_cast<ProblemListModel::Severity>(index.data(ProblemListModel::SeverityRole).toInt());
    const QWidget* widget = option->widget;
    QStyle* style = widget ? widget->style() : nullptr;
    if (!style) return;
    option->icon = style->standardIcon(severity == ProblemListModel::Severity::Error
                                           ? QStyle::SP_MessageBoxCritical
                                           : QStyle::SP_MessageBoxWarning,
                                       nullptr, widget);
    option->features |= QStyleOptionViewItem::HasDecoration;
    option->decorationSize = QSize(16, 16);
  }
};

}  // namespace

ProblemsView::ProblemsView(models::ModelDocument* document, ProblemListModel* model,
                           QWidget* parent)
    : QTreeView(parent), document_(document) {
  setModel(model);
  setItemDelegate(new SeverityIconDelegate(this));
  setRootIsDecorated(false);
  setUniformRowHeights(true);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setAlternatingRowColors(true);
  setTextElideMode(Qt::ElideRight);
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(ProblemListModel::DescriptionColumn, QHeaderView::Stretch);
  header()->setSectionResizeMode(ProblemListModel::LocationColumn, QHeaderView::ResizeToContents);

  connect(this, &QAbstractItemView::doubleClicked, this, &ProblemsView::activate);
  connect(this, &QAbstractItemView::activated, this, &ProblemsView::activate);
}

void ProblemsView::paintEvent(QPaintEvent* event) {
  QTreeView::paintEvent(event);
  if (model()->rowCount() > 0 || !document_->isLoaded()) return;
  // An empty list is good news; say so rather than look unfinished.
  QPainter painter(viewport());
  painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
  painter.drawText(viewport()->rect().adjusted(8, 8, -8, -8), Qt::AlignLeft | Qt::AlignTop,
                   tr("No problems: %1 imported cleanly and the reference interpreter can run "
                      "every operator.")
                       .arg(document_->modelName()));
}

void ProblemsView::activate(const QModelIndex& index) {
  const int op = index.data(ProblemListModel::OperatorIndexRole).toInt();
  if (!index.isValid() || op < 0) return;
  document_->setCurrentOperator(op);
  emit operatorActivated(op);
}

}  // namespace loupe::views
