// The NPU operation the user picked inside a Vela operator's command stream
// (an ethos-u operator), shared by the Graph view (its expanded NPU
// operation nodes) and the Command Stream view, so selecting it in one
// selects it in the other. ModelDocument's current operator stays the
// ethos-u operator itself; this is the finer selection inside it.
#pragma once

#include <QObject>

namespace loupe::models {

class ModelDocument;

class NpuOperationSelection : public QObject {
  Q_OBJECT

 public:
  explicit NpuOperationSelection(ModelDocument* document, QObject* parent = nullptr);

  // The ethos-u operator and the operation's ordinal in its listing
  // (NpuOperationEntry::ordinal); -1, -1 when none is selected.
  int operatorIndex() const { return operatorIndex_; }
  int operation() const { return operation_; }
  // Selects operation `operation` of ethos-u operator `operatorIndex`
  // (-1: none); emits changed() only when that is new.
  void select(int operatorIndex, int operation);
  void clear() { select(-1, -1); }

 signals:
  void changed(int operatorIndex, int operation);

 private:
  int operatorIndex_ = -1;
  int operation_ = -1;
};

}  // namespace loupe::models
