// The stage navigator on the left: the open model and the compilation stages
// the document holds. Choosing a stage emits stageActivated() so the window
// shows that stage's views; the window tells it which stage its current tab
// belongs to (selectStage), and it keeps that stage selected when the list
// grows as compilation finishes.
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

  // Marks `stage` as the one shown, without emitting stageActivated().
  void selectStage(models::CompilationStage stage);

 signals:
  void stageActivated(loupe::models::CompilationStage stage);

 private:
  models::CompilationStage shownStage_ = models::CompilationStage::Imported;
  bool selectingQuietly_ = false;
};

}  // namespace loupe::views
