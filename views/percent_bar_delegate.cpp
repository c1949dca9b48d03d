#include "views/percent_bar_delegate.h"

#include <QPainter>
#include <algorithm>

namespace loupe::views {

PercentBarDelegate::PercentBarDelegate(int valueRole, QObject* parent)
    : QStyledItemDelegate(parent), valueRole_(valueRole) {}

void PercentBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
  bool ok = false;
  const double percent = index.data(valueRole_).toDouble(&ok);
  if (ok && percent >= 0) {
    const double fraction = std::clamp(percent / 100.0, 0.0, 1.0);
    QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
    bar.setWidth(bar.width() * fraction);
    painter->save();
    // Green near the peak, amber in between, red far from it.
    const QColor colour = percent >= 50   ? QColor(0x7c, 0xc4, 0x7f)
                          : percent >= 15 ? QColor(0xf0, 0xc0, 0x5a)
                                          : QColor(0xe5, 0x8a, 0x7a);
    painter->fillRect(bar, colour);
    painter->restore();
  }
  QStyledItemDelegate::paint(painter, option, index);
}

}  // namespace loupe::views
