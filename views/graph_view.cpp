#include "views/graph_view.h"

#include <QBuffer>

#include <QComboBox>
#include <QContextMenuEvent>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtMath>

#include "models/display_text.h"
#include "models/document_graph_layout.h"
#include "models/model_document.h"
#include "models/npu_operation_selection.h"
#include "views/graph_node_item.h"
#include "views/graph_overview.h"

namespace loupe::views {

namespace {

QFont edgeLabelFont() {
  QFont font;
  font.setPixelSize(10);
  return font;
}

// A region's estimate over its operators (one Ethos-U operator each).
struct RegionCycles {
  qint64 npu = 0;        // the NPU cycles: what its operators' tags add up to
  qint64 memory = 0;     // the busiest memory's access cycles
  qint64 estimated = 0;  // the larger of the two, per operator, summed
  QStringList errors;    // why an operator has no figures per model operator
};

RegionCycles regionCycles(const QList<const models::DeviceOperatorRow*>& rows) {
  RegionCycles cycles;
  for (const models::DeviceOperatorRow* row : rows) {
    if (row->estimate) {
      cycles.npu += row->estimate->computeCycles;
      cycles.memory += row->estimate->memoryCycles;
      cycles.estimated += row->estimate->estimatedCycles;
    }
    if (!row->npuCyclesError.isEmpty()) cycles.errors << row->npuCyclesError;
  }
  return cycles;
}

// The outline around an NPU region's operators.
QPen regionPen() {
  return QPen(QColor(0x2e, 0x7d, 0x32), 1.5, Qt::DashLine);
}

// A legend entry: the node's shape as drawn, then what it means.
void addLegendEntry(QHBoxLayout* layout, const QColor& fill, const QPen& border, bool ellipse,
                    const QString& text) {
  QPixmap swatch(26, 16);
  swatch.fill(Qt::transparent);
  QPainter painter(&swatch);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(border);
  painter.setBrush(fill);
  const QRectF box(1.5, 1.5, 23, 13);
  if (ellipse) {
    painter.drawEllipse(box);
  } else {
    painter.drawRoundedRect(box, 3, 3);
  }
  painter.end();
  auto* icon = new QLabel;
  icon->setPixmap(swatch);
  layout->addWidget(icon);
  layout->addSpacing(3);
  layout->addWidget(new QLabel(text));
  layout->addSpacing(12);
}

// The box around an expanded ethos-u operator's NPU operations, and its
// outline while the operator is the selected one.
QPen npuClusterPen(bool current) {
  return current ? QPen(QColor(0xb0, 0x60, 0x00), 2.5) : QPen(QColor(0x2e, 0x7d, 0x32), 1.5);
}

// QGraphicsItem::data key: the ethos-u operator an outline or its label belongs to.
constexpr int kNpuClusterOperatorKey = 0;

// The zoom the graph opens at: everything when it fits legibly, otherwise
// legible text around the selection (Fit still shows it all).
constexpr double kMinimumInitialZoom = 0.8;

}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent) {
  setDragMode(ScrollHandDrag);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setTransformationAnchor(AnchorUnderMouse);
  setBackgroundBrush(Qt::white);
}

void GraphCanvas::zoomBy(double factor) {
  // Between "the whole of a 2,000-operator graph" and "a few nodes fill the view".
  const double next = zoom() * factor;
  if (next < 0.02 || next > 8) return;
  scale(factor, factor);
  emit visibleAreaChanged();
}

