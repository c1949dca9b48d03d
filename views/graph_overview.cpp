#include "views/graph_overview.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "views/graph_view.h"

namespace loupe::views {

namespace {

// The miniature takes the graph's proportions within these bounds: a tall,
// thin model gets a tall, thin overview instead of a box of white.
constexpr QSize kMaximumSize(220, 200);
constexpr QSize kMinimumSize(60, 60);
constexpr int kOverviewMargin = 12;

}  // namespace

GraphOverview::GraphOverview(GraphCanvas* canvas) : QGraphicsView(canvas), canvas_(canvas) {
  setObjectName(QStringLiteral("graphOverview"));
  setScene(canvas->scene());
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setInteractive(false);
  setRenderHints(QPainter::Antialiasing);
  setBackgroundBrush(QColor(250, 250, 250));
  setFrameShape(QFrame::Box);
  setToolTip(tr("Overview: click or drag to move the graph view there"));
  setCursor(Qt::PointingHandCursor);
  // Follow the canvas: its size (for the corner), its scrolling and zoom.
  canvas->viewport()->installEventFilter(this);
  connect(canvas, &GraphCanvas::visibleAreaChanged, this, [this] {
    refresh();
    viewport()->update();
  });
  hide();
}

QRectF GraphOverview::visibleSceneRect() const {
  return canvas_->mapToScene(canvas_->viewport()->rect()).boundingRect();
}

void GraphOverview::refresh() {
  if (!scene()) return;
  const QRectF all = scene()->itemsBoundingRect();
  // Only worth its corner when part of the graph is out of sight.
  const bool needed = !all.isEmpty() && !visibleSceneRect().contains(all.adjusted(2, 2, -2, -2));
  if (needed) {
    const QRectF shown = all.adjusted(-10, -10, 10, 10);
    const double scale =
        std::min(kMaximumSize.width() / shown.width(), kMaximumSize.height() / shown.height());
    setFixedSize(
        std::max(kMinimumSize.width(), qRound(shown.width() * scale) + 2 * frameWidth()),
        std::max(kMinimumSize.height(), qRound(shown.height() * scale) + 2 * frameWidth()));
    fitInView(shown, Qt::KeepAspectRatio);
    placeInCorner();
  }
  setVisible(needed);
}

void GraphOverview::placeInCorner() {
  const QRect area = canvas_->viewport()->geometry();
  move(area.right() - width() - kOverviewMargin, area.bottom() - height() - kOverviewMargin);
}

void GraphOverview::drawForeground(QPainter* painter, const QRectF& rect) {
  Q_UNUSED(rect);
  const QRectF shown = visibleSceneRect();
  QColor fill(0, 120, 215, 40);
  painter->setBrush(fill);
  QPen pen(QColor(0, 90, 180));
  pen.setCosmetic(true);
  pen.setWidth(2);
  painter->setPen(pen);
  painter->drawRect(shown);
}

void GraphOverview::centreCanvasAt(const QPoint& overviewPoint) {
  canvas_->centerOn(mapToScene(overviewPoint));
}

void GraphOverview::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) centreCanvasAt(event->pos());
  event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) centreCanvasAt(event->pos());
  event->accept();
}

void GraphOverview::wheelEvent(QWheelEvent* event) {
  // The miniature's scale is fixed; the wheel is not for it.
  event->accept();
}

bool GraphOverview::eventFilter(QObject* watched, QEvent* event) {
  if (watched == canvas_->viewport() && (event->type() == QEvent::Resize)) refresh();
  return QGraphicsView::eventFilter(watched, event);
}

}  // namespace loupe::views
