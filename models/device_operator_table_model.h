// The Device Mapping view's operator table: one row per operator of the
// partitioned graph - where it runs (device and target), its region, MACs,
// its target's estimate (compute, memory and estimated cycles, utilisation,
// encoded and raw weight bytes) or, for an operator the NPU refused, its
// reasons in place of the estimate (the view spans them over those columns;
// hasRefusal() says which rows). The numbers are target::deviceReport's, as `loupec compile
// --report` prints them. Numeric columns give raw numbers under SortRole.
#pragma once

#include <QAbstractTableModel>

namespace loupe::models {

class ModelCompilation;
struct DeviceMapping;

class DeviceOperatorTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    OperatorColumn,
    TypeColumn,
    DeviceColumn,
    TargetColumn,
    RegionColumn,
    MacsColumn,
    ComputeCyclesColumn,
    MemoryCyclesColumn,
    EstimatedCyclesColumn,
    UtilizationColumn,
    WeightsColumn,
    ColumnCount,
  };

  enum Role {
    SortRole = Qt::UserRole + 1,  // the raw value: number, or text
    OperatorIndexRole,            // the first imported operator of the row
    RejectionsRole,               // QStringList: "npu: stride 4 exceeds 3", one per reason
  };

  explicit DeviceOperatorTableModel(const ModelCompilation* compilation, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // Whether `row` shows the NPU's reasons in place of an estimate, from
  // ComputeCyclesColumn to WeightsColumn.
  bool hasRefusal(int row) const;

  // The row of imported operator `modelOperator`, or -1.
  int rowOfOperator(int modelOperator) const;

 private:
  const DeviceMapping& mapping() const;
  QVariant displayValue(int row, int column) const;
  QVariant sortValue(int row, int column) const;

  const ModelCompilation* compilation_;
};

}  // namespace loupe::models
