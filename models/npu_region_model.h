// The NPU Regions view's data: the selected Vela operator's region layout
// (NpuRegionLayout) and a table of its boxes, one row each: region, what
// it holds, its bytes and the NPU operations that read or write it. Follows
// ModelDocument's current operator (empty, with a reason in
// placeholderText(), for any other than an ethos-u one) and marks the rows
// of the NPU operation selected (NpuOperationSelection).
#pragma once

#include <QAbstractTableModel>

#include "models/npu_region_layout.h"

namespace loupe::models {

class ModelDocument;
class NpuOperationSelection;

class NpuRegionModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    RegionColumn,
    KindColumn,
    OperationsColumn,
    SizeColumn,
    BeginColumn,
    NameColumn,
    ColumnCount
  };
  enum Role {
    LaneRole = Qt::UserRole + 1,  // int: the row's lane in layout().lanes
    BoxRole,                      // int: its box in the lane
    SelectedRole,                 // bool: the selected NPU operation reads or writes it
    FirstOperationRole,           // int: the ordinal the box's lifetime starts at
  };

  NpuRegionModel(ModelDocument* document, NpuOperationSelection* selection,
                 QObject* parent = nullptr);

  const NpuRegionLayout& layout() const { return layout_; }
  int operatorIndex() const { return layout_.operatorIndex; }
  // The selected NPU operation (ordinal) of this operator, or -1.
  int selectedOperation() const;
  QString placeholderText() const { return placeholder_; }
  // The row of box `box` of lane `lane`, or -1.
  int rowOf(int lane, int box) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 signals:
  // The selected operation changed (the rows' SelectedRole with it).
  void selectionShown(int operation);

 private:
  void showOperator(int operatorIndex);
  void showSelection();

  ModelDocument* document_;
  NpuOperationSelection* selection_;
  NpuRegionLayout layout_;
  QList<QPair<int, int>> rows_;  // (lane, box)
  QString placeholder_;
};

}  // namespace loupe::models
