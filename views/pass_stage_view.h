// The Passes tab: the graph as each pass of the last compilation left it
// (LLVM's -print-after-all, from the pass timeline), one stage at a time -
// "imported", the default pipeline's passes, then annotate_targets,
// merge_target_regions and partition_graph, whose graph carries every
// operator's target and region. The stage navigator's Fused and Partitioned
// stages open it at fuse_operators and partition_graph.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QsciScintilla;

namespace loupe::models {
class ModelCompilation;
}

namespace loupe::views {

class PassStageView : public QWidget {
  Q_OBJECT

 public:
  explicit PassStageView(models::ModelCompilation* compilation, QWidget* parent = nullptr);

  // Shows the stage of that pass ("fuse_operators"); returns whether there is one.
  bool showStage(const QString& name);
  QString shownStage() const;
  QString shownText() const;
  QComboBox* stageBox() const { return stageBox_; }

 private:
  void refresh();
  void showIndex(int index);

  models::ModelCompilation* compilation_;
  QComboBox* stageBox_;
  QLabel* status_;
  QsciScintilla* editor_;
  QString wanted_;  // the stage to show once compiled; the Fused stage at first
};

}  // namespace loupe::views
