#include "views/graph_node_item.h"

#include <QCursor>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "models/display_text.h"
#include "views/view_fonts.h"

namespace loupe::views {

GraphNodeItem::GraphNodeItem(const models::LaidOutNode& node) : node_(node) {
  setPos(node.rect.topLeft());
  updateToolTip();
  setCursor(Qt::PointingHandCursor);
  setZValue(1);
}

void GraphNodeItem::setPlacement(const QString& target, const QString& targetName,
                                 const QString& region, const QStringList& rejections) {
  node_.target = target;
  targetName_ = targetName;
  region_ = region;
  rejections_ = rejections;
  updateToolTip();
  update();
}

void GraphNodeItem::setRunFact(const QString& text) {
  if (text == runFact_) return;
  runFact_ = text;
  updateToolTip();
  update();
}

void GraphNodeItem::setMark(const QString& mark) {
  if (mark == mark_) return;
  mark_ = mark;
  updateToolTip();
  update();
}

void GraphNodeItem::setNpuCycles(std::optional<qint64> cycles) {
  if (cycles == npuCycles_) return;
  prepareGeometryChange();  // the tag widens the bounding rectangle
  npuCycles_ = cycles;
  updateToolTip();
  update();
}

QString GraphNodeItem::npuCyclesText() const {
  return npuCycles_ ? QStringLiteral("\u2248%1 cyc").arg(models::groupedNumber(*npuCycles_))
                    : QString();
}

QRectF GraphNodeItem::npuCyclesTagRect(const QRectF& r) const {
  if (!npuCycles_) return {};
  const QFontMetricsF metrics(factFont());
  const qreal width = metrics.horizontalAdvance(npuCyclesText()) + 8;
  const qreal height = metrics.height() + 2;
  return QRectF(r.right() + 5, r.center().y() - height / 2, width, height);
}

void GraphNodeItem::paintNpuCyclesTag(QPainter* painter, const QRectF& r) const {
  if (!npuCycles_) return;
  // Beside the box rather than in it: a compact node has no line to spare.
  const QRectF tag = npuCyclesTagRect(r);
  painter->save();
  painter->setPen(QPen(QColor(0x4c, 0x9a, 0x46), 1));
  painter->setBrush(QColor(0xf4, 0xfb, 0xf3));
  painter->drawRoundedRect(tag, 3, 3);
  painter->setPen(QColor(0x1f, 0x5a, 0x1b));
  painter->setFont(factFont());
  painter->drawText(tag, Qt::AlignCenter, npuCyclesText());
  painter->restore();
}

QColor GraphNodeItem::markColor(const QString& mark) {
  // A comparison's added/removed; a debug run's exact/differs.
  if (mark == QStringLiteral("added") || mark == QStringLiteral("exact")) {
    return QColor(0x1e, 0x8a, 0x3c);
  }
  if (mark == QStringLiteral("removed") || mark == QStringLiteral("differs")) {
    return QColor(0xc0, 0x24, 0x24);
  }
  return QColor(0xd9, 0x7a, 0x00);  // changed, merged
}

void GraphNodeItem::updateToolTip() {
  if (node_.operatorIndex < 0) {
    setToolTip(QStringLiteral("%1\n%2").arg(node_.title, node_.detail));
    return;
  }
  if (node_.npuOperation >= 0) {
    QStringList lines{
        QStringLiteral("%1 of op %2 (ethos-u)").arg(node_.title).arg(node_.operatorIndex),
        node_.detail};
    setToolTip((lines + node_.facts).join(QLatin1Char('\n')));
    return;
  }
  QString text =
      QStringLiteral("op %1 %2\noutput %3\ntarget %4")
          .arg(node_.operatorIndex)
          .arg(node_.title, node_.detail,
               targetName_.isEmpty() ? node_.target
                                     : node_.target + QStringLiteral(" \u00b7 ") + targetName_);
  if (!region_.isEmpty()) text += QStringLiteral("\nregion %1").arg(region_);
  if (!rejections_.isEmpty()) {
    text += QStringLiteral("\nrefused by ") + rejections_.join(QStringLiteral("\nrefused by "));
  }
  if (!node_.supported) text += QStringLiteral("\nLoupe cannot run it");
  if (!runFact_.isEmpty()) text += QLatin1Char('\n') + runFact_;
  if (npuCycles_) {
    text += QStringLiteral("\n\u2248 %1 estimated NPU cycles%2")
                .arg(models::groupedNumber(*npuCycles_),
                     *npuCycles_ == 0
                         ? QStringLiteral(" (no NPU operation of its own)")
                         : QStringLiteral(" (its operations in %1's stream)")
                               .arg(region_.isEmpty() ? QStringLiteral("the NPU") : region_));
  }
  if (!mark_.isEmpty()) text += QStringLiteral("\ncompared: %1").arg(mark_);
  setToolTip(text);
}

QColor GraphNodeItem::targetColor(const QString& target) {
  if (target == QStringLiteral("c")) return QColor(0xd6, 0xe6, 0xfa);
  if (target == QStringLiteral("ethos-u")) return QColor(0xc4, 0xea, 0xc0);
  if (target.isEmpty()) return QColor(0xee, 0xee, 0xee);
  return QColor(0xe6, 0xd8, 0xf5);  // any other target, until there are more
}

QColor GraphNodeItem::fillColor() const {
  if (current_) return QColor(0xff, 0xd8, 0x6b);
  if (heat_ >= 0 && node_.operatorIndex >= 0) return heatColor(heat_);
  return targetColor(node_.operatorIndex >= 0 ? node_.target : QString());
}

QFont GraphNodeItem::titleFont() {
  return labelFont(12, true);
}

QFont GraphNodeItem::detailFont() {
  return labelFont(11);
}

QFont GraphNodeItem::factFont() {
  return labelFont(10);
}

void GraphNodeItem::setCurrent(bool current) {
  current_ = current;
  setZValue(current ? 2 : 1);
  update();
}

void GraphNodeItem::setHeat(double heat) {
  heat_ = heat;
  update();
}

QColor GraphNodeItem::heatColor(double heat) {
  // Pale yellow (no time) to deep orange-red (the slowest operator).
  const double h = std::clamp(heat, 0.0, 1.0);
  auto mix = [h](int from, int to) { return static_cast<int>(from + (to - from) * h); };
  return QColor(mix(0xff, 0xe0), mix(0xf6, 0x45), mix(0xd5, 0x20));
}

void GraphNodeItem::paintMarkTag(QPainter* painter, const QRectF& r) const {
  if (mark_.isEmpty()) return;
  // A small tag over the top-right corner, so it reads at any zoom.
  const QString symbol = mark_ == QStringLiteral("added")     ? QStringLiteral("+")
                         : mark_ == QStringLiteral("removed") ? QStringLiteral("\u2212")
                         : mark_ == QStringLiteral("exact")   ? QStringLiteral("=")
                         : mark_ == QStringLiteral("differs") ? QStringLiteral("\u2260")
                                                              : QStringLiteral("~");
  const QRectF tag(r.right() - 18, r.top() - 6, 20, 14);
  painter->save();
  painter->setPen(Qt::NoPen);
  painter->setBrush(markColor(mark_));
  painter->drawRoundedRect(tag, 4, 4);
  painter->setPen(QColor(Qt::white));
  painter->setFont(titleFont());
  painter->drawText(tag, Qt::AlignCenter, symbol);
  painter->restore();
}

QRectF GraphNodeItem::boundingRect() const {
  // Room for the comparison tag over the top-right corner, and the cycles
  // tag beside the box.
  const QRectF box(QPointF(0, 0), node_.rect.size());
  const QRectF bounds = box.adjusted(-3, -8, 4, 3);
  return npuCycles_ ? bounds.united(npuCyclesTagRect(box).adjusted(-1, -1, 1, 1)) : bounds;
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  const QRectF r(QPointF(0, 0), node_.rect.size());
  painter->setRenderHint(QPainter::Antialiasing);
  const QColor fill = fillColor();
  QPen pen(current_ ? QColor(0xb0, 0x60, 0x00) : QColor(0x50, 0x60, 0x78), current_ ? 2.5 : 1);
  if (!node_.supported) {
    pen.setColor(QColor(0xc0, 0x20, 0x20));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(2);
  }
  if (!mark_.isEmpty() && !current_) {
    pen.setColor(markColor(mark_));
    pen.setStyle(mark_ == QStringLiteral("removed") ? Qt::DashLine : Qt::SolidLine);
    pen.setWidthF(3);
  }
  painter->setPen(pen);
  painter->setBrush(fill);
  if (node_.operatorIndex >= 0) {
    painter->drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4);
  } else {
    painter->drawEllipse(r.adjusted(1, 1, -1, -1));
  }
  paintMarkTag(painter, r);
  paintNpuCyclesTag(painter, r);
  // Dark text on pale fills, white on the hottest ones.
  const bool darkFill = !current_ && heat_ > 0.6 && node_.operatorIndex >= 0;
  const QColor titleColour = darkFill ? QColor(Qt::white) : QColor(0x10, 0x10, 0x10);
  const QColor detailColour = darkFill ? QColor(0xf0, 0xf0, 0xf0) : QColor(0x30, 0x30, 0x30);
  if (node_.facts.isEmpty() && node_.activation.isEmpty()) {
    const QRectF top(r.left(), r.top() + 4, r.width(), r.height() / 2 - 2);
    const QRectF bottom(r.left(), r.center().y(), r.width(), r.height() / 2 - 4);
    painter->setPen(titleColour);
    painter->setFont(titleFont());
    painter->drawText(top, Qt::AlignHCenter | Qt::AlignBottom, node_.title);
    painter->setFont(detailFont());
    painter->setPen(detailColour);
    painter->drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, node_.detail);
    return;
  }
  // Full detail: title, output, then the facts a size smaller, and the fused
  // activation as a band across the bottom (as Netron draws them).
  const qreal titleHeight = QFontMetricsF(titleFont()).height();
  const qreal detailHeight = QFontMetricsF(detailFont()).height();
  const qreal factHeight = QFontMetricsF(factFont()).height();
  qreal y = r.top() + 5;
  painter->setPen(titleColour);
  painter->setFont(titleFont());
  painter->drawText(QRectF(r.left(), y, r.width(), titleHeight), Qt::AlignCenter, node_.title);
  y += titleHeight;
  painter->setFont(detailFont());
  painter->setPen(detailColour);
  painter->drawText(QRectF(r.left(), y, r.width(), detailHeight), Qt::AlignCenter, node_.detail);
  y += detailHeight + 2;
  painter->setFont(factFont());
  for (const QString& fact : node_.facts) {
    painter->drawText(QRectF(r.left() + 6, y, r.width() - 12, factHeight),
                      Qt::AlignLeft | Qt::AlignVCenter, fact);
    y += factHeight;
  }
  if (node_.runLine && !runFact_.isEmpty()) {
    painter->setPen(darkFill ? QColor(0xff, 0xf0, 0xc0) : QColor(0x1a, 0x4a, 0x8a));
    painter->drawText(QRectF(r.left() + 6, y, r.width() - 12, factHeight),
                      Qt::AlignLeft | Qt::AlignVCenter, runFact_);
  }
  if (!node_.activation.isEmpty()) {
    const QRectF band(r.left() + 1.5, r.bottom() - factHeight - 3, r.width() - 3, factHeight + 1.5);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0x3c, 0x4a, 0x5e));
    painter->drawRoundedRect(band, 3, 3);
    painter->setPen(QColor(Qt::white));
    painter->drawText(band, Qt::AlignCenter, node_.activation);
  }
}

}  // namespace loupe::views
