// The memory plan as the Memory Plan view draws it: plain Qt data, no compiler
// types. Every workspace buffer is a rectangle (its lifetime in steps across,
// its bytes at its offset down); steps are labelled with the imported model's
// operators so a selection in any view maps onto the plan.
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <vector>

namespace loupe::ir {
struct Graph;
}
namespace loupe::memory {
struct MemoryPlan;
}
namespace loupe::codegen {
struct MemoryUse;
}

namespace loupe::models {

// Why a buffer exists; the view colours by it.
enum class PlannedBufferKind {
  Intermediate,  // one operator's output, read by later operators
  Shared,        // also holds a view (reshape) or an in-place operator's output
  Scratch,       // an operator function's working memory, alive during its step
};

struct PlannedBuffer {
  QString name;         // the owning tensor's name, or "#N scratch"
  QString label;        // short, for inside the rectangle: "%24 op 2", "scratch op 3"
  QStringList tensors;  // every tensor stored in it (owner first, then aliases)
  PlannedBufferKind kind = PlannedBufferKind::Intermediate;
  qint64 size = 0;
  qint64 offset = 0;
  int pool = -1;  // index into MemoryPlanLayout::pools; -1 when it fitted nowhere
  int firstStep = 0;
  int lastStep = 0;
  QList<int> modelOperators;  // imported operators that write, read or own it
};

// An output the plan starts inside the input that dies at its step (both
// indices into MemoryPlanLayout::buffers).
struct PlannedOverlap {
  int output = -1;
  int input = -1;
  int step = 0;
  // The traced distance: the output must start at least this many bytes
  // before the input - or, when its function runs backwards, after it.
  qint64 distanceBytes = 0;
  bool backwards = false;  // placed above the input, the loops run last to first
  qint64 sharedBytes = 0;  // bytes the two occupy together in this plan

  // The highest start the loops allow (forwards), or the lowest (backwards).
  qint64 safeOffset(const QList<PlannedBuffer>& buffers) const;
};

struct PlannedPool {
  QString name;
  qint64 limit = 0;  // bytes; 0 for unbounded
  qint64 usedBytes = 0;
  QString memory;  // the board memory it lives in; empty: the data memory
};

// A memory of the board the model was compiled for, and its fill.
struct PlannedMemory {
  QString name;               // "SRAM"
  qint64 capacity = 0;        // bytes the model may use of it
  qint64 workspaceBytes = 0;  // its pools
  qint64 constantBytes = 0;   // constant arrays placed in it
  bool holdsWorkspace = false;
  bool holdsConstants = false;
};

struct MemoryPlanLayout {
  QString planner;
  QList<PlannedBuffer> buffers;
  QList<PlannedPool> pools;
  QList<PlannedMemory> memories;    // empty: compiled for no board
  QList<QList<int>> stepOperators;  // per step: the imported operators it runs
  QStringList stepLabels;           // per step: "3 CONV_2D"
  qint64 totalBytes = 0;
  qint64 lowerBound = 0;  // the tensor-level bound: whole tensors side by side
  // The lower bound if outputs may start inside their dying inputs
  // (codegen::operatorOverlaps); 0 when not worked out.
  qint64 overlapBound = 0;
  // The bound if the first operators ran strip by strip (memory/patch_bound.h),
  // with those overlaps; 0 when patches gain nothing. When the model was
  // compiled with patches, the stage it runs in strips.
  qint64 patchBound = 0;
  QList<int> patchOperators;  // the imported model's operators of the stage
  int patchStrips = 0;
  double patchExtraMacsPercent = 0;
  qint64 patchWholeBound = 0;  // the bound without patches, with the same overlaps
  // Compiled with patches: per strip, its first and last step; empty when
  // the model runs whole.
  QList<QPair<int, int>> patchStripSteps;
  bool patchesApplied() const { return !patchStripSteps.isEmpty(); }
  // Whether the planner was allowed those overlaps (then it is measured
  // against overlapBound), and the ones it used.
  bool overlapsAllowed = false;
  QList<PlannedOverlap> overlaps;
  bool fits = true;
  double milliseconds = 0;

  bool isEmpty() const { return planner.isEmpty(); }
  // The bound the plan is measured against.
  qint64 targetBound() const { return overlapsAllowed ? overlapBound : lowerBound; }
  // The overlaps `buffer` takes part in, as output or input.
  QList<int> overlapsOf(int buffer) const;
  int stepCount() const { return static_cast<int>(stepOperators.size()); }
  // The buffers that operator `modelOperator` of the imported model touches.
  QList<int> buffersOfOperator(int modelOperator) const;
  // Per imported operator (index < `modelOperatorCount`): the bytes of
  // workspace alive at its step, the largest if it runs in several; -1 for
  // one no step runs (folded away).
  QList<qint64> liveBytesByModelOperator(int modelOperatorCount) const;
};

// `graph` is the graph the plan was made for (after the graph passes);
// `memories`: the board's memories and what the compilation placed in them
// (their workspace is taken from this plan's pools).
MemoryPlanLayout memoryPlanLayout(const ir::Graph& graph, const memory::MemoryPlan& plan,
                                  const std::vector<codegen::MemoryUse>& memories = {});

QString plannedBufferKindName(PlannedBufferKind kind);

}  // namespace loupe::models
