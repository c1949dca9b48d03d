// The Command Stream view's tree: the selected Vela operator's command
// stream (NpuStreamListing) as one row per NPU operation - its summary -
// with one child row per command: word offset, the words in hex, the
// command's name and its fields by name. Follows ModelDocument's current
// operator; empty (with a reason in placeholderText()) for any other.
#pragma once

#include <QAbstractItemModel>

#include "models/npu_stream_listing.h"

namespace loupe::models {

class ModelCompilation;
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

  // With `compilation`, an operator it compiled for the Ethos-U lists the
  // command stream of its region too.
  explicit NpuCommandStreamModel(ModelDocument* document, ModelCompilation* compilation = nullptr,
                                 QObject* parent = nullptr);

  const NpuStreamListing& listing() const { return listing_; }
  // The model's ethos-u operator listed, or -1 (also while a compiled
  // region's stream is listed: its operations are no nodes of the graph).
  int operatorIndex() const { return compiledRegion_.isEmpty() ? listing_.operatorIndex : -1; }
  // For a compiled region's stream, what it is: "ops 0+1+…+11 compiled for
  // the Ethos-U"; empty for a Vela operator's.
  QString compiledRegion() const { return compiledRegion_; }
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
  // The compiled region's stream of model operator `operatorIndex`, if any.
  bool showCompiledRegion(int operatorIndex);

  ModelDocument* document_;
  ModelCompilation* compilation_;
  int shownOperator_ = -1;  // the model operator whose stream is listed
  NpuStreamListing listing_;
  QString compiledRegion_;
  QString placeholder_;
};

}  // namespace loupe::models
