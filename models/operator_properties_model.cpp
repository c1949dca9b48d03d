#include "models/operator_properties_model.h"

#include <QFont>
#include <algorithm>

#include "ir/graph_printer.h"
#include "models/device_mapping.h"
#include "models/display_text.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/operator_attribute_fields.h"

namespace loupe::models {

namespace {

QList<QStandardItem*> row(const QString& property, const QString& value,
                          const QString& toolTip = {}) {
  auto* name = new QStandardItem(property);
  auto* text = new QStandardItem(value);
  name->setEditable(false);
  text->setEditable(false);
  text->setToolTip(toolTip.isEmpty() ? value : toolTip);
  return {name, text};
}

QStandardItem* section(QStandardItemModel* model, const QString& title,
                       const QString& summary = {}) {
  auto items = row(title, summary);
  QFont bold = items[0]->font();
  bold.setBold(true);
  items[0]->setFont(bold);
  model->appendRow(items);
  return items[0];
}

QString floatText(float value) {
  return QString::number(static_cast<double>(value), 'g', 9);
}

}  // namespace

OperatorPropertiesModel::OperatorPropertiesModel(const ModelDocument* document, QObject* parent)
    : QStandardItemModel(parent), document_(document) {
  setHorizontalHeaderLabels({tr("Property"), tr("Value")});
  connect(document_, &ModelDocument::modelLoaded, this, &OperatorPropertiesModel::rebuild);
  connect(document_, &ModelDocument::currentOperatorChanged, this,
          &OperatorPropertiesModel::rebuild);
}

void OperatorPropertiesModel::attachCompilation(const ModelCompilation* compilation) {
  compilation_ = compilation;
  connect(compilation_, &ModelCompilation::compiled, this, &OperatorPropertiesModel::rebuild);
  connect(compilation_, &ModelCompilation::compilationFailed, this,
          &OperatorPropertiesModel::rebuild);
  rebuild();
}

void OperatorPropertiesModel::addPlacement() {
  if (!compilation_) return;
  const DeviceOperatorRow* placed = compilation_->deviceMapping().rowFor(operatorIndex_);
  if (!placed) {
    section(this, tr("Placement"),
            compilation_->state() == ModelCompilation::State::Compiled ? tr("folded away")
                                                                       : tr("not compiled"));
    return;
  }
  QStandardItem* placement =
      section(this, tr("Placement"), placed->device.isEmpty() ? tr("no target") : placed->device);
  placement->appendRow(row(tr("Target"), placed->targetDisplayName.isEmpty()
                                             ? placed->target
                                             : placed->targetDisplayName));
  placement->appendRow(row(tr("Device"), placed->device));
  placement->appendRow(row(tr("Region"), placed->region.isEmpty() ? tr("main") : placed->region));
  if (placed->modelOperators.size() > 1) {
    QStringList ops;
    for (int m : placed->modelOperators) ops.append(QString::number(m));
    placement->appendRow(row(tr("Fused from"), tr("ops %1").arg(ops.join(u'+'))));
  }
  // This operator's share of its NPU region's estimate, where the graph
  // tags it too.
  const auto& npuCycles = compilation_->deviceMapping().npuCyclesOfModelOperator;
  if (operatorIndex_ >= 0 && operatorIndex_ < npuCycles.size() && npuCycles[operatorIndex_]) {
    placement->appendRow(
        row(tr("NPU cycles (its share)"), groupedNumber(*npuCycles[operatorIndex_])));
  }
  if (const auto& e = placed->estimate) {
    QStandardItem* estimate =
        section(this, tr("Estimate"), tr("%1 cycles").arg(groupedNumber(e->estimatedCycles)));
    estimate->appendRow(row(tr("Compute cycles"), groupedNumber(e->computeCycles)));
    estimate->appendRow(row(tr("Memory cycles"), groupedNumber(e->memoryCycles)));
    estimate->appendRow(row(tr("Estimated cycles"), groupedNumber(e->estimatedCycles)));
    estimate->appendRow(row(tr("Bytes moved"), groupedNumber(e->bytesMoved)));
    estimate->appendRow(row(tr("Utilisation"), utilizationText(e->utilization)));
    if (e->rawWeightBytes > 0) {
      estimate->appendRow(row(tr("Weights encoded / raw"), encodedWeightsText(*e)));
    }
  }
  if (!placed->rejections.isEmpty()) {
    QStandardItem* refused =
        section(this, tr("Refused by"), QString::number(placed->rejections.size()));
    for (const QString& reason : placed->rejections) {
      const QString target = reason.section(u':', 0, 0);
      refused->appendRow(row(target, reason.section(u':', 1).trimmed()));
    }
  }
}

void OperatorPropertiesModel::rebuild() {
  removeRows(0, rowCount());
  operatorIndex_ = document_->currentOperator();
  if (!document_->isLoaded() || operatorIndex_ < 0) return;

  const auto& graph = document_->graph();
  const auto& op = graph.operators[static_cast<std::size_t>(operatorIndex_)];
  const QString type = QString::fromStdString(op.typeName());

  QStandardItem* operatorSection = section(this, tr("Operator"), type);
  operatorSection->appendRow(row(tr("Index"), QString::number(op.index)));
  operatorSection->appendRow(row(tr("Type"), type));
  operatorSection->appendRow(row(tr("Version"), QString::number(op.version)));
  // Where it runs, near the top: the first thing to check after choosing a target.
  addPlacement();

  const auto fields = operatorAttributeFields(op.attributes);
  QStandardItem* attributes =
      section(this, tr("Attributes"), fields.isEmpty() ? tr("none") : QString());
  for (const auto& field : fields) attributes->appendRow(row(field.name, field.value));

  QStandardItem* inputs = section(this, tr("Inputs"), QString::number(op.inputs.size()));
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    addTensor(inputs, tr("input %1").arg(i), op.inputs[i]);
  }
  QStandardItem* outputs = section(this, tr("Outputs"), QString::number(op.outputs.size()));
  for (std::size_t i = 0; i < op.outputs.size(); ++i) {
    addTensor(outputs, tr("output %1").arg(i), op.outputs[i]);
  }

