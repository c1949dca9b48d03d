#include "views/npu_region_chart.h"

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

constexpr qreal kRegionChartLeft = 78;
constexpr qreal kRegionChartRight = 12;
constexpr qreal kRegionChartTop = 28;  // one row of legend
constexpr qreal kRegionChartBottom = 36;

}  // namespace

NpuRegionChart::NpuRegionChart(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

QColor NpuRegionChart::kindColor(models::NpuRegionBoxKind kind) {
  using Kind = models::NpuRegionBoxKind;
  switch (kind) {
    case Kind::FeatureMap:
      return QColor(0x4c, 0x8b, 0xd6);
    case Kind::Input:
      return QColor(0x3a, 0xa8, 0x7a);
    case Kind::Output:
      return QColor(0x8e, 0x5c, 0xc8);
    case Kind::DmaCopy:
      return QColor(0xe0, 0x8e, 0x2b);
    case Kind::Weights:
      return QColor(0xd6, 0x6a, 0x4c);
    case Kind::Scales:
      return QColor(0xe8, 0xb8, 0x3a);
    case Kind::LookupTable:
      return QColor(0x2a, 0x9d, 0xb0);
    case Kind::ConstantOperand:
      return QColor(0x6b, 0x8e, 0x23);
    case Kind::Copied:
      return QColor(0xb0, 0x80, 0x60);
    case Kind::Unused:
      return QColor(0xc8, 0xc8, 0xc8);
  }
  return Qt::gray;
}

void NpuRegionChart::setLane(const models::NpuRegionLayout& layout, int lane) {
  layout_ = layout;
  lane_ = lane >= 0 && lane < layout_.lanes.size() ? lane : -1;
  setSelectedOperation(selected_);
}

void NpuRegionChart::setSelectedOperation(int ordinal) {
  selected_ = ordinal;
  highlighted_ = layout_.boxesOf(lane_, ordinal);
  update();
}

const models::NpuRegionLane* NpuRegionChart::currentLane() const {
  return lane_ >= 0 ? &layout_.lanes[lane_] : nullptr;
}

qint64 NpuRegionChart::chartBytes() const {
  const models::NpuRegionLane* lane = currentLane();
  if (lane == nullptr) return 1;
  return std::max<qint64>({lane->extent(), lane->highest, 1});
}

QRectF NpuRegionChart::plotArea() const {
  return QRectF(kRegionChartLeft, kRegionChartTop,
                std::max<qreal>(width() - kRegionChartLeft - kRegionChartRight, 10),
                std::max<qreal>(height() - kRegionChartTop - kRegionChartBottom, 10));
}

QRectF NpuRegionChart::boxRect(int box) const {
  const models::NpuRegionLane* lane = currentLane();
  if (lane == nullptr || box < 0 || box >= lane->boxes.size()) return {};
  const models::NpuRegionBox& b = lane->boxes[box];
  const QRectF area = plotArea();
  const qreal column = area.width() / std::max(layout_.operationCount, 1);
  const qreal scale = area.height() / static_cast<qreal>(chartBytes());
  const qreal x = area.left() + b.firstOperation * column;
  const qreal w = std::max<qreal>((b.lastOperation - b.firstOperation + 1) * column, 2);
  const qreal bottom = area.bottom() - static_cast<qreal>(b.begin) * scale;
  const qreal h = std::max<qreal>(static_cast<qreal>(b.size()) * scale, 1.5);
  return QRectF(x, bottom - h, w, h);
}

int NpuRegionChart::boxAt(const QPointF& point) const {
  const models::NpuRegionLane* lane = currentLane();
  if (lane == nullptr) return -1;
  // The highlighted ones are on top; unused flash is under everything.
  for (int i : highlighted_) {
    if (boxRect(i).contains(point)) return i;
  }
  int under = -1;
  for (int i = static_cast<int>(lane->boxes.size()) - 1; i >= 0; --i) {
    if (!boxRect(i).contains(point)) continue;
    if (lane->boxes[i].kind != models::NpuRegionBoxKind::Unused) return i;
    under = i;
  }
  return under;
}

void NpuRegionChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paintChart(painter);
}

