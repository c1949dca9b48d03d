// The profile of the last board run as a table: one row per operator call
// (in call order) with its type, time, MACs and share of the run.
#pragma once

#include <QAbstractTableModel>

namespace loupe::models {

class BoardRun;
struct ProfileRow;

class ProfileTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // How a call is named in the table and the chart: "op 3", "op 0…8" for a
  // region's call (an NPU region runs many operators in one call), and its
  // type, "CONV_2D" or "region of 9 operators" (the tooltip lists them).
  static QString callOperatorsText(const ProfileRow& row);
  static QString callTypeText(const ProfileRow& row);

  enum Column {
    OperatorColumn,
    TypeColumn,
    TimeColumn,
    MacsColumn,
    PeakColumn,  // % of the core's MAC peak, blank where there is none
    PercentColumn,
    ColumnCount
  };
  // The first imported-model operator of the row (what selecting it selects).
  enum Role { OperatorIndexRole = Qt::UserRole + 1, SortRole };

  explicit ProfileTableModel(const BoardRun* run, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // The first row that implements imported operator `operatorIndex`, or -1.
  int rowOfOperator(int operatorIndex) const;

 private:
  const BoardRun* run_;
};

}  // namespace loupe::models
