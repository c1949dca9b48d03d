// The Device Mapping view's totals: one row per device the targets use, in
// the target list's order - the device (the member of the generated struct
// tvmgen_<name>_devices, "host" for the CPU), the target's display name, its
// operators, MACs and estimated cycles, or "no cycle model" for a target
// without one. The numbers `loupec compile` prints under "devices:".
#pragma once

#include <QAbstractTableModel>

namespace loupe::models {

class ModelCompilation;

class DeviceTotalsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    DeviceColumn,
    TargetColumn,
    OperatorsColumn,
    MacsColumn,
    EstimatedCyclesColumn,
    ColumnCount,
  };

  explicit DeviceTotalsModel(const ModelCompilation* compilation, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const ModelCompilation* compilation_;
};

}  // namespace loupe::models
