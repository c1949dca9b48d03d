#include "models/npu_region_model.h"

#include <QFont>

#include "models/display_text.h"
#include "models/model_document.h"
#include "models/npu_operation_selection.h"
#include "models/npu_stream_listing.h"

namespace loupe::models {

NpuRegionModel::NpuRegionModel(ModelDocument* document, NpuOperationSelection* selection,
                               QObject* parent)
    : QAbstractTableModel(parent), document_(document), selection_(selection) {
  connect(document_, &ModelDocument::modelLoaded, this, [this] {
    layout_ = {};  // the operator index may be the same in the new model
    showOperator(document_->currentOperator());
  });
  connect(document_, &ModelDocument::currentOperatorChanged, this, &NpuRegionModel::showOperator);
  connect(selection_, &NpuOperationSelection::changed, this, &NpuRegionModel::showSelection);
  showOperator(document_->isLoaded() ? document_->currentOperator() : -1);
}

int NpuRegionModel::selectedOperation() const {
  return selection_->operatorIndex() == layout_.operatorIndex && layout_.operatorIndex >= 0
             ? selection_->operation()
             : -1;
}

void NpuRegionModel::showOperator(int operatorIndex) {
  if (document_->isLoaded() && operatorIndex == layout_.operatorIndex) return;
  beginResetModel();
  layout_ = {};
  rows_.clear();
  placeholder_.clear();
  if (!document_->isLoaded()) {
    placeholder_ = tr("No model open.");
  } else if (!isEthosUOperator(document_->graph(), operatorIndex)) {
    placeholder_ =
        tr("Select an ethos-u operator (a model compiled by Vela) to see what its command "
           "stream keeps where in the flash and the scratch.");
  } else {
    layout_ = npuRegionLayout(document_->graph(), operatorIndex);
    if (!layout_.error.isEmpty()) {
      placeholder_ = tr("The regions cannot be mapped: %1").arg(layout_.error);
    }
    for (int lane = 0; lane < layout_.lanes.size(); ++lane) {
      for (int box = 0; box < layout_.lanes[lane].boxes.size(); ++box) rows_.append({lane, box});
    }
  }
  endResetModel();
  emit selectionShown(selectedOperation());
}

void NpuRegionModel::showSelection() {
  if (!rows_.isEmpty()) {
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                     {Qt::FontRole, SelectedRole});
  }
  emit selectionShown(selectedOperation());
}

int NpuRegionModel::rowOf(int lane, int box) const {
  return static_cast<int>(rows_.indexOf(QPair<int, int>(lane, box)));
}

int NpuRegionModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int NpuRegionModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant NpuRegionModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const auto [lane, boxIndex] = rows_[index.row()];
  const NpuRegionLane& region = layout_.lanes[lane];
  const NpuRegionBox& box = region.boxes[boxIndex];
  const bool selected = box.operations.contains(selectedOperation());
  switch (role) {
    case LaneRole:
      return lane;
    case BoxRole:
      return boxIndex;
    case SelectedRole:
      return selected;
    case FirstOperationRole:
      return box.operations.isEmpty() ? -1 : box.operations.front();
    case Qt::FontRole:
      if (selected) {
        QFont font;
        font.setBold(true);
        return font;
      }
      return {};
    case Qt::ToolTipRole:
      return box.detail;
    case Qt::TextAlignmentRole:
      return index.column() == BeginColumn || index.column() == SizeColumn
                 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                 : QVariant();
    case Qt::DisplayRole:
      break;
    default:
      return {};
  }
  switch (index.column()) {
    case RegionColumn:
      return QStringLiteral("%1 %2").arg(region.region).arg(region.name);
    case KindColumn:
      return npuRegionBoxKindName(box.kind);
    case BeginColumn:
      return QStringLiteral("0x%1").arg(box.begin, 6, 16, QLatin1Char('0'));
    case SizeColumn:
      return groupedNumber(box.size());
    case OperationsColumn: {
      if (box.kind == NpuRegionBoxKind::Unused) return QString();
      // "npu 12 CONV" alone, else "npu 12 → npu 16": short enough to leave
      // the bytes in view (the tooltip names every access).
      const QString first = layout_.operationLabels.value(box.firstOperation);
      if (box.firstOperation == box.lastOperation) return first;
      return first.section(QLatin1Char(' '), 0, 1) + QStringLiteral(" \u2192 ") +
             layout_.operationLabels.value(box.lastOperation).section(QLatin1Char(' '), 0, 1);
    }
    case NameColumn:
      return box.tensor;
    default:
      return {};
  }
}

QVariant NpuRegionModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case RegionColumn:
      return tr("Region");
    case KindColumn:
      return tr("Holds");
    case BeginColumn:
      return tr("Address");
    case SizeColumn:
      return tr("Bytes");
    case OperationsColumn:
      return tr("Used from \u2192 to");
    case NameColumn:
      return tr("Tensor");
    default:
      return {};
  }
}

}  // namespace loupe::models
