#include "models/profile_table_model.h"

#include "models/board_run.h"
#include "models/display_text.h"

namespace loupe::models {

ProfileTableModel::ProfileTableModel(const BoardRun* run, QObject* parent)
    : QAbstractTableModel(parent), run_(run) {
  connect(run_, &BoardRun::profileChanged, this, [this] {
    beginResetModel();
    endResetModel();
  });
}

int ProfileTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(run_->profileRows().size());
}

int ProfileTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const ProfileRow& row = run_->profileRows()[index.row()];
  const double total = run_->profileTotal();
  const double percent = total > 0 ? 100.0 * row.time.time / total : 0.0;
  if (role == OperatorIndexRole) {
    return row.modelOperators.isEmpty() ? -1 : row.modelOperators.front();
  }
  if (role == Qt::TextAlignmentRole) {
    return index.column() >= TimeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
  }
  if (role == SortRole) {
    switch (index.column()) {
      case TimeColumn:
      case PercentColumn:
        return row.time.time;
      case MacsColumn:
        return static_cast<qlonglong>(row.time.macs);
      default:
        break;
    }
  }
  if (role == Qt::ToolTipRole && index.column() == OperatorColumn) {
    return QString::fromStdString(row.time.name);
  }
  if (role != Qt::DisplayRole && role != SortRole) return {};
  switch (index.column()) {
    case OperatorColumn: {
      QStringList ops;
      for (int m : row.modelOperators) ops << QString::number(m);
      return ops.isEmpty() ? QString::fromStdString(row.time.name)
                           : tr("op %1").arg(ops.join(QStringLiteral("+")));
    }
    case TypeColumn:
      return QString::fromStdString(row.time.type);
    case TimeColumn:
      return groupedNumber(static_cast<std::int64_t>(row.time.time));
    case MacsColumn:
      return groupedNumber(row.time.macs);
    case PercentColumn:
      return QStringLiteral("%1 %").arg(percent, 0, 'f', 1);
    default:
      return {};
  }
}

QVariant ProfileTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  const QString unit = run_->profileUnit().isEmpty() ? tr("time") : run_->profileUnit();
  switch (section) {
    case OperatorColumn:
      return tr("Operator");
    case TypeColumn:
      return tr("Type");
    case TimeColumn:
      return tr("Time (%1)").arg(unit);
    case MacsColumn:
      return tr("MACs");
    case PercentColumn:
      return tr("% of total");
    default:
      return {};
  }
}

int ProfileTableModel::rowOfOperator(int operatorIndex) const {
  const auto& rows = run_->profileRows();
  for (qsizetype i = 0; i < rows.size(); ++i) {
    if (rows[i].modelOperators.contains(operatorIndex)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace loupe::models
