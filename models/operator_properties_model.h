// The selected operator as a two-column tree (property, value) for the
// Properties dock: its type and attributes, every operand tensor with shape,
// dtype, quantisation and bytes, its cost and whether Loupe can run it, and
// once compiled where it runs: target, device, region and the target's
// estimate, or why the NPU refused it. Follows the
// document's current operator.
#pragma once

#include <QStandardItemModel>

namespace loupe::models {

class ModelCompilation;
class ModelDocument;

class OperatorPropertiesModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Column { PropertyColumn, ValueColumn };

  explicit OperatorPropertiesModel(const ModelDocument* document, QObject* parent = nullptr);

  // Adds the Placement section from the compilation's device mapping.
  void attachCompilation(const ModelCompilation* compilation);

  // The operator shown, or -1.
  int operatorIndex() const { return operatorIndex_; }

  // The value next to the first property called `name` under the top-level
  // section `section` ("Operator", "Inputs", ...); for tests and tool tips.
  QString value(const QString& section, const QString& name) const;

 private:
  void rebuild();
  void addTensor(QStandardItem* section, const QString& role, int tensorIndex);
  void addPlacement();

  const ModelDocument* document_;
  const ModelCompilation* compilation_ = nullptr;
  int operatorIndex_ = -1;
};

}  // namespace loupe::models
