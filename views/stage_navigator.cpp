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
            if (parent.isValid()) selectFirstStage();
          });
  connect(selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            const QVariant stage = current.data(StageTreeModel::StageRole);
            if (stage.isValid())
              emit stageActivated(static_cast<models::CompilationStage>(stage.toInt()));
          });
}

void StageNavigator::selectFirstStage() {
  const QModelIndex root = model()->index(0, 0);
  const QModelIndex first = model()->index(0, 0, root);
  if (first.isValid() && !currentIndex().isValid()) setCurrentIndex(first);
}

}  // namespace loupe::views