QImage NpuRegionChart::renderImage(const QSize& size) {
  return offscreenChartImage(*this, size, [this](QPainter& painter) { paintChart(painter); });
}

void NpuRegionChart::paintChart(QPainter& painter) {
  const QPalette& pal = palette();
  const QFontMetrics metrics(font());
  const models::NpuRegionLane* lane = currentLane();
  if (lane == nullptr) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No region to show"));
    return;
  }
  const QRectF area = plotArea();
  const qint64 maxBytes = chartBytes();
  const qreal scale = area.height() / static_cast<qreal>(maxBytes);
  const int columns = std::max(layout_.operationCount, 1);
  const qreal column = area.width() / columns;

  if (selected_ >= 0 && selected_ < columns) {
    painter.fillRect(QRectF(area.left() + selected_ * column, area.top(),
                            std::max<qreal>(column, 2), area.height()),
                     QColor(0xff, 0xf2, 0xb3));
  }
  // Addresses, in hex as the command stream gives them.
  const qint64 step = roundTickStep(maxBytes, std::max(2, static_cast<int>(area.height() / 40)));
  for (qint64 bytes = 0; bytes <= maxBytes; bytes += step) {
    const qreal y = area.bottom() - static_cast<qreal>(bytes) * scale;
    painter.setPen(QColor(0xe4, 0xe4, 0xe4));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRectF(0, y - 8, kRegionChartLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QLocale::system().toString(bytes));
  }
  painter.setPen(pal.color(QPalette::Text));
  painter.drawRect(area);
  const int labelWidth = metrics.horizontalAdvance(QStringLiteral("0000")) + 6;
  const int every = std::max(1, static_cast<int>(std::ceil(labelWidth / column)));
  // Round numbers along the axis: every 10, 20 or 50 operations.
  int tick = 1;
  for (int m : {1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000}) {
    tick = m;
    if (m >= every) break;
  }
  for (int s = 0; s < layout_.operationCount; s += tick) {
    painter.drawText(QRectF(area.left() + s * column - 20, area.bottom() + 2, column + 40, 16),
                     Qt::AlignHCenter | Qt::AlignTop, QString::number(s));
  }
  painter.drawText(QRectF(area.left(), area.bottom() + 17, area.width(), 16), Qt::AlignCenter,
                   tr("NPU operation, in command order \u2192"));
  painter.save();
  painter.translate(12, area.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-80, -10, 160, 20), Qt::AlignCenter, tr("address \u2192"));
  painter.restore();

  auto drawBox = [&](int i, bool strong) {
    const models::NpuRegionBox& b = lane->boxes[i];
    const QRectF r = boxRect(i);
    if (b.kind == models::NpuRegionBoxKind::Unused) {
      painter.fillRect(r, QBrush(kindColor(b.kind), Qt::BDiagPattern));
      painter.setPen(QPen(kindColor(b.kind).darker(130), 1));
      painter.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
      return;
    }
    QColor fill = kindColor(b.kind);
    if (!strong && selected_ >= 0) fill = fill.lighter(140);
    painter.fillRect(r, fill);
    painter.setPen(strong ? QPen(QColor(0x10, 0x10, 0x10), 2) : QPen(fill.darker(140), 1));
    painter.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    if (r.height() >= metrics.height() + 2 &&
        r.width() >= metrics.horizontalAdvance(b.label.left(5))) {
      painter.setPen(strong ? Qt::white : QColor(0x10, 0x10, 0x10));
      painter.drawText(
          r.adjusted(3, 1, -2, -1), Qt::AlignLeft | Qt::AlignTop,
          metrics.elidedText(b.label, Qt::ElideRight, static_cast<int>(r.width() - 5)));
    }
  };
  for (int i = 0; i < lane->boxes.size(); ++i) {
    if (lane->boxes[i].kind == models::NpuRegionBoxKind::Unused) drawBox(i, false);
  }
  for (int i = 0; i < lane->boxes.size(); ++i) {
    if (lane->boxes[i].kind != models::NpuRegionBoxKind::Unused && !highlighted_.contains(i)) {
      drawBox(i, false);
    }
  }
  for (int i : highlighted_) drawBox(i, true);

  // The selected operation named over its column, kept inside the plot.
  if (selected_ >= 0 && selected_ < layout_.operationLabels.size()) {
    const QString name = layout_.operationLabels[selected_];
    const qreal w = metrics.horizontalAdvance(name) + 8;
    const qreal centre = area.left() + (selected_ + 0.5) * column;
    const qreal left = std::clamp(centre - w / 2, area.left() + 1, area.right() - w - 1);
    const QRectF tag(left, area.top() + 2, w, metrics.height() + 2);
    painter.fillRect(tag, QColor(0xff, 0xf2, 0xb3));
    painter.setPen(QColor(0x80, 0x70, 0x30));
    painter.drawRect(tag);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(tag, Qt::AlignCenter, name);
  }

  // The region's end, when the chart shows more than the stream uses.
  if (lane->size > 0) {
    const qreal y = area.bottom() - static_cast<qreal>(lane->size) * scale;
    painter.setPen(QPen(QColor(0x30, 0x30, 0x30), 1.5));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
  }

  // Legend: the kinds this lane has.
  QList<models::NpuRegionBoxKind> kinds;
  for (const models::NpuRegionBox& b : lane->boxes) {
    if (!kinds.contains(b.kind)) kinds.append(b.kind);
  }
  std::sort(kinds.begin(), kinds.end());
  qreal x = kRegionChartLeft;
  for (models::NpuRegionBoxKind kind : kinds) {
    const QString text = models::npuRegionBoxKindName(kind);
    const QRectF swatch(x, 8, 14, 12);
    if (kind == models::NpuRegionBoxKind::Unused) {
      painter.fillRect(swatch, QBrush(kindColor(kind), Qt::BDiagPattern));
    } else {
      painter.fillRect(swatch, kindColor(kind));
    }
    painter.setPen(kindColor(kind).darker(140));
    painter.drawRect(swatch);
    painter.setPen(pal.color(QPalette::Text));
    const qreal w = metrics.horizontalAdvance(text) + 4;
    painter.drawText(QRectF(x + 18, 6, w, 16), Qt::AlignLeft | Qt::AlignVCenter, text);
    x += 18 + w + 12;
  }
}

