// The Properties dock: the current operator's OperatorPropertiesModel as an
// expanded two-column tree. Says so when no operator is selected.
#pragma once

#include <QTreeView>

namespace loupe::models {
class OperatorPropertiesModel;
}

namespace loupe::views {

class PropertiesView : public QTreeView {
  Q_OBJECT

 public:
  explicit PropertiesView(models::OperatorPropertiesModel* model, QWidget* parent = nullptr);

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace loupe::views