  const auto& cost = document_->operatorCost(operatorIndex_);
  QStandardItem* costSection = section(this, tr("Cost"));
  costSection->appendRow(row(tr("MACs"), groupedNumber(cost.macs)));
  costSection->appendRow(row(tr("Parameter bytes"), groupedNumber(cost.parameterBytes)));
  costSection->appendRow(row(tr("Input bytes"), groupedNumber(cost.inputBytes)));
  costSection->appendRow(row(tr("Output bytes"), groupedNumber(cost.outputBytes)));

  const QString reason = document_->unsupportedReason(operatorIndex_);
  QStandardItem* support = section(this, tr("Support"), reason.isEmpty() ? tr("yes") : tr("no"));
  support->appendRow(
      row(tr("Reference interpreter"), reason.isEmpty() ? tr("can run this operator") : reason));
}

void OperatorPropertiesModel::addTensor(QStandardItem* parentSection, const QString& role,
                                        int tensorIndex) {
  if (tensorIndex == ir::kNoTensor) {
    parentSection->appendRow(row(role, tr("(absent optional operand)")));
    return;
  }
  const auto& tensor = document_->graph().tensor(tensorIndex);
  const QString reference = (tensor.isConstant ? QStringLiteral("%c") : QStringLiteral("%")) +
                            QString::number(tensorIndex);
  auto items = row(role, reference + QStringLiteral("  ") + tensorShapeText(tensor));
  parentSection->appendRow(items);
  QStandardItem* item = items[0];

  const QString name = QString::fromStdString(tensor.name);
  item->appendRow(row(tr("Name"), shortTensorName(tensor.name), name));
  item->appendRow(row(tr("Shape"), QString::fromStdString(ir::shapeToString(tensor.shape))));
  item->appendRow(row(tr("Dtype"), QString::fromLatin1(ir::dtypeName(tensor.dtype))));
  item->appendRow(row(tr("Kind"), tensor.isConstant   ? tr("constant")
                                  : tensor.isVariable ? tr("variable (state)")
                                                      : tr("activation")));
  const auto& q = tensor.quantization;
  item->appendRow(row(tr("Quantisation"), quantizationText(q)));
  if (q.isPerChannel()) {
    const auto [low, high] = std::minmax_element(q.scales.begin(), q.scales.end());
    item->appendRow(
        row(tr("Scales"), floatText(*low) + QStringLiteral(" \u2026 ") + floatText(*high)));
    const bool allZero = std::all_of(q.zeroPoints.begin(), q.zeroPoints.end(),
                                     [](std::int64_t z) { return z == 0; });
    item->appendRow(row(tr("Zero points"), allZero ? tr("all 0") : tr("per channel")));
  }
  item->appendRow(row(tr("Bytes"), groupedNumber(tensor.byteSize())));
}

QString OperatorPropertiesModel::value(const QString& sectionTitle, const QString& name) const {
  for (int r = 0; r < rowCount(); ++r) {
    QStandardItem* top = item(r, PropertyColumn);
    if (top->text() != sectionTitle) continue;
    for (int c = 0; c < top->rowCount(); ++c) {
      if (top->child(c, PropertyColumn)->text() == name) {
        return top->child(c, ValueColumn)->text();
      }
    }
  }
  return {};
}

}  // namespace loupe::models