void GraphCanvas::fitAll() {
  if (!scene() || scene()->itemsBoundingRect().isEmpty()) return;
  fitInView(scene()->itemsBoundingRect().adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
  // Small graphs would be blown up past legibility; keep them at 100 %.
  if (zoom() > 1.0) setTransform(QTransform());
  emit visibleAreaChanged();
}

void GraphCanvas::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit visibleAreaChanged();
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  zoomBy(qPow(1.0015, event->angleDelta().y()));
  event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
  // A click on an operator selects it; anywhere else starts panning.
  if (event->button() == Qt::LeftButton) {
    for (QGraphicsItem* item : items(event->pos())) {
      if (auto* node = dynamic_cast<GraphNodeItem*>(item)) {
        const models::LaidOutNode& laidOut = node->node();
        if (laidOut.npuOperation >= 0) {
          emit npuOperationClicked(laidOut.operatorIndex, laidOut.npuOperation);
        } else if (laidOut.operatorIndex >= 0) {
          emit operatorClicked(laidOut.operatorIndex);
        }
        event->accept();
        return;
      }
    }
  }
  QGraphicsView::mousePressEvent(event);
}

int GraphCanvas::operatorAt(const QPoint& pos) const {
  for (QGraphicsItem* item : items(pos)) {
    if (auto* node = dynamic_cast<GraphNodeItem*>(item)) return node->node().operatorIndex;
    const QVariant cluster = item->data(kNpuClusterOperatorKey);
    if (cluster.isValid()) return cluster.toInt();
  }
  return -1;
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  const int op = event->button() == Qt::LeftButton ? operatorAt(event->pos()) : -1;
  if (op < 0) {
    QGraphicsView::mouseDoubleClickEvent(event);
    return;
  }
  emit operatorDoubleClicked(op);
  event->accept();
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event) {
  const int op = operatorAt(event->pos());
  if (op < 0) {
    QGraphicsView::contextMenuEvent(event);
    return;
  }
  emit operatorContextMenuRequested(op, event->globalPos());
  event->accept();
}

