// The stage navigator's tree: the open model at the root and, under it, every
// compilation stage whose result the document holds, in pipeline order. Each
// stage item carries its CompilationStage under StageRole. Attached to a
// ModelCompilation, it adds Partitioned, Fused, TIR, C and Memory plan once the
// model compiled.
#pragma once

#include <QStandardItemModel>

namespace loupe::models {

class ModelCompilation;
class ModelDocument;

class StageTreeModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum Role { StageRole = Qt::UserRole + 1 };

  explicit StageTreeModel(const ModelDocument* document, QObject* parent = nullptr);

  void attachCompilation(const ModelCompilation* compilation);

 private:
  void rebuild();

  const ModelDocument* document_;
  const ModelCompilation* compilation_ = nullptr;
};

}  // namespace loupe::models
