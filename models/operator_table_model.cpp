#include "models/operator_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFontDatabase>

#include "models/display_text.h"
#include "models/model_document.h"

namespace loupe::models {

namespace {

// Activation operands only: weights and biases are counted in the parameter
// bytes column and listed in the tool tip and the Properties view.
QString operandTypes(const ir::Graph& graph, const std::vector<int>& tensors, bool constants) {
  QStringList parts;
  for (int index : tensors) {
    if (index == ir::kNoTensor) continue;
    const auto& tensor = graph.tensor(index);
    if (tensor.isConstant == constants) parts << tensorShapeText(tensor);
  }
  return parts.join(QStringLiteral(", "));
}

}  // namespace

OperatorTableModel::OperatorTableModel(const ModelDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
  connect(document_, &ModelDocument::modelLoaded, this, [this] {
    beginResetModel();
    endResetModel();
  });
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : document_->operatorCount();
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const int row = index.row();
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return displayValue(row, column);
    case SortRole:
      return sortValue(row, column);
    case OperatorIndexRole:
      return row;
    case Qt::ToolTipRole:
      return toolTip(row, column);
    case Qt::TextAlignmentRole:
      switch (column) {
        case IndexColumn:
        case MacsColumn:
        case ParameterBytesColumn:
        case OutputBytesColumn:
          return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case SupportedColumn:
          return QVariant(Qt::AlignCenter);
        default:
          return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
      }
    case Qt::FontRole:
      if (column == InputsColumn || column == OutputsColumn) {
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
      }
      return {};
    case Qt::ForegroundRole:
      if (column == SupportedColumn) {
        return QBrush(document_->unsupportedReason(row).isEmpty() ? QColor(0x1b, 0x7f, 0x3b)
                                                                  : QColor(0xb3, 0x26, 0x1e));
      }
      return {};
    default:
      return {};
  }
}

QVariant OperatorTableModel::displayValue(int row, int column) const {
  const auto& graph = document_->graph();
  const auto& op = graph.operators[static_cast<std::size_t>(row)];
  const auto& cost = document_->operatorCost(row);
  switch (column) {
    case IndexColumn:
      return row;
    case TypeColumn:
      return QString::fromStdString(op.typeName());
    case InputsColumn:
      return operandTypes(graph, op.inputs, false);
    case OutputsColumn:
      return operandTypes(graph, op.outputs, false);
    case MacsColumn:
      return groupedNumber(cost.macs);
    case ParameterBytesColumn:
      return groupedNumber(cost.parameterBytes);
    case OutputBytesColumn:
      return groupedNumber(cost.outputBytes);
    case SupportedColumn:
      return document_->unsupportedReason(row).isEmpty() ? tr("yes") : tr("no");
    default:
      return {};
  }
}

QVariant OperatorTableModel::sortValue(int row, int column) const {
  const auto& cost = document_->operatorCost(row);
  switch (column) {
    case IndexColumn:
      return row;
    case MacsColumn:
      return static_cast<qlonglong>(cost.macs);
    case ParameterBytesColumn:
      return static_cast<qlonglong>(cost.parameterBytes);
    case OutputBytesColumn:
      return static_cast<qlonglong>(cost.outputBytes);
    default:
      return displayValue(row, column);
  }
}

QString OperatorTableModel::toolTip(int row, int column) const {
  const auto& graph = document_->graph();
  const auto& op = graph.operators[static_cast<std::size_t>(row)];
  switch (column) {
    case InputsColumn: {
      QString text = tr("Inputs: %1").arg(operandTypes(graph, op.inputs, false));
      const QString constants = operandTypes(graph, op.inputs, true);
      if (!constants.isEmpty()) text += u'\n' + tr("Constant operands: %1").arg(constants);
      return text;
    }
    case OutputsColumn:
      return tr("Outputs: %1").arg(operandTypes(graph, op.outputs, false));
    case SupportedColumn: {
      const QString reason = document_->unsupportedReason(row);
      return reason.isEmpty() ? tr("The reference interpreter can run this operator") : reason;
    }
    default:
      return {};
  }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case IndexColumn:
        return tr("#");
      case TypeColumn:
        return tr("Operator");
      case InputsColumn:
        return tr("Inputs");
      case OutputsColumn:
        return tr("\u2192 Outputs");
      case MacsColumn:
        return tr("MACs");
      case ParameterBytesColumn:
        return tr("Param bytes");
      case OutputBytesColumn:
        return tr("Output bytes");
      case SupportedColumn:
        return tr("Supported");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case IndexColumn:
        return tr("Position in execution order");
      case InputsColumn:
        return tr("Non-constant input tensors: dtype[shape]");
      case OutputsColumn:
        return tr("Output tensors: dtype[shape]");
      case MacsColumn:
        return tr("Multiply-accumulates");
      case ParameterBytesColumn:
        return tr("Bytes of constant operands (weights, biases, shapes)");
      case OutputBytesColumn:
        return tr("Bytes the operator writes");
      case SupportedColumn:
        return tr("Whether Loupe's reference interpreter can run it");
      default:
        return {};
    }
  }
  return {};
}

}  // namespace loupe::models
