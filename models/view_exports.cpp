#include "models/view_exports.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace loupe::models {

namespace {

QByteArray csvField(const QString& text) {
  QByteArray field = text.toUtf8();
  if (field.contains(',') || field.contains('"') || field.contains('\n') || field.contains('\r')) {
    field.replace("\"", "\"\"");
    field = '"' + field + '"';
  }
  return field;
}

QByteArray csvLine(const QStringList& fields) {
  QByteArray line;
  for (qsizetype i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csvField(fields[i]);
  }
  return line + "\r\n";
}

// A DOT string literal.
QByteArray dotString(const QString& text) {
  QByteArray quoted = text.toUtf8();
  quoted.replace("\\", "\\\\");
  quoted.replace("\"", "\\\"");
  quoted.replace("\n", "\\n");
  return '"' + quoted + '"';
}

}  // namespace

QByteArray tableCsv(const QAbstractItemModel& model, int valueRole) {
  QStringList header;
  for (int c = 0; c < model.columnCount(); ++c) {
    header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
  }
  QByteArray csv = csvLine(header);
  for (int r = 0; r < model.rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < model.columnCount(); ++c) {
      const QVariant value = model.data(model.index(r, c), valueRole);
      row << (value.isValid() ? value : model.data(model.index(r, c), Qt::DisplayRole)).toString();
    }
    csv += csvLine(row);
  }
  return csv;
}

QByteArray graphDot(const GraphLayout& layout, const QString& name,
                    const QHash<int, QString>& fillOfNode) {
  QByteArray dot = "digraph " + dotString(name) + " {\n";
  dot += "  node [fontname=\"DejaVu Sans\", fontsize=10];\n";
  dot += "  edge [fontname=\"DejaVu Sans\", fontsize=8];\n";
  for (int i = 0; i < layout.nodes.size(); ++i) {
    const LaidOutNode& node = layout.nodes[i];
    const bool op = node.operatorIndex >= 0;
    QString label = node.title;
    if (!node.detail.isEmpty()) label += QLatin1Char('\n') + node.detail;
    for (const QString& fact : node.facts) label += QLatin1Char('\n') + fact;
    if (!node.activation.isEmpty()) label += QLatin1Char('\n') + node.activation;
    if (op && !node.target.isEmpty()) label += QStringLiteral("\non ") + node.target;
    if (!node.supported) label += QStringLiteral("\n(not supported)");
    dot += "  n" + QByteArray::number(i) + " [label=" + dotString(label) +
           (op ? ", shape=box, style=\"rounded,filled\"" : ", shape=ellipse, style=filled");
    const QString fill =
        fillOfNode.value(i, op ? QStringLiteral("#dde6f5") : QStringLiteral("#f4f4f4"));
    dot += ", fillcolor=" + dotString(fill) + "];\n";
  }
  for (const LaidOutEdge& edge : layout.edges) {
    dot += "  n" + QByteArray::number(edge.from) + " -> n" + QByteArray::number(edge.to);
    if (!edge.label.isEmpty()) dot += " [label=" + dotString(edge.label) + "]";
    dot += ";\n";
  }
  return dot + "}\n";
}

QByteArray memoryPlanCsv(const MemoryPlanLayout& plan) {
  QByteArray csv = csvLine(
      {"buffer", "kind", "tensors", "pool", "memory", "offset", "size", "first_step", "last_step"});
  for (const PlannedBuffer& b : plan.buffers) {
    const PlannedPool* pool =
        b.pool >= 0 && b.pool < plan.pools.size() ? &plan.pools[b.pool] : nullptr;
    csv += csvLine({b.name, plannedBufferKindName(b.kind), b.tensors.join(QLatin1Char(' ')),
                    pool ? pool->name : QString(), pool ? pool->memory : QString(),
                    QString::number(b.offset), QString::number(b.size),
                    QString::number(b.firstStep), QString::number(b.lastStep)});
  }
  return csv;
}

QByteArray memoryPlanJson(const MemoryPlanLayout& plan) {
  QJsonArray pools;
  for (const PlannedPool& p : plan.pools) {
    pools.append(QJsonObject{{"name", p.name},
                             {"memory", p.memory.isEmpty() ? QJsonValue() : QJsonValue(p.memory)},
                             {"limit", p.limit > 0 ? QJsonValue(p.limit) : QJsonValue()},
                             {"used_bytes", p.usedBytes}});
  }
  QJsonArray memories;
  for (const PlannedMemory& m : plan.memories) {
    memories.append(QJsonObject{{"name", m.name},
                                {"capacity", m.capacity},
                                {"workspace_bytes", m.workspaceBytes},
                                {"constant_bytes", m.constantBytes}});
  }
  QJsonArray buffers;
  for (const PlannedBuffer& b : plan.buffers) {
    buffers.append(QJsonObject{
        {"name", b.name},
        {"kind", plannedBufferKindName(b.kind)},
        {"tensors", QJsonArray::fromStringList(b.tensors)},
        {"pool", b.pool >= 0 && b.pool < plan.pools.size() ? QJsonValue(plan.pools[b.pool].name)
                                                           : QJsonValue()},
        {"offset", b.offset},
        {"size", b.size},
        {"first_step", b.firstStep},
        {"last_step", b.lastStep}});
  }
  const QJsonObject root{{"planner", plan.planner},
                         {"total_bytes", plan.totalBytes},
                         {"lower_bound", plan.lowerBound},
                         {"fits", plan.fits},
                         {"pools", pools},
                         {"memories", memories},
                         {"buffers", buffers}};
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
  }
  if (file.write(bytes) != bytes.size() || !file.commit()) {
    return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
  }
  return {};
}

}  // namespace loupe::models
