// What the window exports, as text, from the data the views show: any table
// model as CSV, the laid-out graph as Graphviz DOT (with the node colours the
// Graph view uses), the memory plan as CSV and JSON. The files are written
// atomically (writeFileAtomically); SVG and PNG of the graph come from the
// Graph view itself.
#pragma once

#include <QAbstractItemModel>
#include <QByteArray>
#include <QHash>
#include <QString>

#include "models/graph_layout.h"
#include "models/memory_plan_layout.h"

namespace loupe::models {

// One header line, then one line per row; fields with a comma, quote or line
// break are quoted (RFC 4180). Cells hold the model's `valueRole` (the table
// models' raw numbers, not "320,000") where it has one, else the text shown.
QByteArray tableCsv(const QAbstractItemModel& model, int valueRole = Qt::DisplayRole);

// A digraph with the layout's nodes (label: title and detail, fill: the
// colour `fillOf` gives the node, as the view paints it) and its edges
// labelled with their tensors; Graphviz lays it out again when rendered.
QByteArray graphDot(const GraphLayout& layout, const QString& name,
                    const QHash<int, QString>& fillOfNode = {});

// buffer,kind,tensors,pool,memory,offset,size,first_step,last_step
QByteArray memoryPlanCsv(const MemoryPlanLayout& plan);
// {"planner", "total_bytes", "lower_bound", "pools", "memories", "buffers"}
QByteArray memoryPlanJson(const MemoryPlanLayout& plan);

// Writes `bytes` to `path` through a temporary file renamed over it, so a
// reader never sees half a file and a failure leaves the old one. Returns an
// empty string or why it failed (the path and the system's reason).
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

}  // namespace loupe::models
