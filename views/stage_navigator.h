// The stage navigator on the left: the open model and the compilation stages
// the document holds. Choosing a stage emits stageActivated() so the window
// shows that stage's views.
#pragma once

#include <QTreeView>

#include "models/compilation_stage.h"

namespace loupe::models {
class StageTreeModel;
}

namespace loupe::views {

class StageNavigator : public QTreeView {
  Q_OBJECT

 public:
  explicit StageNavigator(models::StageTreeModel* model, QWidget* parent = nullptr);

 signals:
  void stageActivated(loupe::models::CompilationStage stage);

 private:
  void selectFirstStage();
};

}  // namespace loupe::views
