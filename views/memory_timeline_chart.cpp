#include "views/memory_timeline_chart.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/chart_ticks.h"
#include "views/offscreen_chart_image.h"

namespace loupe::views {

namespace {

constexpr qreal kLeftMargin = 86;
constexpr qreal kRightMargin = 150;  // room for the lines' labels
constexpr qreal kLegendTop = 8;
constexpr qreal kLegendRow = 17;     // the legend's rows, above the plot
constexpr qreal kBottomMargin = 40;  // step numbers and axis title

QString bytesText(qint64 bytes) {
  return QLocale::system().toString(bytes) + QStringLiteral(" B");
}

}  // namespace

MemoryTimelineChart::MemoryTimelineChart(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

QColor MemoryTimelineChart::kindColor(models::PlannedBufferKind kind) {
  switch (kind) {
    case models::PlannedBufferKind::Intermediate:
      return QColor(0x4c, 0x8b, 0xd6);
    case models::PlannedBufferKind::Shared:
      return QColor(0x3a, 0xa8, 0x7a);
    case models::PlannedBufferKind::Scratch:
      return QColor(0xe0, 0x8e, 0x2b);
  }
  return Qt::gray;
}

void MemoryTimelineChart::setPlanLayout(const models::MemoryPlanLayout& layout) {
  layout_ = layout;
  legendWidth_ = -1;  // the overlaps' key comes and goes with the plan
  setSelectedOperator(selectedOperator_);
}

void MemoryTimelineChart::setTitle(const QString& title) {
  title_ = title;
  update();
}

void MemoryTimelineChart::setMinimumScaleBytes(qint64 bytes) {
  minimumScaleBytes_ = bytes;
  update();
}

void MemoryTimelineChart::setSelectedOperator(int modelOperator) {
  selectedOperator_ = modelOperator;
  highlighted_ = modelOperator >= 0 ? layout_.buffersOfOperator(modelOperator) : QList<int>();
  update();
}

bool MemoryTimelineChart::showsLimit(int pool) const {
  // A limit far above what the plan uses (a board's 4 MB memory under a
  // 16 KB plan) would squash the buffers to lines: such a lane takes only
  // what it uses, and its memory's fill is told beside the chart.
  const auto& info = layout_.pools[pool];
  qint64 used = layout_.lowerBound;
  for (const auto& p : layout_.pools) used = std::max(used, p.usedBytes);
  return info.limit > 0 && info.limit <= 4 * std::max<qint64>(used, 1);
}

qint64 MemoryTimelineChart::poolBase(int pool) const {
  // Pools stack bottom up; a bounded pool takes its limit, an unbounded one
  // (or one whose limit is not shown) what it uses.
  qint64 base = 0;
  for (int p = 0; p < pool && p < layout_.pools.size(); ++p) {
    const auto& info = layout_.pools[p];
    base += showsLimit(p) ? info.limit : info.usedBytes;
  }
  return base;
}

qint64 MemoryTimelineChart::chartBytes() const {
  qint64 top = std::max(
      {layout_.lowerBound, poolBase(static_cast<int>(layout_.pools.size())), minimumScaleBytes_});
  for (int i = 0; i < layout_.buffers.size(); ++i) {
    const auto& b = layout_.buffers[i];
    if (b.pool >= 0) top = std::max(top, poolBase(b.pool) + b.offset + b.size);
  }
  return std::max<qint64>(top + top / 20, 1);
}

const QList<MemoryTimelineChart::LegendKey>& MemoryTimelineChart::legendKeys() const {
  if (legendWidth_ == width() && legendFont_ == font()) return legend_;
  QList<LegendKey> keys;
  for (auto kind : {models::PlannedBufferKind::Intermediate, models::PlannedBufferKind::Shared,
                    models::PlannedBufferKind::Scratch}) {
    keys.append({kindColor(kind),
                 QPen(kindColor(kind).darker(140)),
                 models::plannedBufferKindName(kind),
                 {}});
  }
  keys.append({kindColor(models::PlannedBufferKind::Intermediate),
               QPen(Qt::black, 2),
               tr("selected operator's buffers"),
               {}});
  keys.append({QColor(0xff, 0xf2, 0xb3), QPen(QColor(0xe0, 0xd0, 0x90)), tr("its step"), {}});
  if (layout_.patchesApplied()) {
    keys.append(
        {stripColor(0), QPen(stripColor(0).darker(130)), tr("a strip's steps (patches)"), {}});
  }
  if (!layout_.overlaps.isEmpty()) {
    keys.append({QBrush(overlapColor(), Qt::BDiagPattern),
                 QPen(overlapColor()),
                 tr("output over its dying input"),
                 {}});
  }
  const QFontMetrics metrics(font());
  qreal x = kLeftMargin, y = kLegendTop;
  for (LegendKey& key : keys) {
    const qreal w = 18 + metrics.horizontalAdvance(key.text) + 4;
    if (x > kLeftMargin && x + w > width() - 4) {
      x = kLeftMargin;
      y += kLegendRow;
    }
    key.at = QPointF(x, y);
    x += w + 12;
  }
  legend_ = std::move(keys);
  legendWidth_ = width();
  legendFont_ = font();
  return legend_;
}

qreal MemoryTimelineChart::topMargin() const {
  // A title takes one row; else the legend's rows.
  const qreal lastRow =
      title_.isEmpty() && !layout_.isEmpty() ? legendKeys().back().at.y() : kLegendTop;
  return lastRow + kLegendRow + 9;
}

QColor MemoryTimelineChart::stripColor(int strip) {
  return strip % 2 == 0 ? QColor(0xe3, 0xf1, 0xe6) : QColor(0xcf, 0xe6, 0xd5);
}

QColor MemoryTimelineChart::overlapColor() {
  return QColor(0x6a, 0x1b, 0x9a);
}

QRectF MemoryTimelineChart::plotArea() const {
  const qreal top = topMargin();
  return QRectF(kLeftMargin, top, std::max<qreal>(width() - kLeftMargin - kRightMargin, 10),
                std::max<qreal>(height() - top - kBottomMargin, 10));
}

QRectF MemoryTimelineChart::bufferRect(int buffer) const {
  const auto& b = layout_.buffers[buffer];
  if (b.pool < 0 || layout_.stepCount() == 0) return {};
  const QRectF area = plotArea();
  const qreal stepWidth = area.width() / layout_.stepCount();
  const qreal scale = area.height() / static_cast<qreal>(chartBytes());
  const qint64 start = poolBase(b.pool) + b.offset;
  const qreal x = area.left() + b.firstStep * stepWidth;
  const qreal w = (b.lastStep - b.firstStep + 1) * stepWidth;
  const qreal bottom = area.bottom() - start * scale;
  const qreal h = std::max<qreal>(b.size * scale, 1.5);
  return QRectF(x, bottom - h, w, h);
}

int MemoryTimelineChart::bufferAt(const QPointF& point) const {
  // Highlighted buffers are drawn last, so they win where rectangles touch.
  for (int i = static_cast<int>(layout_.buffers.size()) - 1; i >= 0; --i) {
    if (bufferRect(i).contains(point)) return i;
  }
  return -1;
}

void MemoryTimelineChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paintChart(painter);
}

QImage MemoryTimelineChart::renderImage(const QSize& size) {
  return offscreenChartImage(*this, size, [this](QPainter& painter) { paintChart(painter); });
}

void MemoryTimelineChart::paintChart(QPainter& painter) {
  painter.setRenderHint(QPainter::Antialiasing, false);
  const QPalette& pal = palette();
  const QFontMetrics metrics(font());
  if (layout_.isEmpty()) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No memory plan yet"));
    return;
  }
  const QRectF area = plotArea();
  const qint64 maxBytes = chartBytes();
  const qreal scale = area.height() / static_cast<qreal>(maxBytes);
  const int steps = std::max(layout_.stepCount(), 1);
  const qreal stepWidth = area.width() / steps;

