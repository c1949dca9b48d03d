// The Graph tab: the imported model as Graphviz `dot` lays it out (off the
// GUI thread, see DocumentGraphLayout), drawn in a QGraphicsView. Operators
// are boxes with their type and output type/shape, coloured by target - the
// CPU or the Ethos-U, each NPU region outlined and named with its estimated
// NPU cycles, each operator in it tagged with its share (the
// legend says which) or, once the model ran on a board, by time as a heat
// map; edges carry their tensor's shape. Wheel zooms, dragging
// pans, Fit shows everything, the overview in the corner jumps; clicking a
// node selects the operator in every view, and the search box finds an
// operator or tensor by name. A Vela operator (ethos-u) expands into its NPU
// operations (double-click, its context menu or the NPU operations toggle),
// drawn in a cluster; picking one selects it in the Command Stream view.
#pragma once

#include <QGraphicsView>
#include <QHash>
#include <QImage>
#include <QList>
#include <QWidget>
#include <vector>

#include "models/device_mapping.h"

class QComboBox;
class QToolButton;
class QGraphicsItem;
class QLabel;
class QLineEdit;

namespace loupe::models {
class DocumentGraphLayout;
class ModelDocument;
class NpuOperationSelection;
}  // namespace loupe::models

namespace loupe::views {

class GraphNodeItem;
class GraphOverview;

// Zoom with the wheel (around the cursor), pan by dragging.
class GraphCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  explicit GraphCanvas(QWidget* parent = nullptr);
  void zoomBy(double factor);
  void fitAll();
  double zoom() const { return transform().m11(); }

 signals:
  void operatorClicked(int operatorIndex);
  // An expanded ethos-u operator's NPU operation (its listing ordinal).
  void npuOperationClicked(int operatorIndex, int operation);
  // On an operator's node, or on an expanded ethos-u operator's cluster.
  void operatorDoubleClicked(int operatorIndex);
  void operatorContextMenuRequested(int operatorIndex, const QPoint& globalPos);
  // Scrolled or zoomed: what it shows of the scene changed.
  void visibleAreaChanged();

 protected:
  void scrollContentsBy(int dx, int dy) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  // The operator under `pos`: a node's, or an expanded ethos-u cluster's; -1.
  int operatorAt(const QPoint& pos) const;
};

class GraphView : public QWidget {
  Q_OBJECT

 public:
  GraphView(models::ModelDocument* document, models::DocumentGraphLayout* layout,
            QWidget* parent = nullptr);

  GraphCanvas* canvas() const { return canvas_; }
  GraphOverview* overview() const { return overview_; }
  QLineEdit* searchBox() const { return search_; }
  // The node drawn for operator `operatorIndex`, or nullptr.
  GraphNodeItem* nodeOfOperator(int operatorIndex) const;
  // Selects the next node matching the search box's text; returns whether any matched.
  bool findNext();
  int nodeCount() const { return static_cast<int>(nodes_.size()); }

  // Board time per operator (index = operator), for colouring by time; empty
  // clears it. `unit` is the profile's ("ns", "instructions").
  void setOperatorTimes(const std::vector<double>& times, const QString& unit);
  enum class ColourBy { Target, Time };
  // Time only once there are operator times; returns whether it applied.
  bool setColourBy(ColourBy colourBy);
  ColourBy colourBy() const { return colourBy_; }
  QComboBox* colourByBox() const { return colourBox_; }
  // Checked: full-detail nodes (weights, attributes, MACs, fused activation).
  QToolButton* detailButton() const { return detailButton_; }
  // Checked: every ethos-u operator drawn as its NPU operations; shown only
  // for models that have one.
  QToolButton* npuOperationsButton() const { return npuButton_; }
  // The NPU operation picked here and in the Command Stream view; the
  // graph highlights it and sets it when one of its nodes is clicked.
  void setNpuOperationSelection(models::NpuOperationSelection* selection);
  // The node drawn for NPU operation `operation` of expanded ethos-u
  // operator `operatorIndex`, or nullptr.
  GraphNodeItem* nodeOfNpuOperation(int operatorIndex, int operation) const;
  // The nodes of expanded ethos-u operator `operatorIndex`'s NPU operations.
  int npuOperationNodeCount(int operatorIndex) const;

  // Bytes of the workspace alive at each operator's step (index = operator,
  // -1: none), from the memory plan; full-detail nodes show them beside
  // their measured time. Empty clears them.
  void setLiveBytes(const QList<qint64>& bytes);
  // A comparison's verdict per operator ("changed", "added", "removed"):
  // those nodes get a coloured border and tag. Empty clears the marks.
  void setMarks(const QHash<int, QString>& marks);

  // Where the compiled model runs each operator: nodes take their target's
  // colour, regions get an outline. An empty mapping: everything on the CPU.
  void setDeviceMapping(const models::DeviceMapping& mapping);
  // The outlines drawn, by region name ("ethos-u_0").
  QStringList regionNames() const;
  QWidget* targetLegend() const { return targetLegend_; }

  // The whole graph as the canvas draws it (colours, region outlines,
  // labels): SVG text, and a picture at `scale` pixels per scene unit.
  QByteArray renderSvg() const;
  QImage renderImage(qreal scale = 2.0) const;
  // Every node's fill as drawn ("#rrggbb"), by layout node index.
  QHash<int, QString> nodeFills() const;

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildScene();
  void showInitialView();
  void showOperator(int operatorIndex);
  void applyColours();
  void applyPlacements();
  void applyRunFacts();
  void showNpuOperation();
  void showOperatorMenu(int operatorIndex, const QPoint& globalPos);

  models::ModelDocument* document_;
  models::DocumentGraphLayout* layout_;
  GraphCanvas* canvas_;
  GraphOverview* overview_;
  QLineEdit* search_;
  QLabel* status_;
  QComboBox* colourBox_;
  QToolButton* detailButton_ = nullptr;
  QToolButton* npuButton_ = nullptr;
  models::NpuOperationSelection* npuSelection_ = nullptr;
  QList<QGraphicsItem*> clusterItems_;  // the outline of each expanded ethos-u operator
  QWidget* targetLegend_;
  QWidget* npuLegend_;  // the NPU's colour and the region outline, when it runs anything
  models::DeviceMapping mapping_;
  QList<QGraphicsItem*> regionItems_;
  QStringList regionNames_;
  QWidget* timeLegend_;
  QLabel* timeLegendMax_;
  std::vector<double> operatorTimes_;
  QString timeUnit_;
  QList<qint64> liveBytes_;
  QHash<int, QString> marks_;
  ColourBy colourBy_ = ColourBy::Target;
  QList<GraphNodeItem*> nodes_;
  bool fitPending_ = true;  // fit once the view has its real size
  int lastFound_ = -1;
};

}  // namespace loupe::views
