// The Graph view's overview: the whole graph in miniature in a corner of the
// canvas, with the part the canvas shows outlined. Clicking or dragging in it
// moves the canvas there, so a large model can be crossed in one gesture
// instead of a long pan. It hides itself while the canvas shows everything.
#pragma once

#include <QGraphicsView>

namespace loupe::views {

class GraphCanvas;

class GraphOverview : public QGraphicsView {
  Q_OBJECT

 public:
  // Shares the canvas's scene; a child of the canvas, kept in its
  // bottom-right corner.
  explicit GraphOverview(GraphCanvas* canvas);

  // The part of the scene the canvas shows, in scene coordinates.
  QRectF visibleSceneRect() const;
  // Refits the miniature (after the scene changed) and shows or hides it.
  void refresh();

 protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void placeInCorner();
  void centreCanvasAt(const QPoint& overviewPoint);

  GraphCanvas* canvas_;
};

}  // namespace loupe::views
