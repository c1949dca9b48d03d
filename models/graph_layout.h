// The imported graph laid out by Graphviz `dot`, as plain geometry for the
// Graph view: one box per operator, one ellipse per model input and output,
// edges as cubic Bézier splines with their tensor's shape as label. Scene
// units are Graphviz points with y pointing down.
//
// Graphviz is not thread-safe: every call into it in Loupe goes through
// layoutGraph(), which holds one process-wide lock, so layouts may run on
// worker threads while the GUI thread stays free.
#pragma once

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

namespace loupe::ir {
struct Graph;
}

namespace loupe::models {

struct LaidOutNode {
  int operatorIndex = -1;  // -1: a model input or output tensor
  int tensorIndex = -1;    // the tensor of an input/output node, or the operator's first output
  QString title;           // "CONV_2D" or the tensor name
  QString detail;          // the output's type and shape: "int8[1,25,5,64]"
  QString target;          // where the operator runs: "c" (the CPU) until partitioning
  bool supported = true;   // false: Loupe cannot run it
  // Full detail only (GraphTextMetrics::fullDetail), as Netron lists them:
  // the constant operands ("weights int8[64,10,4,1]"), key attributes
  // ("stride 2x2 · SAME") and the MACs; the fused activation as a band.
  QStringList facts;
  QString activation;
  // Full detail: a line kept free for what the compilation and a board run
  // add (the bytes alive at the operator's step, its measured time).
  bool runLine = false;
  QRectF rect;
};

struct LaidOutEdge {
  int tensorIndex = -1;
  int from = -1;  // node indices
  int to = -1;
  QList<QPointF> spline;  // start, then (control, control, end) triples
  QPointF arrowTip;       // where the arrowhead points; equal to spline.back() when none
  QString label;
  QPointF labelCentre;
};

struct GraphLayout {
  QList<LaidOutNode> nodes;
  QList<LaidOutEdge> edges;
  QRectF bounds;
  QString error;  // non-empty: Graphviz failed and the layout is empty
  double milliseconds = 0;

  // The node of operator `operatorIndex`, or -1.
  int nodeOfOperator(int operatorIndex) const;
};

// Text metrics of the view's fonts in scene units, so Graphviz makes boxes
// big enough for what the view draws in them.
struct GraphTextMetrics {
  double charWidth = 7.5;      // the widest average character of the node font
  double lineHeight = 16;      // one line of node text
  double labelFontSize = 9;    // edge labels, in points
  double factLineHeight = 14;  // one line of a node's facts (full detail)
  // Compact: an operator node is its type and output shape. Full: also its
  // weights' shapes, key attributes, MACs and fused activation.
  bool fullDetail = false;
};

// `unsupportedOperators` are flagged (their nodes say so). Thread-safe.
GraphLayout layoutGraph(const ir::Graph& graph, const GraphTextMetrics& metrics,
                        const QList<int>& unsupportedOperators = {});

}  // namespace loupe::models
