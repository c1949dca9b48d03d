// One node of the Graph view: an operator box (type in bold, output type and
// shape below, fill by target - CPU or Ethos-U - or by board time, a red dashed border
// when Loupe cannot run it, a "≈12,345 cyc" tag at its right when the NPU runs it)
// or a model input/output ellipse. Clicking it selects its operator.
#pragma once

#include <QGraphicsItem>
#include <QStringList>
#include <optional>

#include "models/graph_layout.h"

namespace loupe::views {

class GraphNodeItem : public QGraphicsItem {
 public:
  explicit GraphNodeItem(const models::LaidOutNode& node);

  const models::LaidOutNode& node() const { return node_; }
  void setCurrent(bool current);
  bool isCurrent() const { return current_; }
  // Colour by time: 0..1 of the slowest operator's time; negative: by target.
  void setHeat(double heat);
  double heat() const { return heat_; }
  // Where the compiled model runs the operator: its target ("ethos-u", "c"), the
  // target's display name, its region ("ethos-u_0", empty in main) and why other
  // targets refused it. The fill and the tool tip follow.
  void setPlacement(const QString& target, const QString& targetName, const QString& region,
                    const QStringList& rejections);
  const QString& region() const { return region_; }
  // Full detail: the line the layout kept free - the bytes alive at the
  // operator's step and its measured time ("live 16,256 B · 1.2 ms").
  void setRunFact(const QString& text);
  const QString& runFact() const { return runFact_; }
  // A comparison's verdict on the operator: "changed", "added", "removed",
  // or empty (none, or the same): a coloured border and a corner tag.
  void setMark(const QString& mark);
  const QString& mark() const { return mark_; }
  // The estimated NPU cycles of what the Ethos-U runs for the operator
  // (DeviceMapping::npuCyclesOfModelOperator): a tag beside the box and a
  // line of the tool tip; none removes them.
  void setNpuCycles(std::optional<qint64> cycles);
  std::optional<qint64> npuCycles() const { return npuCycles_; }
  // The tag's text: "≈12,345 cyc"; empty without cycles.
  QString npuCyclesText() const;
  static QColor markColor(const QString& mark);
  // The fill drawn now (target, heat or selection).
  QColor fillColor() const;

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  // The fill of nodes running on `target`, and of model inputs/outputs (empty target).
  static QColor targetColor(const QString& target);
  // The fill of an operator taking `heat` (0..1) of the slowest one's time.
  static QColor heatColor(double heat);
  static QFont titleFont();
  static QFont detailFont();
  static QFont factFont();  // the facts of a full-detail node

 private:
  models::LaidOutNode node_;
  bool current_ = false;
  double heat_ = -1;
  QString targetName_;
  QString region_;
  QStringList rejections_;
  QString runFact_;
  QString mark_;
  std::optional<qint64> npuCycles_;
  void updateToolTip();
  void paintMarkTag(QPainter* painter, const QRectF& r) const;
  // The cycles tag, right of the box `r`, and the rectangle it takes.
  QRectF npuCyclesTagRect(const QRectF& r) const;
  void paintNpuCyclesTag(QPainter* painter, const QRectF& r) const;
};

}  // namespace loupe::views