GraphView::GraphView(models::ModelDocument* document, models::DocumentGraphLayout* layout,
                     QWidget* parent)
    : QWidget(parent),
      document_(document),
      layout_(layout),
      canvas_(new GraphCanvas(this)),
      search_(new QLineEdit(this)),
      status_(new QLabel(this)),
      colourBox_(new QComboBox(this)),
      targetLegend_(new QWidget(this)),
      npuLegend_(new QWidget(this)),
      timeLegend_(new QWidget(this)),
      timeLegendMax_(new QLabel(this)) {
  canvas_->setScene(new QGraphicsScene(this));
  overview_ = new GraphOverview(canvas_);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  search_->setPlaceholderText(tr("Find operator or tensor (name, type or op number)"));
  search_->setClearButtonEnabled(true);
  search_->setMinimumWidth(160);
  // Long status text must not force the window wider.
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  bar->addWidget(search_);
  auto addButton = [&](const QString& text, const QString& tip, auto slot) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setToolTip(tip);
    connect(button, &QToolButton::clicked, this, slot);
    bar->addWidget(button);
  };
  addButton(tr("Fit"), tr("Show the whole graph"), [this] { canvas_->fitAll(); });
  addButton(tr("Zoom in"), tr("Zoom in (or use the wheel)"), [this] { canvas_->zoomBy(1.25); });
  addButton(tr("Zoom out"), tr("Zoom out (or use the wheel)"), [this] { canvas_->zoomBy(0.8); });
  colourBox_->setObjectName(QStringLiteral("colourByBox"));
  colourBox_->addItem(tr("Colour by target"));
  colourBox_->addItem(tr("Colour by time"));
  colourBox_->setToolTip(tr("Colour by time needs a profile: Run on board (Ctrl+R)"));
  connect(colourBox_, &QComboBox::activated, this, [this](int index) {
    if (!setColourBy(index == 1 ? ColourBy::Time : ColourBy::Target)) {
      colourBox_->setCurrentIndex(0);
    }
  });
  bar->addWidget(colourBox_);
  detailButton_ = new QToolButton(this);
  detailButton_->setObjectName(QStringLiteral("detailButton"));
  detailButton_->setText(tr("Full detail"));
  detailButton_->setCheckable(true);
  detailButton_->setChecked(layout_->fullDetail());
  detailButton_->setToolTip(
      tr("Compact: each operator's type and output. Full: also its weights, key attributes, "
         "MACs and fused activation"));
  connect(detailButton_, &QToolButton::toggled, layout_,
          &models::DocumentGraphLayout::setFullDetail);
  bar->addWidget(detailButton_);
  npuButton_ = new QToolButton(this);
  npuButton_->setObjectName(QStringLiteral("npuOperationsButton"));
  npuButton_->setText(tr("NPU operations"));
  npuButton_->setCheckable(true);
  npuButton_->setToolTip(
      tr("Draw each ethos-u operator (a model compiled by Vela) as the NPU operations of its "
         "command stream; double-click one to expand or collapse it alone"));
  npuButton_->hide();
  connect(npuButton_, &QToolButton::clicked, layout_, &models::DocumentGraphLayout::setAllExpanded);
  connect(layout_, &models::DocumentGraphLayout::expansionChanged, this, [this] {
    const QList<int> all = layout_->ethosuOperators();
    npuButton_->setVisible(!all.isEmpty());
    npuButton_->setChecked(!all.isEmpty() && layout_->expandedOperators().size() == all.size());
  });
  bar->addWidget(npuButton_);
  bar->addWidget(status_, 1);
  // The legend on a line of its own, so the toolbar never forces the window wide.
  auto* legend = new QHBoxLayout(targetLegend_);
  legend->setContentsMargins(8, 0, 8, 4);
  const QPen nodeBorder(QColor(0x50, 0x60, 0x78), 1);
  addLegendEntry(legend, GraphNodeItem::targetColor(QStringLiteral("c")), nodeBorder, false,
                 tr("CPU (c)"));
  auto* npuEntries = new QHBoxLayout(npuLegend_);
  npuEntries->setContentsMargins(0, 0, 0, 0);
  addLegendEntry(npuEntries, GraphNodeItem::targetColor(QStringLiteral("ethos-u")), nodeBorder,
                 false, tr("NPU (Ethos-U)"));
  addLegendEntry(npuEntries, Qt::transparent, regionPen(), false, tr("region (ethos-u_N)"));
  npuLegend_->hide();
  legend->addWidget(npuLegend_);
  addLegendEntry(legend, GraphNodeItem::targetColor(QString()), nodeBorder, true,
                 tr("model input / output"));
  addLegendEntry(legend, QColor(0xff, 0xd8, 0x6b), QPen(QColor(0xb0, 0x60, 0x00), 2), false,
                 tr("selected"));
  addLegendEntry(legend, Qt::white, QPen(QColor(0xc0, 0x20, 0x20), 2, Qt::DashLine), false,
                 tr("cannot run"));
  legend->addStretch(1);
  // A narrow window clips the legend rather than squeezing the docks.
  targetLegend_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  // The time legend: the heat scale from no time to the slowest operator.
  auto* heat = new QHBoxLayout(timeLegend_);
  heat->setContentsMargins(8, 0, 8, 4);
  auto* zero = new QLabel(tr("0"));
  heat->addWidget(zero);
  QPixmap scale(160, 14);
  {
    QPainter painter(&scale);
    for (int x = 0; x < scale.width(); ++x) {
      painter.setPen(GraphNodeItem::heatColor(x / double(scale.width() - 1)));
      painter.drawLine(x, 0, x, scale.height());
    }
    painter.setPen(QColor(0x50, 0x60, 0x78));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(scale.rect().adjusted(0, 0, -1, -1));
  }
  auto* scaleLabel = new QLabel;
  scaleLabel->setPixmap(scale);
  heat->addWidget(scaleLabel);
  timeLegendMax_->setParent(timeLegend_);
  heat->addWidget(timeLegendMax_);
  heat->addSpacing(12);
  heat->addWidget(new QLabel(tr("board time per operator (last run)")));
  heat->addStretch(1);
  timeLegend_->hide();
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addLayout(bar);
  column->addWidget(targetLegend_);
  column->addWidget(timeLegend_);
  column->addWidget(canvas_, 1);

  // Tell the layout how big our text is before it sizes any box.
  const QFontMetricsF title(GraphNodeItem::titleFont());
  const QFontMetricsF detail(GraphNodeItem::detailFont());
  models::GraphTextMetrics metrics;
  metrics.charWidth =
      std::max(title.horizontalAdvance(QStringLiteral("DEPTHWISE_CONV_2D")) / 17.0,
               detail.horizontalAdvance(QStringLiteral("float32[1,49,10,64]")) / 19.0);
  metrics.lineHeight = std::max(title.height(), detail.height());
  metrics.labelFontSize = edgeLabelFont().pixelSize();
  metrics.factLineHeight = QFontMetricsF(GraphNodeItem::factFont()).height();
  metrics.fullDetail = layout_->fullDetail();
  layout_->setTextMetrics(metrics);

  connect(layout_, &models::DocumentGraphLayout::layoutStarted, this,
          [this] { status_->setText(tr("laying out\u2026")); });
  connect(layout_, &models::DocumentGraphLayout::layoutReady, this, &GraphView::buildScene);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &GraphView::showOperator);
  connect(canvas_, &GraphCanvas::operatorClicked, document_,
          &models::ModelDocument::setCurrentOperator);
  connect(canvas_, &GraphCanvas::npuOperationClicked, this, [this](int op, int operation) {
    // The ethos-u operator first: its stream is what the Command Stream view lists.
    document_->setCurrentOperator(op);
    if (npuSelection_) npuSelection_->select(op, operation);
  });
  connect(canvas_, &GraphCanvas::operatorDoubleClicked, this, [this](int op) {
    if (layout_->ethosuOperators().contains(op)) {
      layout_->setExpanded(op, !layout_->isExpanded(op));
    }
  });
  connect(canvas_, &GraphCanvas::operatorContextMenuRequested, this, &GraphView::showOperatorMenu);
  connect(search_, &QLineEdit::returnPressed, this, &GraphView::findNext);
  connect(search_, &QLineEdit::textEdited, this, [this] { lastFound_ = -1; });
  if (!layout_->layout().nodes.isEmpty()) buildScene();
}

