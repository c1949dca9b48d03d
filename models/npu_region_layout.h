// The memory regions of a Vela operator (ethos-u) as the NPU Regions view
// draws them: plain Qt data from compiler_core's region map
// (analysis/ethosu_region_map.h). Each region is a lane of boxes on the
// (NPU operation x address) plane, like the Memory Plan's buffers: in the
// flash, each weight or scale stream, lookup table and constant operand at
// the operations that read it (from the DMA that copies it to the
// operation that uses it), the unused bytes across the whole stream; in the
// scratch regions, each feature map and DMA copy over its lifetime.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace loupe::ir {
struct Graph;
}

namespace loupe::models {

// What a box holds; the chart colours by it.
enum class NpuRegionBoxKind {
  FeatureMap,       // an OFM written by an operation, read by later ones
  Input,            // read before the stream writes it: the operator's input
  Output,           // written and left for the CPU: the operator's output
  DmaCopy,          // bytes a DMA copied into the region (weights, scales)
  Weights,          // flash: a weight stream
  Scales,           // flash: bias and scale records
  LookupTable,      // flash: a lookup table DMA'd into the SHRAM
  ConstantOperand,  // flash: an IFM or IFM2 read from there
  Copied,           // flash: copied by a DMA, read by no operation from the copy
  Unused,           // flash: no command reads it
};

struct NpuRegionBox {
  NpuRegionBoxKind kind = NpuRegionBoxKind::FeatureMap;
  QString label;   // short, for inside the box: "OFM npu 12", "weights npu 12"
  QString detail;  // a line per access, for the tooltip
  qint64 begin = 0, end = 0;
  int firstOperation = 0, lastOperation = 0;  // ordinals; the lifetime drawn
  QList<int> operations;                      // ordinals that read or write it
  QString tensor;                             // the model tensor, when it is one

  qint64 size() const { return end - begin; }
};

struct NpuRegionLane {
  int region = 0;
  QString name;        // "flash", "scratch", "fast scratch"
  qint64 size = 0;     // the region's size; 0 when unknown
  qint64 highest = 0;  // the end of the highest byte used
  bool written = false;
  QList<NpuRegionBox> boxes;

  // "region 1 · scratch · 74,464 B".
  QString title() const;
  // The size the chart spans: the region's, or what the stream uses.
  qint64 extent() const { return size > 0 ? size : highest; }
};

struct NpuRegionLayout {
  int operatorIndex = -1;
  int operationCount = 0;       // ordinals: as NpuOperationEntry::ordinal
  QStringList operationLabels;  // per ordinal: "npu 3 CONV"
  QList<NpuRegionLane> lanes;
  qint64 unusedFlashBytes = 0;
  QStringList problems;
  QString error;  // non-empty: the payload could not be mapped (then no lanes)

  bool isEmpty() const { return lanes.isEmpty(); }
  // The boxes of lane `lane` that operation `ordinal` reads or writes.
  QList<int> boxesOf(int lane, int ordinal) const;
  // The lane of region `region`, or -1.
  int laneOf(int region) const;
};

// The layout of ethos-u operator `operatorIndex` of `graph`; never throws
// (a payload that does not decode gives `error`).
NpuRegionLayout npuRegionLayout(const ir::Graph& graph, int operatorIndex);

QString npuRegionBoxKindName(NpuRegionBoxKind kind);

}  // namespace loupe::models
