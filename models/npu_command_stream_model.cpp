#include "models/npu_command_stream_model.h"

#include <QFont>

#include "models/model_compilation.h"
#include "models/model_document.h"

namespace loupe::models {

namespace {

// internalId of an operation's row; a command's is its operation's row + 1.
constexpr quintptr kOperationRow = 0;

}  // namespace

NpuCommandStreamModel::NpuCommandStreamModel(ModelDocument* document, ModelCompilation* compilation,
                                             QObject* parent)
    : QAbstractItemModel(parent), document_(document), compilation_(compilation) {
  const auto relist = [this] {
    shownOperator_ = -1;  // the operator index may be the same in the new model or compilation
    showOperator(document_->currentOperator());
  };
  connect(document_, &ModelDocument::modelLoaded, this, relist);
  if (compilation_ != nullptr) {
    connect(compilation_, &ModelCompilation::compiled, this, relist);
    connect(compilation_, &ModelCompilation::compilationStarted, this, relist);
  }
  connect(document_, &ModelDocument::currentOperatorChanged, this,
          &NpuCommandStreamModel::showOperator);
  showOperator(document_->isLoaded() ? document_->currentOperator() : -1);
}

bool NpuCommandStreamModel::showCompiledRegion(int operatorIndex) {
  if (compilation_ == nullptr || compilation_->state() != ModelCompilation::State::Compiled) {
    return false;
  }
  const DeviceOperatorRow* row = compilation_->deviceMapping().rowFor(operatorIndex);
  if (row == nullptr || !row->npuStream) return false;
  listing_ = *row->npuStream;
  const QList<int>& ops = row->modelOperators;
  const bool consecutive = !ops.isEmpty() && ops.back() - ops.front() == ops.size() - 1;
  QStringList numbers;
  for (int m : ops) numbers << QString::number(m);
  compiledRegion_ =
      tr("%1 (ops %2) compiled by Loupe")
          .arg(row->region, consecutive && ops.size() > 2
                                ? QStringLiteral("%1\u2013%2").arg(ops.front()).arg(ops.back())
                                : numbers.join(u'+'));
  return true;
}

void NpuCommandStreamModel::showOperator(int operatorIndex) {
  if (document_->isLoaded() && operatorIndex == shownOperator_) return;
  beginResetModel();
  shownOperator_ = operatorIndex;
  listing_ = {};
  compiledRegion_.clear();
  placeholder_.clear();
  if (!document_->isLoaded()) {
    placeholder_ = tr("No model open.");
  } else if (isEthosUOperator(document_->graph(), operatorIndex)) {
    listing_ = npuStreamListing(document_->graph(), operatorIndex, true);
  } else if (!showCompiledRegion(operatorIndex)) {
    placeholder_ =
        tr("Select an ethos-u operator (a model compiled by Vela), or an operator compiled for "
           "the Ethos-U (Target: Ethos-U), to list its Ethos-U command stream.");
  }
  if (!listing_.error.isEmpty()) {
    placeholder_ = tr("The command stream cannot be listed: %1").arg(listing_.error);
  }
  endResetModel();
}

QModelIndex NpuCommandStreamModel::indexOfOperation(int ordinal) const {
  if (ordinal < 0 || ordinal >= listing_.operations.size()) return {};
  return index(ordinal, 0);
}

QModelIndex NpuCommandStreamModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) {
    return row < listing_.operations.size() ? createIndex(row, column, kOperationRow)
                                            : QModelIndex();
  }
  if (parent.internalId() != kOperationRow) return {};  // commands have no children
  if (row >= listing_.operations[parent.row()].commands.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex NpuCommandStreamModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kOperationRow) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, kOperationRow);
}

int NpuCommandStreamModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(listing_.operations.size());
  if (parent.internalId() != kOperationRow || parent.column() != 0) return 0;
  return static_cast<int>(listing_.operations[parent.row()].commands.size());
}

int NpuCommandStreamModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

QVariant NpuCommandStreamModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const bool isOperation = index.internalId() == kOperationRow;
  const int ordinal = isOperation ? index.row() : static_cast<int>(index.internalId() - 1);
  const NpuOperationEntry& op = listing_.operations[ordinal];
  if (role == OperationRole) return ordinal;
  if (role == IsOperationRole) return isOperation;
  if (isOperation) {
    switch (role) {
      case Qt::DisplayRole:
        // One line across the columns (the view spans it).
        return index.column() == 0 ? op.summary() : QVariant();
      case Qt::ToolTipRole:
        return tr("%1\nwords %2 to %3 of command stream %4\n%5 MACs")
            .arg(op.summary())
            .arg(op.firstWord)
            .arg(op.endWord - 1)
            .arg(op.stream)
            .arg(op.macs);
      case Qt::FontRole: {
        QFont font;
        font.setBold(true);
        return font;
      }
      case WordCountRole:
        return 0;
      default:
        return {};
    }
  }
  const NpuCommandLine& command = op.commands[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case OffsetColumn:
          return command.offset;
        case WordsColumn:
          return command.words.join(QLatin1Char(' '));
        case CommandColumn:
          return command.command;
        case FieldsColumn:
          return command.fields;
        default:
          return {};
      }
    case Qt::TextAlignmentRole:
      return index.column() == OffsetColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant();
    case Qt::ToolTipRole:
      return command.command + QLatin1Char('\n') + command.fields;
    case WordCountRole:
      return static_cast<int>(command.words.size());
    default:
      return {};
  }
}

QVariant NpuCommandStreamModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case OffsetColumn:
      return tr("Offset");
    case WordsColumn:
      return tr("Words");
    case CommandColumn:
      return tr("Command");
    case FieldsColumn:
      return tr("Fields");
    default:
      return {};
  }
}

}  // namespace loupe::models