void GraphView::setOperatorTimes(const std::vector<double>& times, const QString& unit) {
  operatorTimes_ = times;
  timeUnit_ = unit;
  applyRunFacts();
  double maximum = 0;
  for (double t : times) maximum = std::max(maximum, t);
  timeLegendMax_->setText(tr("%L1 %2").arg(static_cast<qlonglong>(maximum)).arg(unit));
  if (times.empty()) setColourBy(ColourBy::Target);
  applyColours();
}

bool GraphView::setColourBy(ColourBy colourBy) {
  if (colourBy == ColourBy::Time && operatorTimes_.empty()) return false;
  colourBy_ = colourBy;
  colourBox_->setCurrentIndex(colourBy == ColourBy::Time ? 1 : 0);
  targetLegend_->setVisible(colourBy == ColourBy::Target);
  timeLegend_->setVisible(colourBy == ColourBy::Time);
  applyColours();
  return true;
}

void GraphView::setLiveBytes(const QList<qint64>& bytes) {
  liveBytes_ = bytes;
  applyRunFacts();
}

void GraphView::setMarks(const QHash<int, QString>& marks) {
  marks_ = marks;
  for (GraphNodeItem* item : nodes_) {
    if (item->node().npuOperation < 0) item->setMark(marks_.value(item->node().operatorIndex));
  }
}

