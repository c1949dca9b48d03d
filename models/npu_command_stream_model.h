// The Command Stream view's tree: the selected Vela operator's command
// stream (NpuStreamListing) as one row per NPU operation - its summary -
// with one child row per command: word offset, the words in hex, the
// command's name and its fields by name. Follows ModelDocument's current
// operator; empty (with a reason in placeholderText()) for any other.
#pragma once

#include <QAbstractItemModel>

#include "models/npu_stream_listing.h"

namespace loupe::models {

class ModelDocument;

class NpuCommandStreamModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { OffsetColumn, WordsColumn, CommandColumn, FieldsColumn, ColumnCount };
  enum Role {
    OperationRole = Qt::UserRole + 1,  // int: the operation's ordinal (its row and its commands)
    WordCountRole,                     // int: a command's words (1 or 2); 0 on operation rows
    IsOperationRole,                   // bool: an operation's row
  };

  explicit NpuCommandStreamModel(ModelDocument* document, QObject* parent = nullptr);

  const NpuStreamListing& listing() const { return listing_; }
  // The ethos-u operator listed, or -1.
  int operatorIndex() const { return listing_.operatorIndex; }
  // What the view says while no stream is listed.
  QString placeholderText() const { return placeholder_; }
  // The row of operation `ordinal`, or an invalid index.
  QModelIndex indexOfOperation(int ordinal) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  void showOperator(int operatorIndex);

  ModelDocument* document_;
  NpuStreamListing listing_;
  QString placeholder_;
};

}  // namespace loupe::models
