#include "models/device_operator_table_model.h"

#include <QStringList>

#include "models/device_mapping.h"
#include "models/display_text.h"
#include "models/model_compilation.h"

namespace loupe::models {

namespace {

// What a cell shows where the target has no number (no cycle model, no weights).
const QString kNone = QStringLiteral("\u2013");

QString operatorsText(const QList<int>& operators) {
  QStringList parts;
  for (int op : operators) parts.append(QString::number(op));
  return parts.join(u'+');
}

}  // namespace

DeviceOperatorTableModel::DeviceOperatorTableModel(const ModelCompilation* compilation,
                                                   QObject* parent)
    : QAbstractTableModel(parent), compilation_(compilation) {
  auto reset = [this] {
    beginResetModel();
    endResetModel();
  };
  connect(compilation_, &ModelCompilation::compiled, this, reset);
  connect(compilation_, &ModelCompilation::compilationFailed, this, reset);
}

const DeviceMapping& DeviceOperatorTableModel::mapping() const {
  return compilation_->deviceMapping();
}

int DeviceOperatorTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(mapping().operators.size());
}

int DeviceOperatorTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

bool DeviceOperatorTableModel::hasRefusal(int row) const {
  const DeviceOperatorRow& r = mapping().operators.at(row);
  return !r.estimate && !r.rejections.isEmpty();
}

int DeviceOperatorTableModel::rowOfOperator(int modelOperator) const {
  return mapping().rowOfModelOperator.value(modelOperator, -1);
}

QVariant DeviceOperatorTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const DeviceOperatorRow& row = mapping().operators[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return displayValue(index.row(), index.column());
    case SortRole:
      return sortValue(index.row(), index.column());
    case OperatorIndexRole:
      return row.modelOperators.value(0, -1);
    case RejectionsRole:
      return row.rejections;
    case Qt::ToolTipRole:
      if (index.column() >= DeviceColumn) {
        return row.rejections.isEmpty()
                   ? row.targetDisplayName
                   : tr("%1\nrefused by\n%2")
                         .arg(row.targetDisplayName, row.rejections.join(QStringLiteral("\n")));
      }
      if (index.column() == OperatorColumn && row.modelOperators.size() > 1) {
        return tr("fused from model operators %1").arg(operatorsText(row.modelOperators));
      }
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == ComputeCyclesColumn && hasRefusal(index.row())) {
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
      }
      if (index.column() >= MacsColumn && index.column() <= WeightsColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
      return {};
  }
}

QVariant DeviceOperatorTableModel::displayValue(int r, int column) const {
  const DeviceOperatorRow& row = mapping().operators[r];
  const std::optional<target::OperatorEstimate>& e = row.estimate;
  switch (column) {
    case OperatorColumn:
      return operatorsText(row.modelOperators);
    case TypeColumn:
      return row.type;
    case DeviceColumn:
      return row.device.isEmpty() ? tr("none") : row.device;
    case TargetColumn:
      return row.target;
    case RegionColumn:
      return row.region.isEmpty() ? tr("main") : row.region;
    case MacsColumn:
      return groupedNumber(row.macs);
    case ComputeCyclesColumn:
      if (hasRefusal(r)) {
        return tr("refused by %1").arg(row.rejections.join(QStringLiteral("; ")));
      }
      return e ? groupedNumber(e->computeCycles) : kNone;
    case MemoryCyclesColumn:
      return e ? groupedNumber(e->memoryCycles) : kNone;
    case EstimatedCyclesColumn:
      return e ? groupedNumber(e->estimatedCycles) : kNone;
    case UtilizationColumn:
      return e ? utilizationText(e->utilization) : kNone;
    case WeightsColumn:
      return e && e->rawWeightBytes > 0 ? encodedWeightsText(*e) : kNone;
    default:
      return {};
  }
}

QVariant DeviceOperatorTableModel::sortValue(int r, int column) const {
  const DeviceOperatorRow& row = mapping().operators[r];
  const std::optional<target::OperatorEstimate>& e = row.estimate;
  switch (column) {
    case OperatorColumn:
      return row.modelOperators.value(0, -1);
    case MacsColumn:
      return row.macs;
    case ComputeCyclesColumn:
      return e ? static_cast<qint64>(e->computeCycles) : qint64{-1};
    case MemoryCyclesColumn:
      return e ? static_cast<qint64>(e->memoryCycles) : qint64{-1};
    case EstimatedCyclesColumn:
      return e ? static_cast<qint64>(e->estimatedCycles) : qint64{-1};
    case UtilizationColumn:
      return e ? e->utilization : -1.0;
    case WeightsColumn:
      return e ? static_cast<qint64>(e->encodedWeightBytes) : qint64{-1};
    default:
      return displayValue(r, column);
  }
}

QVariant DeviceOperatorTableModel::headerData(int section, Qt::Orientation orientation,
                                              int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case OperatorColumn:
        return tr("The model operator(s), as the Operators table numbers them");
      case DeviceColumn:
        return tr(
            "The member of struct tvmgen_<name>_devices the call gets (host: the CPU), "
            "and the target");
      case RegionColumn:
        return tr("The external function the operator belongs to; main for the CPU");
      case EstimatedCyclesColumn:
        return tr("The larger of compute and memory cycles (the units overlap them)");
      case UtilizationColumn:
        return tr("Ideal MAC cycles / estimated cycles");
      case WeightsColumn:
        return tr(
            "Weight bytes as the NPU reads them (encoded, with its scale records) / as the model "
            "stores them");
      case ComputeCyclesColumn:
        return tr("Cycles of the target's MAC array; for an operator the NPU refused, its reasons");
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case OperatorColumn:
      return tr("Op");
    case TypeColumn:
      return tr("Type");
    case DeviceColumn:
      return tr("Device");
    case TargetColumn:
      return tr("Target");
    case RegionColumn:
      return tr("Region");
    case MacsColumn:
      return tr("MACs");
    case ComputeCyclesColumn:
      return tr("Compute\ncycles");
    case MemoryCyclesColumn:
      return tr("Memory\ncycles");
    case EstimatedCyclesColumn:
      return tr("Estimated\ncycles");
    case UtilizationColumn:
      return tr("Utilisation");
    case WeightsColumn:
      return tr("Weights\nencoded / raw");
    default:
      return {};
  }
}

}  // namespace loupe::models
