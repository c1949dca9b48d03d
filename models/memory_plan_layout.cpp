#include "models/memory_plan_layout.h"

#include <QCoreApplication>
#include <algorithm>
#include <set>

#include "codegen/compiled_model.h"
#include "memory/memory_plan.h"

namespace loupe::models {

namespace {

// Model operators of every compiled operator that reads or writes `tensor`.
std::set<int> operatorsTouching(const ir::Graph& graph, const std::set<int>& tensors) {
  std::set<int> result;
  for (const ir::Operator& op : graph.operators) {
    bool touches = false;
    for (int t : op.inputs) touches = touches || tensors.count(t) > 0;
    for (int t : op.outputs) touches = touches || tensors.count(t) > 0;
    if (!touches) continue;
    for (int m : op.modelOperators()) result.insert(m);
  }
  return result;
}

}  // namespace

QList<int> MemoryPlanLayout::buffersOfOperator(int modelOperator) const {
  QList<int> result;
  for (int i = 0; i < buffers.size(); ++i) {
    if (buffers[i].modelOperators.contains(modelOperator)) result.append(i);
  }
  return result;
}

QList<qint64> MemoryPlanLayout::liveBytesByModelOperator(int modelOperatorCount) const {
  QList<qint64> live(modelOperatorCount, -1);
  for (int step = 0; step < stepCount(); ++step) {
    qint64 bytes = 0;
    for (const PlannedBuffer& b : buffers) {
      if (b.firstStep <= step && step <= b.lastStep) bytes += b.size;
    }
    for (int op : stepOperators[step]) {
      if (op >= 0 && op < modelOperatorCount) live[op] = std::max(live[op], bytes);
    }
  }
  return live;
}

qint64 PlannedOverlap::safeOffset(const QList<PlannedBuffer>& buffers) const {
  return buffers.at(input).offset + (backwards ? distanceBytes : -distanceBytes);
}

QList<int> MemoryPlanLayout::overlapsOf(int buffer) const {
  QList<int> result;
  for (int i = 0; i < overlaps.size(); ++i) {
    if (overlaps[i].output == buffer || overlaps[i].input == buffer) result.append(i);
  }
  return result;
}

QString plannedBufferKindName(PlannedBufferKind kind) {
  switch (kind) {
    case PlannedBufferKind::Intermediate:
      return QCoreApplication::translate("MemoryPlanLayout", "intermediate tensor");
    case PlannedBufferKind::Shared:
      return QCoreApplication::translate("MemoryPlanLayout", "shared (view or in place)");
    case PlannedBufferKind::Scratch:
      return QCoreApplication::translate("MemoryPlanLayout", "operator scratch");
  }
  return {};
}

MemoryPlanLayout memoryPlanLayout(const ir::Graph& graph, const memory::MemoryPlan& plan,
                                  const std::vector<codegen::MemoryUse>& memories) {
  MemoryPlanLayout layout;
  layout.planner = QString::fromStdString(plan.planner);
  layout.totalBytes = plan.result.totalBytes;
  layout.lowerBound = plan.tensorLevelBound;
  if (!plan.overlaps.empty()) {
    layout.overlapsAllowed = true;
    layout.overlapBound = plan.lowerBound;
  }
  for (const memory::OverlapAllowance& used : plan.usedOverlaps()) {
    const auto in = static_cast<std::size_t>(used.inputBuffer);
    const auto out = static_cast<std::size_t>(used.outputBuffer);
    const qint64 inBegin = plan.result.offset[in], outBegin = plan.result.offset[out];
    const qint64 shared = std::min(inBegin + plan.analysis.buffers[in].size,
                                   outBegin + plan.analysis.buffers[out].size) -
                          std::max(inBegin, outBegin);
    const bool backwards = used.runsBackwards(inBegin, outBegin, plan.analysis.buffers);
    layout.overlaps.append({used.outputBuffer, used.inputBuffer, used.step,
                            backwards ? used.leadBytes : used.lagBytes, backwards, shared});
  }
  layout.fits = plan.result.fits;
  layout.milliseconds = plan.milliseconds;
  for (std::size_t p = 0; p < plan.pools.size(); ++p) {
    const qint64 used = p < plan.result.poolBytes.size() ? plan.result.poolBytes[p] : 0;
    layout.pools.append({QString::fromStdString(plan.pools[p].name), plan.pools[p].size, used,
                         QString::fromStdString(plan.pools[p].memory)});
  }
  for (const codegen::MemoryUse& use : memories) {
    PlannedMemory memory{QString::fromStdString(use.region.name),
                         use.region.capacity,
                         0,
                         use.constantBytes,
                         use.region.holdsWorkspace,
                         use.region.holdsConstants};
    for (const PlannedPool& pool : layout.pools) {
      if (pool.memory == memory.name) memory.workspaceBytes += pool.usedBytes;
    }
    layout.memories.append(memory);
  }
  for (int opIndex : plan.analysis.order) {
    const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(opIndex));
    QList<int> modelOps;
    for (int m : op.modelOperators()) modelOps.append(m);
    layout.stepOperators.append(modelOps);
    layout.stepLabels.append(
        QStringLiteral("%1 %2").arg(modelOps.value(0)).arg(QString::fromStdString(op.typeName())));
  }
  const auto& buffers = plan.analysis.buffers;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const memory::WorkspaceBuffer& b = buffers[i];
    PlannedBuffer out;
    out.name = QString::fromStdString(memory::bufferName(graph, b));
    out.size = b.size;
    out.firstStep = b.firstStep;
    out.lastStep = b.lastStep;
    out.pool = i < plan.result.pool.size() ? plan.result.pool[i] : -1;
    out.offset = i < plan.result.offset.size() ? plan.result.offset[i] : 0;
    std::set<int> modelOps;
    if (b.scratchOf >= 0) {
      out.kind = PlannedBufferKind::Scratch;
      for (int m : graph.operators.at(static_cast<std::size_t>(b.scratchOf)).modelOperators()) {
        modelOps.insert(m);
      }
    } else {
      out.kind = b.aliases.empty() ? PlannedBufferKind::Intermediate : PlannedBufferKind::Shared;
      std::set<int> tensors{b.tensor};
      out.tensors.append(QString::fromStdString(graph.tensor(b.tensor).name));
      for (int alias : b.aliases) {
        tensors.insert(alias);
        out.tensors.append(QString::fromStdString(graph.tensor(alias).name));
      }
      modelOps = operatorsTouching(graph, tensors);
    }
    for (int m : modelOps) out.modelOperators.append(m);
    // Named after the step that writes it, which is what a reader looks for.
    const int writer = b.firstStep >= 0 && b.firstStep < layout.stepCount()
                           ? layout.stepOperators[b.firstStep].value(0, -1)
                           : -1;
    out.label = b.scratchOf >= 0 ? QStringLiteral("scratch op %1").arg(writer)
                                 : QStringLiteral("%%1 op %2").arg(b.tensor).arg(writer);
    layout.buffers.append(out);
  }
  return layout;
}

}  // namespace loupe::models
