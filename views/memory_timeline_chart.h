// The picture of one memory plan: x is the execution step, y the byte offset
// (pools stacked bottom up); every workspace buffer is a rectangle over its
// lifetime, coloured by kind (the legend says which), with the lower bound and
// every bounded pool's limit as labelled lines (unless it dwarfs the plan).
// The buffers of the selected operator are drawn strong and its step is
// shaded; a tooltip names the buffer's tensors, size, offset and lifetime.
#pragma once

#include <QBrush>
#include <QFont>
#include <QImage>
#include <QList>
#include <QPen>
#include <QRectF>
#include <QWidget>

#include "models/memory_plan_layout.h"

namespace loupe::views {

class MemoryTimelineChart : public QWidget {
  Q_OBJECT

 public:
  explicit MemoryTimelineChart(QWidget* parent = nullptr);

  void setPlanLayout(const models::MemoryPlanLayout& layout);
  const models::MemoryPlanLayout& planLayout() const { return layout_; }
  // Imported operator whose buffers are highlighted, or -1.
  void setSelectedOperator(int modelOperator);
  const QList<int>& highlightedBuffers() const { return highlighted_; }

  // The buffer under `point` (widget coordinates), or -1.
  int bufferAt(const QPointF& point) const;

  // Instead of the legend, a title line (a second chart under the first
  // needs no second legend, but must say which plan it is).
  void setTitle(const QString& title);
  // At least this many bytes on the y axis, so two charts share one scale.
  void setMinimumScaleBytes(qint64 bytes);

  static QColor kindColor(models::PlannedBufferKind kind);
  // The chart drawn at `size` on white, shown or not (for the report).
  QImage renderImage(const QSize& size);

  QSize minimumSizeHint() const override { return {320, 200}; }

 signals:
  // The user clicked a buffer: select the operator that writes it.
  void operatorClicked(int modelOperator);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  // One key of the legend across the top; keys wrap onto more rows when the
  // chart is narrow, and the plot starts below them.
  struct LegendKey {
    QBrush fill;
    QPen border;
    QString text;
    QPointF at;  // top left of its swatch
  };
  // Laid out for the current width and font, and kept until either or the
  // plan changes: every buffer's rectangle needs the plot's top.
  const QList<LegendKey>& legendKeys() const;
  static QColor overlapColor();
  // The band behind strip `strip`'s steps (patch-based execution).
  static QColor stripColor(int strip);
  void paintChart(QPainter& painter);
  qreal topMargin() const;
  QRectF plotArea() const;
  QRectF bufferRect(int buffer) const;
  qint64 poolBase(int pool) const;
  bool showsLimit(int pool) const;
  qint64 chartBytes() const;

  models::MemoryPlanLayout layout_;
  int selectedOperator_ = -1;
  QString title_;
  qint64 minimumScaleBytes_ = 0;
  QList<int> highlighted_;
  mutable QList<LegendKey> legend_;
  mutable int legendWidth_ = -1;  // -1: to lay out again
  mutable QFont legendFont_;
};

}  // namespace loupe::views
