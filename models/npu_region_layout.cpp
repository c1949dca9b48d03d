#include "models/npu_region_layout.h"

#include <algorithm>
#include <exception>

#include "analysis/ethosu_region_map.h"
#include "ir/graph.h"
#include "models/display_text.h"
#include "models/npu_stream_listing.h"

namespace loupe::models {

namespace {

using analysis::EthosUAccessKind;
using analysis::EthosURegionAccess;
using analysis::EthosURegionMap;

QString regionLayoutHex(qint64 value) {
  return QStringLiteral("0x%1").arg(value, 6, 16, QLatin1Char('0'));
}

// "npu 5" of "npu 5 CONV".
QString regionLayoutShortLabel(const EthosURegionMap& map, int ordinal) {
  const QString label =
      QString::fromStdString(map.operationLabels[static_cast<std::size_t>(ordinal)]);
  return label.section(QLatin1Char(' '), 0, 1);
}

// "npu 5 CONV writes OFM [0x002400, 0x0026e0) 736 B, tile 0".
QString regionLayoutAccessLine(const EthosURegionMap& map, const EthosURegionAccess& a) {
  QString line =
      QStringLiteral("%1 %2 %3 [%4, %5) %6 B")
          .arg(QString::fromStdString(map.operationLabels[static_cast<std::size_t>(a.operation)]),
               a.writes ? QStringLiteral("writes") : QStringLiteral("reads"),
               QString::fromStdString(analysis::ethosuAccessKindName(a.kind)),
               regionLayoutHex(static_cast<qint64>(a.begin)),
               regionLayoutHex(static_cast<qint64>(a.end)),
               groupedNumber(static_cast<std::int64_t>(a.size())));
  if (a.kind == EthosUAccessKind::Ifm || a.kind == EthosUAccessKind::Ifm2 ||
      a.kind == EthosUAccessKind::Ofm) {
    if (a.part != 0) line += QStringLiteral(", tile %1").arg(a.part);
  } else if (a.kind == EthosUAccessKind::Weights || a.kind == EthosUAccessKind::Scales) {
    line += QStringLiteral(", core %1").arg(a.part);
    if (a.viaDma >= 0) {
      line +=
          QStringLiteral(", in region %1 as copied by %2")
              .arg(a.region)
              .arg(QString::fromStdString(map.operationLabels[static_cast<std::size_t>(a.viaDma)]));
    }
  }
  return line;
}

NpuRegionBoxKind regionLayoutFlashKind(analysis::EthosUFlashContent content) {
  switch (content) {
    case analysis::EthosUFlashContent::Weights:
      return NpuRegionBoxKind::Weights;
    case analysis::EthosUFlashContent::Scales:
      return NpuRegionBoxKind::Scales;
    case analysis::EthosUFlashContent::LookupTable:
      return NpuRegionBoxKind::LookupTable;
    case analysis::EthosUFlashContent::ConstantOperand:
      return NpuRegionBoxKind::ConstantOperand;
    case analysis::EthosUFlashContent::DmaCopied:
      return NpuRegionBoxKind::Copied;
    case analysis::EthosUFlashContent::Unused:
      return NpuRegionBoxKind::Unused;
  }
  return NpuRegionBoxKind::Unused;
}

void regionLayoutAddOperation(NpuRegionBox& box, int ordinal) {
  if (!box.operations.contains(ordinal)) box.operations.append(ordinal);
}

}  // namespace

QString NpuRegionLane::title() const {
  return QStringLiteral("region %1 \u00b7 %2 \u00b7 %3 B")
      .arg(region)
      .arg(name)
      .arg(groupedNumber(extent()));
}

QList<int> NpuRegionLayout::boxesOf(int lane, int ordinal) const {
  QList<int> found;
  if (lane < 0 || lane >= lanes.size() || ordinal < 0) return found;
  const auto& boxes = lanes[lane].boxes;
  for (int i = 0; i < boxes.size(); ++i) {
    if (boxes[i].operations.contains(ordinal)) found.append(i);
  }
  return found;
}

int NpuRegionLayout::laneOf(int region) const {
  for (int i = 0; i < lanes.size(); ++i) {
    if (lanes[i].region == region) return i;
  }
  return -1;
}

QString npuRegionBoxKindName(NpuRegionBoxKind kind) {
  switch (kind) {
    case NpuRegionBoxKind::FeatureMap:
      return QStringLiteral("feature map");
    case NpuRegionBoxKind::Input:
      return QStringLiteral("operator input");
    case NpuRegionBoxKind::Output:
      return QStringLiteral("operator output");
    case NpuRegionBoxKind::DmaCopy:
      return QStringLiteral("DMA copy");
    case NpuRegionBoxKind::Weights:
      return QStringLiteral("weights");
    case NpuRegionBoxKind::Scales:
      return QStringLiteral("bias and scales");
    case NpuRegionBoxKind::LookupTable:
      return QStringLiteral("lookup table");
    case NpuRegionBoxKind::ConstantOperand:
      return QStringLiteral("constant operand");
    case NpuRegionBoxKind::Copied:
      return QStringLiteral("copied, unread");
    case NpuRegionBoxKind::Unused:
      return QStringLiteral("unused");
  }
  return {};
}

NpuRegionLayout npuRegionLayout(const ir::Graph& graph, int operatorIndex) {
  NpuRegionLayout layout;
  layout.operatorIndex = operatorIndex;
  if (!isEthosUOperator(graph, operatorIndex)) {
    layout.error = QStringLiteral("operator %1 is not an ethos-u operator").arg(operatorIndex);
    return layout;
  }
  EthosURegionMap map;
  try {
    map = analysis::ethosuRegionMapOf(graph,
                                      graph.operators[static_cast<std::size_t>(operatorIndex)]);
  } catch (const std::exception& error) {
    layout.error = QString::fromUtf8(error.what());
    return layout;
  }
  layout.operationCount = map.operationCount;
  for (const std::string& label : map.operationLabels) {
    layout.operationLabels << QString::fromStdString(label);
  }
  for (const std::string& problem : map.problems)
    layout.problems << QString::fromStdString(problem);
  layout.unusedFlashBytes = static_cast<qint64>(map.unusedFlashBytes());
  const int lastOperation = std::max(map.operationCount - 1, 0);

  for (const analysis::EthosURegionInfo& info : map.regions) {
    // A region nothing uses and nobody gave a size is no lane.
    if (info.accesses == 0 && info.size == 0) continue;
    NpuRegionLane lane;
    lane.region = info.region;
    lane.name = QString::fromStdString(info.name);
    lane.size = static_cast<qint64>(info.size);
    lane.highest = static_cast<qint64>(info.highest);
    lane.written = info.written;
    if (info.region == analysis::kEthosUFlashRegion) {
      for (const analysis::EthosUFlashRange& r : map.flash) {
        NpuRegionBox box;
        box.kind = regionLayoutFlashKind(r.content);
        box.begin = static_cast<qint64>(r.begin);
        box.end = static_cast<qint64>(r.end);
        if (r.content == analysis::EthosUFlashContent::Unused) {
          box.firstOperation = 0;
          box.lastOperation = lastOperation;
          box.label = QStringLiteral("unused");
          box.detail = QStringLiteral("no command reads these bytes");
          lane.boxes.append(box);
          continue;
        }
        box.firstOperation = map.operationCount;
        box.lastOperation = 0;
        QStringList lines;
        for (int index : r.accesses) {
          const EthosURegionAccess& a = map.accesses[static_cast<std::size_t>(index)];
          // Copied weights are read from flash by their DMA, used by the operation.
          const int from = a.viaDma >= 0 ? a.viaDma : a.operation;
          box.firstOperation = std::min(box.firstOperation, from);
          box.lastOperation = std::max(box.lastOperation, a.operation);
          regionLayoutAddOperation(box, a.operation);
          if (a.viaDma >= 0) regionLayoutAddOperation(box, a.viaDma);
          lines << regionLayoutAccessLine(map, a);
        }
        const QString user = regionLayoutShortLabel(map, r.operations.front());
        box.label = npuRegionBoxKindName(box.kind) + QLatin1Char(' ') + user;
        box.detail = lines.join(QLatin1Char('\n'));
        lane.boxes.append(box);
      }
    } else {
      for (const analysis::EthosUBuffer& b : map.buffers) {
        if (b.region != info.region) continue;
        NpuRegionBox box;
        box.begin = static_cast<qint64>(b.begin);
        box.end = static_cast<qint64>(b.end);
        box.firstOperation = b.firstOperation;
        box.lastOperation = b.lastOperation;
        box.tensor = QString::fromStdString(b.tensor);
        QStringList lines;
        for (int index : b.accesses) {
          const EthosURegionAccess& a = map.accesses[static_cast<std::size_t>(index)];
          regionLayoutAddOperation(box, a.operation);
          lines << regionLayoutAccessLine(map, a);
        }
        const QString first = regionLayoutShortLabel(map, b.firstOperation);
        switch (b.kind) {
          case analysis::EthosUBufferKind::StreamInput:
            box.kind = NpuRegionBoxKind::Input;
            box.label =
                box.tensor.isEmpty() ? QStringLiteral("input") : shortTensorName(b.tensor, 16);
            break;
          case analysis::EthosUBufferKind::DmaCopy:
            box.kind = NpuRegionBoxKind::DmaCopy;
            box.label = QStringLiteral("DMA ") + first;
            break;
          case analysis::EthosUBufferKind::FeatureMap:
            box.kind = b.liveAtEnd ? NpuRegionBoxKind::Output : NpuRegionBoxKind::FeatureMap;
            box.label = b.liveAtEnd && !box.tensor.isEmpty() ? shortTensorName(b.tensor, 16)
                                                             : QStringLiteral("OFM ") + first;
            break;
        }
        if (b.liveAtEnd) lines << QStringLiteral("left for the CPU at the end of the stream");
        box.detail = lines.join(QLatin1Char('\n'));
        lane.boxes.append(box);
      }
    }
    layout.lanes.append(lane);
  }
  return layout;
}

}  // namespace loupe::models
