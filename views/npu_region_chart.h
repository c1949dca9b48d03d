// The picture of one memory region of a Vela operator: x is the NPU
// operation in command order, y the address in the region; every box of the
// lane (a feature map over its lifetime, a DMA copy, a weight stream at the
// operations that read it, unused flash bytes) is a rectangle coloured by
// what it holds, as the Memory Plan's timeline draws buffers. The selected
// NPU operation's column is shaded and its boxes drawn strong; a tooltip
// says every access of a box.
#pragma once

#include <QImage>
#include <QWidget>

#include "models/npu_region_layout.h"

namespace loupe::views {

class NpuRegionChart : public QWidget {
  Q_OBJECT

 public:
  explicit NpuRegionChart(QWidget* parent = nullptr);

  // Lane `lane` of `layout` (-1: nothing).
  void setLane(const models::NpuRegionLayout& layout, int lane);
  int lane() const { return lane_; }
  // The NPU operation (ordinal) whose boxes are highlighted, or -1.
  void setSelectedOperation(int ordinal);
  const QList<int>& highlightedBoxes() const { return highlighted_; }
  // The box under `point` (widget coordinates), or -1.
  int boxAt(const QPointF& point) const;
  // The rectangle box `box` takes (widget coordinates).
  QRectF boxRect(int box) const;

  static QColor kindColor(models::NpuRegionBoxKind kind);
  QImage renderImage(const QSize& size);

  QSize minimumSizeHint() const override { return {200, 40}; }

 signals:
  // The user clicked a box: the operation under the click if it uses the
  // box, else the box's first.
  void operationClicked(int ordinal);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  const models::NpuRegionLane* currentLane() const;
  QRectF plotArea() const;
  qint64 chartBytes() const;
  void paintChart(QPainter& painter);

  models::NpuRegionLayout layout_;
  int lane_ = -1;
  int selected_ = -1;
  QList<int> highlighted_;
};

}  // namespace loupe::views
