// One node of the Graph view: an operator box (type in bold, output type and
// shape below, fill by target, a red dashed border when Loupe cannot run it)
// or a model input/output ellipse. Clicking it selects its operator.
#pragma once

#include <QGraphicsItem>

#include "models/graph_layout.h"

namespace loupe::views {

class GraphNodeItem : public QGraphicsItem {
 public:
  explicit GraphNodeItem(const models::LaidOutNode& node);

  const models::LaidOutNode& node() const { return node_; }
  void setCurrent(bool current);
  bool isCurrent() const { return current_; }

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  // The fill of nodes running on `target`, and of model inputs/outputs (empty target).
  static QColor targetColor(const QString& target);
  static QFont titleFont();
  static QFont detailFont();

 private:
  models::LaidOutNode node_;
  bool current_ = false;
};

}  // namespace loupe::views
