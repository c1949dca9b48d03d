#include "views/stage_navigator.h"

#include <QHeaderView>

#include "models/stage_tree_model.h"

namespace loupe::views {

using models::StageTreeModel;

StageNavigator::StageNavigator(StageTreeModel* model, QWidget* parent) : QTreeView(parent) {
  setModel(model);
  setHeaderHidden(true);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setUniformRowHeights(true);
  setIndentation(14);
  connect(model, &QAbstractItemModel::rowsInserted, this,
          [this, model](const QModelIndex& parent, int first, int last) {
            for (int row = first; row <= last; ++row) expand(model->index(row, 0, parent));
            if (parent.isValid()) selectStage(shownStage_);
          });
  connect(selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            const QVariant stage = current.data(StageTreeModel::StageRole);
            if (!stage.isValid() || selectingQuietly_) return;
            shownStage_ = static_cast<models::CompilationStage>(stage.toInt());
            emit stageActivated(shownStage_);
          });
}

void StageNavigator::selectStage(models::CompilationStage stage) {
  shownStage_ = stage;
  const QModelIndex root = model()->index(0, 0);
  QModelIndex found;
  for (int row = 0; row < model()->rowCount(root); ++row) {
    const QModelIndex index = model()->index(row, 0, root);
    if (index.data(StageTreeModel::StageRole).toInt() == static_cast<int>(stage)) found = index;
  }
  selectingQuietly_ = true;
  if (found.isValid()) {
    setCurrentIndex(found);
  } else {
    clearSelection();
  }
  selectingQuietly_ = false;
}

}  // namespace loupe::views
