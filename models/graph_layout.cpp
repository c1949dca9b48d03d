#include "models/graph_layout.h"

#include <graphviz/gvc.h>

#include <QElapsedTimer>
#include <algorithm>
#include <map>
#include <mutex>

#include "analysis/operator_cost.h"
#include "ir/graph.h"
#include "models/display_text.h"
#include "models/npu_stream_listing.h"
#include "models/operator_attribute_fields.h"

namespace loupe::models {

namespace {

// Graphviz keeps global state (the context's plugins, cgraph's string heap):
// one layout at a time in the whole process.
std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

// Graphviz's API takes char* for names it does not modify.
char* cstr(const char* text) {
  return const_cast<char*>(text);
}

void setAttribute(void* object, const char* name, const std::string& value) {
  agsafeset(object, cstr(name), cstr(value.c_str()), cstr(""));
}

// Above this many nodes the layout trades detail for speed (see below).
constexpr qsizetype kLargeGraphNodes = 500;

std::string inches(double points) {
  return std::to_string(points / 72.0);
}

// What a constant operand of `op` in `slot` is called in a node: the
// weights and bias of the layers that have them, else its slot.
QString operandName(const ir::Operator& op, std::size_t slot) {
  const std::string type = op.typeName();
  const bool layer = type == "CONV_2D" || type == "DEPTHWISE_CONV_2D" ||
                     type == "FULLY_CONNECTED" || type == "CONV_3D";
  if (layer && slot == 1) return QStringLiteral("weights");
  if (layer && slot == 2) return QStringLiteral("bias");
  if (type == "TRANSPOSE_CONV" && slot == 1) return QStringLiteral("weights");
  if (type == "TRANSPOSE_CONV" && slot == 3) return QStringLiteral("bias");
  return QStringLiteral("input %1").arg(slot);
}

void addFacts(const ir::Graph& graph, const ir::Operator& op, LaidOutNode& node) {
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const int t = op.inputs[slot];
    if (t < 0 || !graph.tensor(t).isConstant) continue;
    node.facts << QStringLiteral("%1 %2").arg(operandName(op, slot),
                                              tensorShapeText(graph.tensor(t)));
  }
  QStringList attributes;
  for (const AttributeField& field : operatorAttributeFields(op.attributes)) {
    if (field.name == QLatin1String("activation")) {
      if (field.value != QLatin1String("NONE")) node.activation = field.value;
      continue;
    }
    attributes << (field.value == QLatin1String("true")
                       ? field.name
                       : field.name + QLatin1Char(' ') + field.value);
  }
  // Two attributes a line, so the node stays narrow.
  for (qsizetype i = 0; i < attributes.size(); i += 2) {
    node.facts << attributes.mid(i, 2).join(QStringLiteral(" \u00b7 "));
  }
  const analysis::OperatorCost cost = analysis::operatorCost(graph, op);
  QString size = QStringLiteral("out %1 B").arg(groupedNumber(cost.outputBytes));
  if (cost.macs > 0) size = QStringLiteral("%1 MACs \u00b7 ").arg(groupedNumber(cost.macs)) + size;
  node.facts << size;
  node.runLine = true;
}

// An expanded ethos-u operator before Graphviz: its NPU operations' nodes
// [first, last] and the cluster's label.
struct NpuCluster {
  int operatorIndex = -1;
  int first = -1, last = -1;
  QString label;
};

// Appends the nodes of ethos-u operator `op`'s NPU operations (STOP left
// out) and the edges chaining them in command order; false, appending
// nothing, when its stream cannot be listed (it stays one node then).
bool addNpuOperationNodes(const ir::Graph& graph, const ir::Operator& op, GraphLayout& layout,
                          NpuCluster& cluster) {
  const NpuStreamListing listing = npuStreamListing(graph, op.index, false);
  if (!listing.error.isEmpty() || listing.npuOperationCount() == 0) return false;
  cluster.operatorIndex = op.index;
  cluster.label = QStringLiteral("op %1 %2 \u00b7 %3 \u00b7 %4 NPU operations")
                      .arg(op.index)
                      .arg(QString::fromStdString(op.typeName()), listing.accelerator)
                      .arg(listing.npuOperationCount());
  if (listing.npuCycles >= 0) {
    cluster.label +=
        QStringLiteral(" \u00b7 \u2248 %1 cycles").arg(groupedNumber(listing.npuCycles));
  }
  for (const NpuOperationEntry& entry : listing.operations) {
    if (entry.isStop) continue;
    LaidOutNode node;
    node.operatorIndex = op.index;
    node.npuOperation = entry.ordinal;
    node.title = entry.title();
    node.detail = entry.shapes;
    node.facts = entry.facts();
    node.target = QStringLiteral("ethos-u");
    const int index = static_cast<int>(layout.nodes.size());
    if (cluster.first < 0) {
      cluster.first = index;
    } else {
      layout.edges.append({-1, index - 1, index, {}, {}, {}, {}});
    }
    cluster.last = index;
    layout.nodes.append(node);
  }
  return true;
}

}  // namespace

