// One row per operator of the open model, in execution order: its type, the
// shapes flowing in and out, its cost and whether Loupe can run it. Numeric
// columns give raw numbers under SortRole so a proxy sorts them as numbers.
#pragma once

#include <QAbstractTableModel>

namespace loupe::models {

class ModelDocument;

class OperatorTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    IndexColumn,
    TypeColumn,
    InputsColumn,
    OutputsColumn,
    MacsColumn,
    ParameterBytesColumn,
    OutputBytesColumn,
    SupportedColumn,
    ColumnCount,
  };

  enum Role {
    SortRole = Qt::UserRole + 1,  // the raw value: number, or text
    OperatorIndexRole,            // the operator's index in execution order
  };

  explicit OperatorTableModel(const ModelDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant displayValue(int row, int column) const;
  QVariant sortValue(int row, int column) const;
  QString toolTip(int row, int column) const;

  const ModelDocument* document_;
};

}  // namespace loupe::models
