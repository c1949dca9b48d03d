// The imported graph laid out by Graphviz `dot`, as plain geometry for the
// Graph view: one box per operator, one ellipse per model input and output,
// edges as cubic Bézier splines with their tensor's shape as label. Scene
// units are Graphviz points with y pointing down. A Vela operator (ethos-u)
// is one node summarising its command stream, or, expanded, its NPU
// operations chained in command order inside a cluster named after it.
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
  // An expanded ethos-u operator's NPU operation: its ordinal in the
  // operator's NpuStreamListing (operatorIndex is the ethos-u operator's);
  // -1 for every other node.
  int npuOperation = -1;
  QRectF rect;
};

// The box around an expanded ethos-u operator's NPU operations.
struct LaidOutCluster {
  int operatorIndex = -1;
  QString label;  // "op 0 CUSTOM(ethos-u) · ethos-u55-256 · 235 NPU operations"
  QRectF rect;
  double labelHeight = 0;  // the band at the top Graphviz kept for the label
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
  QList<LaidOutCluster> clusters;
  QRectF bounds;
  QString error;  // non-empty: Graphviz failed and the layout is empty
  double milliseconds = 0;

  // The node of operator `operatorIndex`, or -1 (also for an expanded
  // ethos-u operator, which has a node per NPU operation instead).
  int nodeOfOperator(int operatorIndex) const;
  // The node of NPU operation `ordinal` of expanded ethos-u operator
  // `operatorIndex`, or -1.
  int nodeOfNpuOperation(int operatorIndex, int ordinal) const;
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

// `unsupportedOperators` are flagged (their nodes say so); the ethos-u
// operators in `expandedOperators` are drawn as their NPU operations.
// Thread-safe.
GraphLayout layoutGraph(const ir::Graph& graph, const GraphTextMetrics& metrics,
                        const QList<int>& unsupportedOperators = {},
                        const QList<int>& expandedOperators = {});

}  // namespace loupe::models
