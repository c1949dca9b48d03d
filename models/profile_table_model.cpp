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
      case PeakColumn:
        return run_->percentOfPeak(row).value_or(-1.0);
      default:
        break;
    }
  }
  if (role == Qt::ToolTipRole && index.column() == PeakColumn) {
    if (const auto percent = run_->percentOfPeak(row)) {
      return tr("%1 MACs per instruction of the core's %2")
          .arg(static_cast<double>(row.time.macs) / row.time.time, 0, 'f', 2)
          .arg(run_->profilePeak(), 0, 'f', 0);
    }
    return row.time.npu ? tr("the NPU runs it: no CPU peak applies")
                        : tr("no multiply-accumulates (a pool's and a SOFTMAX's MACs are "
                             "sums), or no peak known for this platform");
  }
  if (role == Qt::ToolTipRole && index.column() == OperatorColumn) {
    return QString::fromStdString(row.time.name);
  }
  if (role == Qt::ToolTipRole && index.column() == TypeColumn) {
    return QString::fromStdString(row.time.type);
  }
  if (role != Qt::DisplayRole && role != SortRole) return {};
  switch (index.column()) {
    case OperatorColumn:
      return callOperatorsText(row);
    case TypeColumn:
      return callTypeText(row);
    case TimeColumn:
      return groupedNumber(static_cast<std::int64_t>(row.time.time));
    case MacsColumn:
      return groupedNumber(row.time.macs);
    case PercentColumn:
      return QStringLiteral("%1 %").arg(percent, 0, 'f', 1);
    case PeakColumn: {
      const auto ofPeak = run_->percentOfPeak(row);
      return ofPeak ? QStringLiteral("%1 %").arg(*ofPeak, 0, 'f', 1) : QString();
    }
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
    case PeakColumn:
      return tr("% of peak");
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

QString ProfileTableModel::callOperatorsText(const ProfileRow& row) {
  const auto& ops = row.modelOperators;
  if (ops.isEmpty()) return QString::fromStdString(row.time.name);
  if (ops.size() > 3) return tr("op %1\u2026%2").arg(ops.front()).arg(ops.back());
  QStringList numbers;
  for (int m : ops) numbers << QString::number(m);
  return tr("op %1").arg(numbers.join(QStringLiteral("+")));
}

QString ProfileTableModel::callTypeText(const ProfileRow& row) {
  const QString type = QString::fromStdString(row.time.type);
  const qsizetype operators = type.count(u'+') + 1;
  return operators > 1 ? tr("region of %1 operators").arg(operators) : type;
}

}  // namespace loupe::models