  // Patches: each strip's steps in a band, alternately shaded, numbered at
  // the top of the plot (over the selection's shading).
  auto stripBand = [&](int strip) {
    const auto [first, last] = layout_.patchStripSteps[strip];
    return QRectF(area.left() + first * stepWidth, area.top(), (last - first + 1) * stepWidth,
                  area.height());
  };
  for (int s = 0; s < layout_.patchStripSteps.size(); ++s) {
    painter.fillRect(stripBand(s), stripColor(s));
  }

  // The selected operator's steps, shaded behind everything else.
  if (selectedOperator_ >= 0) {
    for (int s = 0; s < layout_.stepCount(); ++s) {
      if (!layout_.stepOperators[s].contains(selectedOperator_)) continue;
      painter.fillRect(QRectF(area.left() + s * stepWidth, area.top(), stepWidth, area.height()),
                       QColor(0xff, 0xf2, 0xb3));
    }
  }
  painter.setPen(stripColor(0).darker(170));
  for (int s = 0; s < layout_.patchStripSteps.size(); ++s) {
    const QRectF band = stripBand(s);
    const QString label = tr("strip %1").arg(s);
    painter.drawText(
        band.adjusted(0, 2, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
        band.width() >= metrics.horizontalAdvance(label) + 4 ? label : QString::number(s));
  }

  // Axes, horizontal grid and byte labels.
  painter.setPen(QColor(0xe4, 0xe4, 0xe4));
  const qint64 step = roundTickStep(maxBytes, std::max(2, static_cast<int>(area.height() / 60)));
  for (qint64 bytes = 0; bytes <= maxBytes; bytes += step) {
    const qreal y = area.bottom() - bytes * scale;
    painter.setPen(QColor(0xe4, 0xe4, 0xe4));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRectF(0, y - 8, kLeftMargin - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QLocale::system().toString(bytes));
  }
  painter.setPen(pal.color(QPalette::Text));
  painter.drawRect(area);
  // Step numbers: as many as fit without touching.
  const int labelWidth = metrics.horizontalAdvance(QStringLiteral("000")) + 6;
  const int every = std::max(1, static_cast<int>(std::ceil(labelWidth / stepWidth)));
  for (int s = 0; s < layout_.stepCount(); s += every) {
    painter.drawText(QRectF(area.left() + s * stepWidth, area.bottom() + 2, stepWidth, 16),
                     Qt::AlignHCenter | Qt::AlignTop | Qt::TextDontClip, QString::number(s));
  }
  painter.drawText(QRectF(area.left(), area.bottom() + 18, area.width(), 18), Qt::AlignCenter,
                   tr("execution step (operator) \u2192"));
  painter.save();
  painter.translate(14, area.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-80, -10, 160, 20), Qt::AlignCenter, tr("offset in pool \u2192"));
  painter.restore();