void GraphView::applyRunFacts() {
  for (GraphNodeItem* item : nodes_) {
    const int op = item->node().operatorIndex;
    if (op < 0 || item->node().npuOperation >= 0) continue;
    QStringList parts;
    if (op < liveBytes_.size() && liveBytes_[op] >= 0) {
      parts << tr("live %1 B").arg(models::groupedNumber(liveBytes_[op]));
    }
    if (static_cast<std::size_t>(op) < operatorTimes_.size()) {
      parts << models::measuredTimeText(operatorTimes_[static_cast<std::size_t>(op)], timeUnit_);
    }
    item->setRunFact(parts.join(QStringLiteral(" \u00b7 ")));
  }
}

void GraphView::setDeviceMapping(const models::DeviceMapping& mapping) {
  mapping_ = mapping;
  applyPlacements();
}

QStringList GraphView::regionNames() const {
  return regionNames_;
}

void GraphView::applyPlacements() {
  QGraphicsScene* scene = canvas_->scene();
  for (QGraphicsItem* item : regionItems_) {
    scene->removeItem(item);
    delete item;
  }
  regionItems_.clear();
  regionNames_.clear();
  // Each region's nodes, in node order, with the target's name.
  QMap<QString, QRectF> regionBounds;
  QMap<QString, QString> regionTarget;
  QMap<QString, QList<const models::DeviceOperatorRow*>> regionRows;
  bool anyNpu = false;
  for (GraphNodeItem* item : nodes_) {
    const int op = item->node().operatorIndex;
    // An NPU operation runs on the Ethos-U its operator was compiled for.
    if (op < 0 || item->node().npuOperation >= 0) continue;
    const models::DeviceOperatorRow* row = mapping_.rowFor(op);
    if (!row) {
      // Not compiled (yet), or folded away: the CPU runs what is left of it.
      item->setPlacement(QStringLiteral("c"), {}, {}, {});
      item->setNpuCycles(std::nullopt);
      continue;
    }
    item->setPlacement(row->target, row->targetDisplayName, row->region, row->rejections);
    item->setNpuCycles(mapping_.npuCyclesOfModelOperator.value(op));
    anyNpu = anyNpu || row->target == QStringLiteral("ethos-u");
    if (!row->region.isEmpty()) {
      regionBounds[row->region] = regionBounds.value(row->region).isNull()
                                      ? item->sceneBoundingRect()
                                      : regionBounds[row->region].united(item->sceneBoundingRect());
      regionTarget[row->region] = row->targetDisplayName;
      if (!regionRows[row->region].contains(row)) regionRows[row->region].append(row);
    }
  }
  npuLegend_->setVisible(anyNpu);
  // An outline around each region's nodes, named at its top left.
  QFont labelFont = edgeLabelFont();
  labelFont.setBold(true);
  for (auto it = regionBounds.cbegin(); it != regionBounds.cend(); ++it) {
    // Close around the nodes, so the outline stays clear of the edge labels
    // in the gaps between ranks; the name to its left, clear of them too.
    const QRectF box = it.value().adjusted(-6, -5, 6, 5);
    QPainterPath path;
    path.addRoundedRect(box, 8, 8);
    auto* outline = scene->addPath(path, regionPen(), Qt::NoBrush);
    outline->setZValue(-1);
    const RegionCycles cycles = regionCycles(regionRows.value(it.key()));
    QString tip =
        tr("region %1: one external function on %2").arg(it.key(), regionTarget.value(it.key()));
    QString name = it.key();
    if (cycles.estimated) {
      // The operators' tags add up to the NPU cycles; the estimate also
      // weighs the memories, which may take longer.
      name += QStringLiteral("\n\u2248%1 NPU cyc").arg(models::groupedNumber(cycles.npu));
      tip += tr("\n\u2248 %1 NPU cycles (the sum of its operators' tags); estimated %2 cycles, "
                "the larger of those and the busiest memory's %3")
                 .arg(models::groupedNumber(cycles.npu), models::groupedNumber(cycles.estimated),
                      models::groupedNumber(cycles.memory));
    }
    for (const QString& error : cycles.errors) {
      tip += tr("\nno cycles per operator: %1").arg(error);
    }
    outline->setToolTip(tip);
    auto* label = scene->addSimpleText(name, labelFont);
    label->setToolTip(tip);
    label->setBrush(regionPen().color());
    label->setPos(box.left() - label->boundingRect().width() - 6, box.top());
    regionItems_ << outline << label;
    regionNames_ << it.key();
  }
  if (!nodes_.isEmpty()) {
    scene->setSceneRect(layout_->layout()
                            .bounds.adjusted(-20, -20, 20, 20)
                            .united(scene->itemsBoundingRect().adjusted(-10, -10, 10, 10)));
  }
  overview_->refresh();
}

