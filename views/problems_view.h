// The Problems dock: import errors and operators Loupe cannot run. Activating
// (double-clicking) an entry about an operator makes it the current operator
// and emits operatorActivated() so the window can bring the operator forward.
#pragma once

#include <QTreeView>

namespace loupe::models {
class ModelDocument;
class ProblemListModel;
}  // namespace loupe::models

namespace loupe::views {

class ProblemsView : public QTreeView {
  Q_OBJECT

 public:
  ProblemsView(models::ModelDocument* document, models::ProblemListModel* model,
               QWidget* parent = nullptr);

 signals:
  void operatorActivated(int operatorIndex);

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void activate(const QModelIndex& index);

  models::ModelDocument* document_;
};

}  // namespace loupe::views
