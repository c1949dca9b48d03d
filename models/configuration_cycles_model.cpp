#include "models/configuration_cycles_model.h"

#include <QFont>

#include "models/device_mapping.h"
#include "models/display_text.h"
#include "models/model_compilation.h"

namespace loupe::models {

ConfigurationCyclesModel::ConfigurationCyclesModel(const ModelCompilation* compilation,
                                                   QObject* parent)
    : QAbstractTableModel(parent), compilation_(compilation) {
  connect(compilation_, &ModelCompilation::compiled, this, &ConfigurationCyclesModel::rebuild);
  connect(compilation_, &ModelCompilation::compilationFailed, this,
          &ConfigurationCyclesModel::rebuild);
}

void ConfigurationCyclesModel::rebuild() {
  beginResetModel();
  rows_.clear();
  const DeviceMapping& mapping = compilation_->deviceMapping();
  if (!mapping.configurations.isEmpty()) {
    const auto& first = mapping.configurations.front().cyclesByRow;
    for (int r = 0; r < first.size(); ++r) {
      if (first[r]) rows_.append(r);
    }
  }
  endResetModel();
}

int ConfigurationCyclesModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || compilation_->deviceMapping().configurations.isEmpty()) return 0;
  return static_cast<int>(rows_.size()) + 1;  // the total row, first
}

int ConfigurationCyclesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid()
             ? 0
             : kFirstConfigurationColumn +
                   static_cast<int>(compilation_->deviceMapping().configurations.size());
}

qint64 ConfigurationCyclesModel::total(int configuration) const {
  const auto& configurations = compilation_->deviceMapping().configurations;
  return configuration >= 0 && configuration < configurations.size()
             ? configurations[configuration].total
             : 0;
}

QVariant ConfigurationCyclesModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const DeviceMapping& mapping = compilation_->deviceMapping();
  // The total first, where it stays in sight however long the list.
  const bool totalRow = index.row() == 0;
  const int mappingRow = totalRow ? -1 : rows_[index.row() - 1];
  const int configuration = index.column() - kFirstConfigurationColumn;
  if (role == OperatorIndexRole) {
    return totalRow ? -1 : mapping.operators[mappingRow].modelOperators.value(0, -1);
  }
  if (role == Qt::TextAlignmentRole) {
    return configuration >= 0 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  }
  if (role == Qt::FontRole && totalRow) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role != Qt::DisplayRole) return {};
  if (configuration >= 0) {
    if (totalRow) return groupedNumber(total(configuration));
    const auto& cycles = mapping.configurations[configuration].cyclesByRow[mappingRow];
    return cycles ? groupedNumber(*cycles) : QStringLiteral("\u2013");
  }
  if (totalRow) return index.column() == 0 ? tr("total") : QVariant();
  const DeviceOperatorRow& row = mapping.operators[mappingRow];
  if (index.column() == 0) return QString::number(row.modelOperators.value(0, -1));
  return row.type;
}

QVariant ConfigurationCyclesModel::headerData(int section, Qt::Orientation orientation,
                                              int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return tr("Op");
  if (section == 1) return tr("Type");
  const auto& configurations = compilation_->deviceMapping().configurations;
  const int configuration = section - kFirstConfigurationColumn;
  return configuration < configurations.size() ? configurations[configuration].label : QVariant();
}

}  // namespace loupe::models