void GraphView::applyColours() {
  double maximum = 0;
  for (double t : operatorTimes_) maximum = std::max(maximum, t);
  for (GraphNodeItem* item : nodes_) {
    const int op = item->node().operatorIndex;
    const bool timed = colourBy_ == ColourBy::Time && op >= 0 && item->node().npuOperation < 0 &&
                       maximum > 0 && static_cast<std::size_t>(op) < operatorTimes_.size();
    item->setHeat(timed ? operatorTimes_[static_cast<std::size_t>(op)] / maximum : -1);
  }
}

GraphNodeItem* GraphView::nodeOfOperator(int operatorIndex) const {
  for (GraphNodeItem* item : nodes_) {
    if (item->node().operatorIndex == operatorIndex && item->node().npuOperation < 0) return item;
  }
  return nullptr;
}

GraphNodeItem* GraphView::nodeOfNpuOperation(int operatorIndex, int operation) const {
  for (GraphNodeItem* item : nodes_) {
    if (item->node().operatorIndex == operatorIndex && item->node().npuOperation == operation &&
        operation >= 0) {
      return item;
    }
  }
  return nullptr;
}

int GraphView::npuOperationNodeCount(int operatorIndex) const {
  int count = 0;
  for (GraphNodeItem* item : nodes_) {
    count += item->node().operatorIndex == operatorIndex && item->node().npuOperation >= 0;
  }
  return count;
}

void GraphView::setNpuOperationSelection(models::NpuOperationSelection* selection) {
  npuSelection_ = selection;
  connect(npuSelection_, &models::NpuOperationSelection::changed, this,
          &GraphView::showNpuOperation);
  showNpuOperation();
}

void GraphView::showNpuOperation() {
  const int op = npuSelection_ ? npuSelection_->operatorIndex() : -1;
  const int operation = npuSelection_ ? npuSelection_->operation() : -1;
  for (GraphNodeItem* item : nodes_) {
    if (item->node().npuOperation < 0) continue;
    const bool current = item->node().operatorIndex == op && item->node().npuOperation == operation;
    if (item->isCurrent() != current) item->setCurrent(current);
    if (current) canvas_->centerOn(item);
  }
}

void GraphView::showOperatorMenu(int operatorIndex, const QPoint& globalPos) {
  if (!layout_->ethosuOperators().contains(operatorIndex)) return;
  QMenu menu(this);
  const bool expanded = layout_->isExpanded(operatorIndex);
  menu.addAction(
      expanded ? tr("Collapse NPU Operations") : tr("Expand into NPU Operations"), this,
      [this, operatorIndex, expanded] { layout_->setExpanded(operatorIndex, !expanded); });
  menu.exec(globalPos);
}

