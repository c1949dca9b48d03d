#include "views/npu_weight_heat_map.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace loupe::views {

namespace {

constexpr qreal kHeatMapLeft = 44;
constexpr qreal kHeatMapTop = 26;
constexpr qreal kHeatMapRight = 10;
constexpr qreal kHeatMapBottom = 22;

}  // namespace

NpuWeightHeatMap::NpuWeightHeatMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void NpuWeightHeatMap::setWeights(const models::NpuWeights& weights) {
  weights_ = weights;
  selectedChannel_ = -1;
  update();
}

void NpuWeightHeatMap::setSelectedChannel(int channel) {
  selectedChannel_ = channel;
  update();
}

QColor NpuWeightHeatMap::weightColor(int value, int largest) {
  const double t =
      largest > 0 ? std::clamp(std::abs(value) / static_cast<double>(largest), 0.0, 1.0) : 0.0;
  // White to a strong blue (negative) or red (positive), by magnitude.
  const QColor end = value < 0 ? QColor(0x21, 0x66, 0xac) : QColor(0xb2, 0x18, 0x2b);
  auto mix = [t](int from, int to) {
    return static_cast<int>(std::lround(from + (to - from) * t));
  };
  return QColor(mix(255, end.red()), mix(255, end.green()), mix(255, end.blue()));
}

QRectF NpuWeightHeatMap::plotArea() const {
  return QRectF(kHeatMapLeft, kHeatMapTop,
                std::max<qreal>(width() - kHeatMapLeft - kHeatMapRight, 10),
                std::max<qreal>(height() - kHeatMapTop - kHeatMapBottom, 10));
}

QPair<int, int> NpuWeightHeatMap::cellAt(const QPointF& point) const {
  const QRectF area = plotArea();
  if (weights_.isEmpty() || !area.contains(point)) return {-1, -1};
  const int rows = weights_.ofmDepth, columns = weights_.valuesPerChannel();
  const int row =
      std::min(rows - 1, static_cast<int>((point.y() - area.top()) / area.height() * rows));
  const int column =
      std::min(columns - 1, static_cast<int>((point.x() - area.left()) / area.width() * columns));
  return {row, column};
}

void NpuWeightHeatMap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette& pal = palette();
  if (weights_.isEmpty()) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No weights"));
    return;
  }
  const QRectF area = plotArea();
  const int rows = weights_.ofmDepth, columns = weights_.valuesPerChannel();
  const int largest = std::max(std::abs(weights_.minimum), std::abs(weights_.maximum));
  // Drawn into an image of one pixel a weight, then scaled: a large layer
  // has more weights than the widget has pixels.
  QImage cells(columns, rows, QImage::Format_RGB32);
  for (int o = 0; o < rows; ++o) {
    auto* line = reinterpret_cast<QRgb*>(cells.scanLine(o));
    for (int v = 0; v < columns; ++v) line[v] = weightColor(weights_.value(o, v), largest).rgb();
  }
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter.drawImage(area, cells);
  const qreal cellWidth = area.width() / columns;
  const qreal cellHeight = area.height() / rows;
  // Kernel positions apart, when there is room to see it.
  if (weights_.ifmDepth > 1 && cellWidth * weights_.ifmDepth >= 6) {
    painter.setPen(QPen(QColor(0x60, 0x60, 0x60), 1));
    for (int k = weights_.ifmDepth; k < columns; k += weights_.ifmDepth) {
      const qreal x = area.left() + k * cellWidth;
      painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
  } else if (weights_.ifmDepth == 1 && weights_.kernelWidth > 1 && cellWidth >= 4) {
    painter.setPen(QPen(QColor(0x60, 0x60, 0x60), 1));
    for (int k = weights_.kernelWidth; k < columns; k += weights_.kernelWidth) {
      const qreal x = area.left() + k * cellWidth;
      painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
  }
  painter.setPen(pal.color(QPalette::Text));
  painter.drawRect(area);
  if (selectedChannel_ >= 0 && selectedChannel_ < rows) {
    painter.setPen(QPen(Qt::black, 2));
    painter.drawRect(QRectF(area.left(), area.top() + selectedChannel_ * cellHeight, area.width(),
                            std::max<qreal>(cellHeight, 2)));
  }
  // Axes: channel numbers down the left, the layout along the bottom.
  painter.setPen(pal.color(QPalette::Text));
  const int labelEvery = std::max(1, static_cast<int>(std::ceil(16 / std::max(cellHeight, 0.01))));
  int tick = 1;
  for (int m : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) {
    tick = m;
    if (m >= labelEvery) break;
  }
  for (int o = 0; o < rows; o += tick) {
    painter.drawText(QRectF(0, area.top() + o * cellHeight - 2, kHeatMapLeft - 4, 14),
                     Qt::AlignRight | Qt::AlignTop, QString::number(o));
  }
  painter.drawText(QRectF(area.left(), area.bottom() + 3, area.width(), 16), Qt::AlignCenter,
                   weights_.depthwise ? tr("kernel y, x (depthwise: one input channel each) \u2192")
                                      : tr("kernel y, x, input channel (OHWI) \u2192"));
  // The scale, above the map at its right; the rows' meaning at its left.
  const QString low = QString::number(-largest), high = QString::number(largest);
  const QFontMetrics metrics(font());
  painter.drawText(QRectF(area.left(), 4, area.width(), 16), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("output channel \u2193"));
  constexpr qreal kBar = 60;
  qreal x = area.right() - metrics.horizontalAdvance(high) - 4 - kBar - 4 -
            metrics.horizontalAdvance(low);
  painter.drawText(QRectF(x, 4, metrics.horizontalAdvance(low) + 2, 16),
                   Qt::AlignLeft | Qt::AlignVCenter, low);
  x += metrics.horizontalAdvance(low) + 4;
  for (int i = 0; i < 30; ++i) {
    const int value = static_cast<int>(std::lround(-largest + (i + 0.5) * (2.0 * largest) / 30));
    painter.fillRect(QRectF(x + i * kBar / 30, 7, kBar / 30 + 0.5, 10),
                     weightColor(value, largest));
  }
  x += kBar + 4;
  painter.drawText(QRectF(x, 4, metrics.horizontalAdvance(high) + 2, 16),
                   Qt::AlignLeft | Qt::AlignVCenter, high);
}

bool NpuWeightHeatMap::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const auto [o, v] = cellAt(help->pos());
    if (o < 0) {
      QToolTip::hideText();
      event->ignore();
      return true;
    }
    QToolTip::showText(help->globalPos(),
                       tr("output channel %1, %2: %3")
                           .arg(o)
                           .arg(weights_.positionText(v))
                           .arg(weights_.value(o, v)),
                       this);
    return true;
  }
  return QWidget::event(event);
}

void NpuWeightHeatMap::mousePressEvent(QMouseEvent* event) {
  const auto [o, v] = cellAt(event->position());
  Q_UNUSED(v);
  if (o >= 0) emit channelClicked(o);
}

}  // namespace loupe::views