  // The buffers: dimmed when another operator is selected, strong when its own.
  auto drawBuffer = [&](int i, bool strong) {
    const QRectF r = bufferRect(i);
    if (r.isEmpty()) return;
    QColor fill = kindColor(layout_.buffers[i].kind);
    if (!strong && selectedOperator_ >= 0) fill = fill.lighter(150);
    painter.fillRect(r, fill);
    painter.setPen(strong ? QPen(QColor(0x10, 0x10, 0x10), 2) : QPen(fill.darker(140), 1));
    painter.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    const QString name = layout_.buffers[i].label;
    if (r.height() >= metrics.height() + 2 &&
        r.width() >= metrics.horizontalAdvance(name.left(6)) + 6) {
      painter.setPen(strong ? Qt::white : QColor(0x10, 0x10, 0x10));
      painter.drawText(r.adjusted(3, 1, -3, -1), Qt::AlignLeft | Qt::AlignTop,
                       metrics.elidedText(name, Qt::ElideRight, static_cast<int>(r.width() - 6)));
    }
  };
  for (int i = 0; i < layout_.buffers.size(); ++i) {
    if (!highlighted_.contains(i)) drawBuffer(i, false);
  }
  for (int i : highlighted_) drawBuffer(i, true);

  // Outputs written over their dying inputs: in the step that does it, the
  // bytes both hold are hatched, and a bar marks the start the traced loops
  // allow the output: at most the input's start less the lag, or, running
  // backwards, at least the input's start plus the lead.
  const QColor overlapColor = MemoryTimelineChart::overlapColor();
  for (const models::PlannedOverlap& o : layout_.overlaps) {
    const auto& out = layout_.buffers[o.output];
    const auto& in = layout_.buffers[o.input];
    if (out.pool < 0 || out.pool != in.pool) continue;
    const qint64 base = poolBase(out.pool);
    const qint64 sharedBegin = base + std::max(out.offset, in.offset);
    const qreal x = area.left() + o.step * stepWidth;
    const qreal top = area.bottom() - (sharedBegin + o.sharedBytes) * scale;
    const QRectF shared(x, top, stepWidth, std::max<qreal>(o.sharedBytes * scale, 1.5));
    painter.fillRect(shared, QBrush(overlapColor, Qt::BDiagPattern));
    painter.setPen(QPen(overlapColor, 1));
    painter.drawRect(shared.adjusted(0.5, 0.5, -0.5, -0.5));
    const qreal safeY = area.bottom() - (base + o.safeOffset(layout_.buffers)) * scale;
    painter.setPen(QPen(overlapColor, 2));
    painter.drawLine(QPointF(x - 3, safeY), QPointF(x + stepWidth + 3, safeY));
  }