void GraphView::buildScene() {
  QGraphicsScene* scene = canvas_->scene();
  scene->clear();
  nodes_.clear();
  regionItems_.clear();  // scene->clear() deleted them
  clusterItems_.clear();
  const models::GraphLayout& layout = layout_->layout();
  if (!layout.error.isEmpty()) {
    status_->setText(layout.error);
    return;
  }
  const QPen edgePen(QColor(0x70, 0x70, 0x70), 1.2);
  for (const models::LaidOutEdge& edge : layout.edges) {
    if (edge.spline.isEmpty()) continue;
    QPainterPath path(edge.spline.front());
    for (int i = 1; i + 2 < edge.spline.size(); i += 3) {
      path.cubicTo(edge.spline[i], edge.spline[i + 1], edge.spline[i + 2]);
    }
    if (edge.spline.size() == 2) path.lineTo(edge.spline.back());
    scene->addPath(path, edgePen);
    // The arrowhead: from the spline's end to the tip Graphviz left room for.
    const QPointF end = edge.spline.back();
    QLineF shaft(end, edge.arrowTip);
    if (shaft.length() < 1) shaft = QLineF(edge.spline.value(edge.spline.size() - 2), end);
    if (shaft.length() >= 1) {
      QLineF side = shaft.unitVector();
      side.setLength(7);
      const QPointF tip = edge.arrowTip == end ? end : edge.arrowTip;
      const QPointF back = tip - (side.p2() - side.p1());
      const QPointF normal(-(side.dy()) * 0.5, side.dx() * 0.5);
      scene->addPolygon(QPolygonF({tip, back + normal, back - normal}), edgePen,
                        QColor(0x70, 0x70, 0x70));
    }
    if (!edge.label.isEmpty()) {
      auto* label = scene->addSimpleText(edge.label, edgeLabelFont());
      label->setBrush(QColor(0x40, 0x40, 0x40));
      const QRectF box = label->boundingRect();
      // A little air between the edge and its label (Graphviz puts them flush).
      label->setPos(edge.labelCentre - QPointF(box.width() / 2 - 4, box.height() / 2));
    }
  }
  // Expanded ethos-u operators: a tinted box under their NPU operations,
  // named in the band Graphviz kept at its top.
  QFont clusterFont = GraphNodeItem::titleFont();
  for (const models::LaidOutCluster& cluster : layout.clusters) {
    QPainterPath path;
    path.addRoundedRect(cluster.rect, 8, 8);
    auto* box = scene->addPath(path, npuClusterPen(false), QColor(0xf1, 0xf8, 0xf0));
    box->setZValue(-2);
    box->setData(kNpuClusterOperatorKey, cluster.operatorIndex);
    box->setToolTip(tr("%1\nDouble-click to collapse it into one node").arg(cluster.label));
    auto* label = scene->addSimpleText(cluster.label, clusterFont);
    label->setBrush(QColor(0x1b, 0x5e, 0x20));
    label->setData(kNpuClusterOperatorKey, cluster.operatorIndex);
    const double band = std::max(cluster.labelHeight, label->boundingRect().height() + 4);
    label->setPos(cluster.rect.left() + 8,
                  cluster.rect.top() + (band - label->boundingRect().height()) / 2 + 2);
    // Graphviz sized the cluster for its own estimate of the label's width.
    if (label->boundingRect().width() + 16 > cluster.rect.width()) {
      QPainterPath wider;
      wider.addRoundedRect(QRectF(cluster.rect.topLeft(), QSizeF(label->boundingRect().width() + 16,
                                                                 cluster.rect.height())),
                           8, 8);
      box->setPath(wider);
    }
    clusterItems_ << box;
  }
  for (const models::LaidOutNode& node : layout.nodes) {
    auto* item = new GraphNodeItem(node);
    scene->addItem(item);
    nodes_.append(item);
    if (node.npuOperation < 0) item->setMark(marks_.value(node.operatorIndex));
  }
  applyColours();
  applyRunFacts();
  scene->setSceneRect(layout.bounds.adjusted(-20, -20, 20, 20));
  applyPlacements();
  int npuNodes = 0;
  for (const models::LaidOutNode& node : layout.nodes) npuNodes += node.npuOperation >= 0;
  status_->setText(
      (npuNodes > 0 ? tr("%1 operators (%2 NPU operations shown) \u00b7 laid out "
                         "in %3 ms")
                          .arg(document_->operatorCount())
                          .arg(npuNodes)
                    : tr("%1 operators \u00b7 laid out in %3 ms").arg(document_->operatorCount()))
          .arg(layout.milliseconds, 0, 'f', 0));
  fitPending_ = !isVisible();
  showInitialView();
}