int GraphLayout::nodeOfOperator(int operatorIndex) const {
  for (int i = 0; i < nodes.size(); ++i) {
    if (nodes[i].operatorIndex == operatorIndex && nodes[i].npuOperation < 0) return i;
  }
  return -1;
}

int GraphLayout::nodeOfNpuOperation(int operatorIndex, int ordinal) const {
  for (int i = 0; i < nodes.size(); ++i) {
    if (nodes[i].operatorIndex == operatorIndex && nodes[i].npuOperation == ordinal) return i;
  }
  return -1;
}

GraphLayout layoutGraph(const ir::Graph& graph, const GraphTextMetrics& metrics,
                        const QList<int>& unsupportedOperators,
                        const QList<int>& expandedOperators) {
  QElapsedTimer timer;
  timer.start();
  GraphLayout layout;

  // The nodes, before Graphviz: operators, then model inputs and outputs.
  std::map<int, int> producerNode;  // tensor -> node that writes it
  std::map<int, int> consumerNode;  // operator -> node its inputs go to
  std::vector<NpuCluster> clusters;
  for (const ir::Operator& op : graph.operators) {
    if (op.type == ir::OpType::EthosU && expandedOperators.contains(op.index)) {
      NpuCluster cluster;
      if (addNpuOperationNodes(graph, op, layout, cluster)) {
        consumerNode[op.index] = cluster.first;
        for (int t : op.outputs) producerNode[t] = cluster.last;
        clusters.push_back(cluster);
        continue;
      }
    }
    LaidOutNode node;
    node.operatorIndex = op.index;
    node.title = QString::fromStdString(op.typeName());
    if (!op.outputs.empty()) {
      node.tensorIndex = op.outputs.front();
      node.detail = tensorShapeText(graph.tensor(op.outputs.front()));
    }
    node.target = QStringLiteral("c");
    node.supported = !unsupportedOperators.contains(op.index);
    // A collapsed ethos-u operator says what its command stream holds.
    node.facts = ethosuOperatorFacts(graph, op.index);
    if (metrics.fullDetail) addFacts(graph, op, node);
    consumerNode[op.index] = static_cast<int>(layout.nodes.size());
    for (int t : op.outputs) producerNode[t] = static_cast<int>(layout.nodes.size());
    layout.nodes.append(node);
  }
  auto tensorNode = [&](int tensor) {
    LaidOutNode node;
    node.tensorIndex = tensor;
    node.title = shortTensorName(graph.tensor(tensor).name, 20);
    node.detail = tensorShapeText(graph.tensor(tensor));
    layout.nodes.append(node);
    return static_cast<int>(layout.nodes.size()) - 1;
  };
  for (int t : graph.inputs) producerNode[t] = tensorNode(t);
  for (const ir::Operator& op : graph.operators) {
    const int to = consumerNode.at(op.index);
    for (int t : op.inputs) {
      if (t < 0) continue;
      auto from = producerNode.find(t);
      if (from == producerNode.end()) continue;  // constants (weights) are not drawn
      layout.edges.append({t, from->second, to, {}, {}, tensorShapeText(graph.tensor(t)), {}});
    }
  }
  for (int t : graph.outputs) {
    const int node = tensorNode(t);
    auto from = producerNode.find(t);
    if (from != producerNode.end()) {
      layout.edges.append({t, from->second, node, {}, {}, tensorShapeText(graph.tensor(t)), {}});
    }
  }

  std::lock_guard<std::mutex> lock(graphvizMutex());
  GVC_t* gvc = gvContext();
  Agraph_t* g = agopen(cstr("loupe"), Agdirected, nullptr);
  setAttribute(g, "rankdir", "TB");
  setAttribute(g, "nodesep", "0.35");
  setAttribute(g, "ranksep", "0.3");
  // Large graphs: edge labels become extra nodes in dot's ranking, and
  // crossing minimisation and spline routing dominate; without labels (the
  // view puts them at the edge's middle), with straight edges and few
  // iterations, 2,000 operators lay out in a second or two instead of minutes.
  // nslimit bounds the network simplex that places nodes left to right, the
  // largest remaining phase (measured with dot -v on the bench's graph: 999
  // iterations, 3 s, at 2; 200 iterations, 0.4 s, at 0.1): a few nodes sit
  // less straight above one another.
  const bool large = layout.nodes.size() > kLargeGraphNodes;
  if (large) {
    setAttribute(g, "mclimit", "0.1");
    setAttribute(g, "nslimit", "0.1");
    setAttribute(g, "nslimit1", "2");
    setAttribute(g, "splines", "line");
  }
  std::vector<Agnode_t*> gvNodes;
  for (int i = 0; i < layout.nodes.size(); ++i) {
    const LaidOutNode& node = layout.nodes[i];
    const std::string name = "n" + std::to_string(i);
    Agnode_t* n = agnode(g, cstr(name.c_str()), 1);
    qsizetype chars = std::max(node.title.size(), node.detail.size());
    // Facts are drawn a size smaller: about 0.85 of a title character each.
    for (const QString& fact : node.facts) {
      chars = std::max(chars, static_cast<qsizetype>(fact.size() * 0.85 + 1));
    }
    // "live 1,234,567 B · 12.34 ms" at most.
    constexpr qsizetype kRunLineChars = 24;
    if (node.runLine) chars = std::max(chars, kRunLineChars);
    const double width = static_cast<double>(chars) * metrics.charWidth + 20;
    const double height =
        2 * metrics.lineHeight + 14 +
        static_cast<double>(node.facts.size() + (node.runLine ? 1 : 0)) * metrics.factLineHeight +
        (node.activation.isEmpty() ? 0 : metrics.factLineHeight + 2);
    setAttribute(n, "shape", node.operatorIndex >= 0 ? "box" : "ellipse");
    setAttribute(n, "fixedsize", "true");
    setAttribute(n, "width", inches(node.operatorIndex >= 0 ? width : width * 1.25));
    setAttribute(n, "height", inches(height));
    setAttribute(n, "label", "");
    gvNodes.push_back(n);
  }
  std::vector<Agraph_t*> gvClusters;
  for (const NpuCluster& cluster : clusters) {
    const std::string name = "cluster_op" + std::to_string(cluster.operatorIndex);
    Agraph_t* sub = agsubg(g, cstr(name.c_str()), 1);
    // Graphviz sizes the label band; the view draws the label in it.
    setAttribute(sub, "label", cluster.label.toStdString());
    setAttribute(sub, "labeljust", "l");
    setAttribute(sub, "fontsize", std::to_string(metrics.lineHeight));
    setAttribute(sub, "margin", "10");
    for (int i = cluster.first; i <= cluster.last; ++i) {
      agsubnode(sub, gvNodes[static_cast<std::size_t>(i)], 1);
    }
    gvClusters.push_back(sub);
  }
  std::vector<Agedge_t*> gvEdges;
  for (const LaidOutEdge& edge : layout.edges) {
    Agedge_t* e = agedge(g, gvNodes[static_cast<std::size_t>(edge.from)],
                         gvNodes[static_cast<std::size_t>(edge.to)], nullptr, 1);
    if (!large && !edge.label.isEmpty()) {
      setAttribute(e, "label", edge.label.toStdString());
      setAttribute(e, "fontsize", std::to_string(metrics.labelFontSize));
    }
    gvEdges.push_back(e);
  }

  if (gvLayout(gvc, g, "dot") != 0) {
    layout.error = QStringLiteral("Graphviz could not lay out the graph (dot plugin missing?)");
    layout.nodes.clear();
    layout.edges.clear();
  } else {
    const boxf bb = GD_bb(g);
    auto toScene = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
    layout.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    for (std::size_t i = 0; i < gvNodes.size(); ++i) {
      const QPointF centre = toScene(ND_coord(gvNodes[i]));
      const double w = ND_width(gvNodes[i]) * 72;
      const double h = ND_height(gvNodes[i]) * 72;
      layout.nodes[static_cast<int>(i)].rect = QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h);
    }
    for (std::size_t i = 0; i < gvClusters.size(); ++i) {
      const boxf box = GD_bb(gvClusters[i]);
      const QPointF topLeft = toScene({box.LL.x, box.UR.y});
      LaidOutCluster cluster;
      cluster.operatorIndex = clusters[i].operatorIndex;
      cluster.label = clusters[i].label;
      cluster.rect = QRectF(topLeft, QSizeF(box.UR.x - box.LL.x, box.UR.y - box.LL.y));
      const textlabel_t* label = GD_label(gvClusters[i]);
      cluster.labelHeight = label != nullptr ? label->dimen.y : metrics.lineHeight;
      layout.clusters.append(cluster);
    }
    for (std::size_t i = 0; i < gvEdges.size(); ++i) {
      LaidOutEdge& edge = layout.edges[static_cast<int>(i)];
      const splines* spl = ED_spl(gvEdges[i]);
      if (spl != nullptr && spl->size > 0) {
        const bezier& bz = spl->list[0];
        for (int p = 0; p < bz.size; ++p) edge.spline.append(toScene(bz.list[p]));
        edge.arrowTip = bz.eflag ? toScene(bz.ep) : edge.spline.value(edge.spline.size() - 1);
      }
      if (const textlabel_t* label = ED_label(gvEdges[i]); label != nullptr && label->set) {
        edge.labelCentre = toScene(label->pos);
      } else if (!edge.spline.isEmpty()) {
        edge.labelCentre = (edge.spline.front() + edge.arrowTip) / 2 + QPointF(30, 0);
      }
    }
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  gvFreeContext(gvc);
  layout.milliseconds = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  return layout;
}

}  // namespace loupe::models
