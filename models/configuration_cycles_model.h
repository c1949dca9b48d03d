// The Device Mapping view's sweep: the estimated cycles of every operator the
// Ethos-U runs, in each of its accelerator configurations (ethos-u55-32 ...
// ethos-u65-256, each region compiled again for it), one column each, and a
// total row - so the user sees what a bigger or smaller NPU would cost
// before choosing one. The numbers of
// target::estimatesAcrossConfigurations, as `loupec compile --report` prints.
#pragma once

#include <QAbstractTableModel>
#include <QList>

namespace loupe::models {

class ModelCompilation;

class ConfigurationCyclesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role { OperatorIndexRole = Qt::UserRole + 1 };  // -1 on the total row (row 0)
  // Columns: operator, type, then one per configuration.
  static constexpr int kFirstConfigurationColumn = 2;

  explicit ConfigurationCyclesModel(const ModelCompilation* compilation, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // The total of configuration column `configuration` (0 = the smallest).
  qint64 total(int configuration) const;

 private:
  void rebuild();

  const ModelCompilation* compilation_;
  QList<int> rows_;  // DeviceMapping::operators rows the target runs
};

}  // namespace loupe::models
