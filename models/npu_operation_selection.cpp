#include "models/npu_operation_selection.h"

#include "models/model_document.h"

namespace loupe::models {

NpuOperationSelection::NpuOperationSelection(ModelDocument* document, QObject* parent)
    : QObject(parent) {
  // Another model, or another operator selected: the old pick means nothing there.
  connect(document, &ModelDocument::modelLoaded, this, &NpuOperationSelection::clear);
  connect(document, &ModelDocument::currentOperatorChanged, this, [this](int op) {
    if (op != operatorIndex_) clear();
  });
}

void NpuOperationSelection::select(int operatorIndex, int operation) {
  if (operation < 0) operatorIndex = -1;
  if (operatorIndex == operatorIndex_ && operation == operation_) return;
  operatorIndex_ = operatorIndex;
  operation_ = operation;
  emit changed(operatorIndex_, operation_);
}

}  // namespace loupe::models
