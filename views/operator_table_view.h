// The Operators tab: the open model's operators as a sortable table. Keeps
// its selected row and the document's current operator in step, both ways.
#pragma once

#include <QTableView>

class QSortFilterProxyModel;

namespace loupe::models {
class ModelDocument;
class OperatorTableModel;
}  // namespace loupe::models

namespace loupe::views {

class OperatorTableView : public QTableView {
  Q_OBJECT

 public:
  OperatorTableView(models::ModelDocument* document, models::OperatorTableModel* model,
                    QWidget* parent = nullptr);

  // The operator shown in `row` of the (possibly sorted) view.
  int operatorAtRow(int row) const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void showOperator(int operatorIndex);
  void fitColumns();

  models::ModelDocument* document_;
  QSortFilterProxyModel* proxy_;
};

}  // namespace loupe::views