bool NpuRegionChart::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = boxAt(help->pos());
    const models::NpuRegionLane* lane = currentLane();
    if (i < 0 || lane == nullptr) {
      QToolTip::hideText();
      event->ignore();
      return true;
    }
    const models::NpuRegionBox& b = lane->boxes[i];
    QString text = QStringLiteral("<b>%1</b> [0x%2, 0x%3) %4 B")
                       .arg(models::npuRegionBoxKindName(b.kind))
                       .arg(b.begin, 0, 16)
                       .arg(b.end, 0, 16)
                       .arg(QLocale::system().toString(b.size()));
    if (!b.tensor.isEmpty()) text += QStringLiteral("<br>tensor %1").arg(b.tensor.toHtmlEscaped());
    QStringList lines = b.detail.split(QLatin1Char('\n'));
    if (lines.size() > 12) {
      const qsizetype more = lines.size() - 12;
      lines = lines.mid(0, 12);
      lines << tr("\u2026 %1 more").arg(more);
    }
    for (QString& line : lines) line = line.toHtmlEscaped();
    text += QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"));
    QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

void NpuRegionChart::mousePressEvent(QMouseEvent* event) {
  const int i = boxAt(event->position());
  const models::NpuRegionLane* lane = currentLane();
  if (i < 0 || lane == nullptr) return;
  const models::NpuRegionBox& b = lane->boxes[i];
  if (b.operations.isEmpty()) return;
  const QRectF area = plotArea();
  const int at = static_cast<int>((event->position().x() - area.left()) /
                                  (area.width() / std::max(layout_.operationCount, 1)));
  emit operationClicked(b.operations.contains(at) ? at : b.operations.front());
}

}  // namespace loupe::views
