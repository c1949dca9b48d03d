// A table cell drawn as a bar of its percentage (0-100, from the model's
// sort role; a negative value draws nothing) behind the cell's text: the
// Profile dock's "% of peak", so a layer far from its core's peak shows at a
// glance.
#pragma once

#include <QStyledItemDelegate>

namespace loupe::views {

class PercentBarDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  PercentBarDelegate(int valueRole, QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;

 private:
  int valueRole_;
};

}  // namespace loupe::views