QByteArray GraphView::renderSvg() const {
  QGraphicsScene* scene = canvas_->scene();
  const QRectF source = scene->sceneRect();
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(source.size().toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
  svg.setTitle(document_->graph().name.empty() ? tr("graph")
                                               : QString::fromStdString(document_->graph().name));
  svg.setDescription(tr("Generated by Loupe's Graph view"));
  QPainter painter(&svg);
  scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  painter.end();
  return buffer.data();
}

QImage GraphView::renderImage(qreal scale) const {
  QGraphicsScene* scene = canvas_->scene();
  const QRectF source = scene->sceneRect();
  QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  scene->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
  return image;
}

QHash<int, QString> GraphView::nodeFills() const {
  QHash<int, QString> fills;
  for (int i = 0; i < nodes_.size(); ++i) fills.insert(i, nodes_[i]->fillColor().name());
  return fills;
}

void GraphView::showInitialView() {
  canvas_->resetTransform();
  canvas_->fitAll();
  if (canvas_->zoom() < kMinimumInitialZoom) {
    canvas_->setTransform(QTransform::fromScale(kMinimumInitialZoom, kMinimumInitialZoom));
    // Start at the top (the model's inputs) unless an operator is selected.
    GraphNodeItem* top = nullptr;
    for (GraphNodeItem* item : nodes_) {
      if (!top || item->y() < top->y()) top = item;
    }
    if (top) canvas_->ensureVisible(top, 20, 20);
  }
  showOperator(document_->currentOperator());
  if (GraphNodeItem* item = nodeOfOperator(document_->currentOperator())) canvas_->centerOn(item);
  showNpuOperation();
  overview_->refresh();
}

void GraphView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (fitPending_ && !nodes_.isEmpty()) {
    fitPending_ = false;
    showInitialView();
  }
}

void GraphView::showOperator(int operatorIndex) {
  // An expanded ethos-u operator: its outline shows it selected (its NPU
  // operations follow the NPU operation selection).
  for (QGraphicsItem* item : clusterItems_) {
    auto* box = static_cast<QGraphicsPathItem*>(item);
    box->setPen(npuClusterPen(box->data(kNpuClusterOperatorKey).toInt() == operatorIndex));
  }
  for (GraphNodeItem* item : nodes_) {
    if (item->node().npuOperation >= 0) continue;
    const bool current =
        item->node().operatorIndex >= 0 && item->node().operatorIndex == operatorIndex;
    if (item->isCurrent() != current) item->setCurrent(current);
    if (current) canvas_->ensureVisible(item, 40, 40);
  }
}

bool GraphView::findNext() {
  const QList<int> found = layout_->findNodes(search_->text());
  if (found.isEmpty()) {
    status_->setText(tr("nothing named \u201c%1\u201d").arg(search_->text()));
    return false;
  }
  // The first match after the last one found, wrapping around.
  int next = found.front();
  for (int i : found) {
    if (i > lastFound_) {
      next = i;
      break;
    }
  }
  lastFound_ = next;
  GraphNodeItem* item = nodes_.value(next);
  if (!item) return false;
  status_->setText(tr("match %1 of %2").arg(found.indexOf(next) + 1).arg(found.size()));
  if (item->node().operatorIndex >= 0) document_->setCurrentOperator(item->node().operatorIndex);
  if (item->node().npuOperation >= 0 && npuSelection_) {
    npuSelection_->select(item->node().operatorIndex, item->node().npuOperation);
  }
  canvas_->centerOn(item);
  return true;
}

}  // namespace loupe::views
