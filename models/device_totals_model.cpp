#include "models/device_totals_model.h"

#include "models/device_mapping.h"
#include "models/display_text.h"
#include "models/model_compilation.h"

namespace loupe::models {

DeviceTotalsModel::DeviceTotalsModel(const ModelCompilation* compilation, QObject* parent)
    : QAbstractTableModel(parent), compilation_(compilation) {
  auto reset = [this] {
    beginResetModel();
    endResetModel();
  };
  connect(compilation_, &ModelCompilation::compiled, this, reset);
  connect(compilation_, &ModelCompilation::compilationFailed, this, reset);
}

int DeviceTotalsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(compilation_->deviceMapping().devices.size());
}

int DeviceTotalsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeviceTotalsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const DeviceTotalsRow& row = compilation_->deviceMapping().devices[index.row()];
  if (role == Qt::TextAlignmentRole) {
    return index.column() >= OperatorsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                             : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole && index.column() == TargetColumn) return row.target;
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case DeviceColumn:
      return row.device;
    case TargetColumn:
      return row.displayName;
    case OperatorsColumn:
      return row.operators;
    case MacsColumn:
      return groupedNumber(row.macs);
    case EstimatedCyclesColumn:
      return row.estimatedCycles ? groupedNumber(*row.estimatedCycles) : tr("no cycle model");
    default:
      return {};
  }
}

QVariant DeviceTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case DeviceColumn:
      return tr("Device");
    case TargetColumn:
      return tr("Target");
    case OperatorsColumn:
      return tr("Operators");
    case MacsColumn:
      return tr("MACs");
    case EstimatedCyclesColumn:
      return tr("Estimated cycles");
    default:
      return {};
  }
}

}  // namespace loupe::models