  // Lines with their labels in the right margin.
  auto drawLine = [&](qint64 bytes, const QColor& color, Qt::PenStyle style, const QString& label) {
    const qreal y = area.bottom() - bytes * scale;
    painter.setPen(QPen(color, 1.5, style));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right() + 4, y));
    painter.setPen(color);
    painter.drawText(QRectF(area.right() + 6, y - 9, kRightMargin - 8, 18),
                     Qt::AlignLeft | Qt::AlignVCenter, label);
  };
  const bool twoBounds = layout_.overlapBound > 0 && layout_.overlapBound < layout_.lowerBound;
  drawLine(layout_.lowerBound, QColor(0xc0, 0x20, 0x20), Qt::DashLine,
           twoBounds ? tr("tensor bound %1").arg(bytesText(layout_.lowerBound))
                     : tr("lower bound %1").arg(bytesText(layout_.lowerBound)));
  if (twoBounds) {
    drawLine(layout_.overlapBound, overlapColor, Qt::DashLine,
             tr("overlap bound %1").arg(bytesText(layout_.overlapBound)));
  }
  qint64 usedTop = 0;
  for (int p = 0; p < layout_.pools.size(); ++p) {
    const auto& pool = layout_.pools[p];
    // An empty pool adds nothing to the plan, wherever its lane starts.
    if (pool.usedBytes > 0) usedTop = std::max(usedTop, poolBase(p) + pool.usedBytes);
    if (showsLimit(p)) {
      // A board's pool is named after its memory, which the label says.
      drawLine(poolBase(p) + pool.limit, QColor(0x30, 0x30, 0x30), Qt::SolidLine,
               tr("%1 limit %2")
                   .arg(pool.memory.isEmpty() ? pool.name : pool.memory, bytesText(pool.limit)));
    }
  }
  // The plan's size, unless it sits on the lower bound's line.
  if (std::abs((usedTop - layout_.lowerBound) * scale) > 16 &&
      (!twoBounds || std::abs((usedTop - layout_.overlapBound) * scale) > 16)) {
    drawLine(usedTop, QColor(0x20, 0x50, 0xa0), Qt::DotLine, tr("plan %1").arg(bytesText(usedTop)));
  }

  if (!title_.isEmpty()) {
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRectF(area.left(), 8, area.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
                     title_);
    return;
  }
  // Legend across the top.
  for (const LegendKey& key : legendKeys()) {
    const QRectF swatch(key.at.x(), key.at.y() + 2, 14, 12);
    painter.fillRect(swatch, key.fill);
    painter.setPen(key.border);
    painter.drawRect(swatch);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(
        QRectF(key.at.x() + 18, key.at.y(), metrics.horizontalAdvance(key.text) + 4, 16),
        Qt::AlignLeft | Qt::AlignVCenter, key.text);
  }
}

bool MemoryTimelineChart::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = bufferAt(help->pos());
    if (i < 0) {
      QToolTip::hideText();
      event->ignore();
      return true;
    }
    const auto& b = layout_.buffers[i];
    QString text = QStringLiteral("<b>%1</b> (%2)<br>").arg(b.name.toHtmlEscaped(), b.label);
    if (b.tensors.size() > 1) {
      text += tr("shared by: %1<br>").arg(b.tensors.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    text += tr("%1<br>size %2, offset %3 in %4<br>alive steps %5\u2013%6")
                .arg(models::plannedBufferKindName(b.kind), bytesText(b.size), bytesText(b.offset),
                     b.pool >= 0 ? layout_.pools[b.pool].name : tr("no pool"))
                .arg(b.firstStep)
                .arg(b.lastStep);
    for (int k : layout_.overlapsOf(i)) {
      const models::PlannedOverlap& o = layout_.overlaps[k];
      const auto& in = layout_.buffers[o.input];
      const auto& out = layout_.buffers[o.output];
      text += QStringLiteral("<br>") +
              (o.output == i
                   ? (o.backwards ? tr("written over its input %1 at step %2, its loops run "
                                       "backwards: starts %3 after it (they need %4), sharing %5")
                                  : tr("written over its input %1 at step %2: starts %3 before "
                                       "it (its loops need %4), sharing %5"))
                         .arg(in.label)
                         .arg(o.step)
                         .arg(bytesText(std::abs(in.offset - out.offset)),
                              bytesText(o.distanceBytes), bytesText(o.sharedBytes))
                   : tr("read while %1 is written over it at step %2, sharing %3")
                         .arg(out.label)
                         .arg(o.step)
                         .arg(bytesText(o.sharedBytes)));
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

void MemoryTimelineChart::mousePressEvent(QMouseEvent* event) {
  const int i = bufferAt(event->position());
  if (i < 0) return;
  // The step that writes the buffer names its producer.
  const auto& b = layout_.buffers[i];
  if (b.firstStep >= 0 && b.firstStep < layout_.stepCount() &&
      !layout_.stepOperators[b.firstStep].isEmpty()) {
    emit operatorClicked(layout_.stepOperators[b.firstStep].front());
  }
}

}  // namespace loupe::views
