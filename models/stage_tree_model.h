// The stage navigator's tree: the open model at the root and, under it, every
// compilation stage whose result the document holds, in pipeline order. Each
// stage item carries its CompilationStage under StageRole.
#pragma once

#include <QStandardItemModel>

namespace loupe::models {

class ModelDocument;

class StageTreeModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Role { StageRole = Qt::UserRole + 1 };

  explicit StageTreeModel(const ModelDocument* document, QObject* parent = nullptr);

 private:
  void rebuild();

  const ModelDocument* document_;
};

}  // namespace loupe::models
