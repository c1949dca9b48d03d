// A chart widget drawn straight into an image at a given size, for exports
// and screenshots: QWidget::render() of a chart in a tab never shown paints
// nothing, so the chart is resized, painted by its own paint function, and
// given its size back.
#pragma once

#include <QImage>
#include <QPainter>
#include <QWidget>

namespace loupe::views {

template <typename PaintChart>
QImage offscreenChartImage(QWidget& chart, const QSize& size, PaintChart paintChart) {
  const QSize shown = chart.size();
  chart.resize(size);
  QImage image(size, QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  paintChart(painter);
  painter.end();
  chart.resize(shown);
  return image;
}

}  // namespace loupe::views
