#include "models/stage_tree_model.h"

#include <QFont>

#include "models/compilation_stage.h"
#include "models/model_compilation.h"
#include "models/model_document.h"

namespace loupe::models {

StageTreeModel::StageTreeModel(const ModelDocument* document, QObject* parent)
    : QStandardItemModel(parent), document_(document) {
  setHorizontalHeaderLabels({tr("Stages")});
  connect(document_, &ModelDocument::modelLoaded, this, &StageTreeModel::rebuild);
  rebuild();
}

void StageTreeModel::attachCompilation(const ModelCompilation* compilation) {
  compilation_ = compilation;
  connect(compilation_, &ModelCompilation::compilationStarted, this, &StageTreeModel::rebuild);
  connect(compilation_, &ModelCompilation::compiled, this, &StageTreeModel::rebuild);
  connect(compilation_, &ModelCompilation::compilationFailed, this, &StageTreeModel::rebuild);
  rebuild();
}

void StageTreeModel::rebuild() {
  removeRows(0, rowCount());
  if (!document_->isLoaded()) return;

  auto* root = new QStandardItem(document_->modelName());
  root->setEditable(false);
  root->setSelectable(false);
  root->setToolTip(document_->filePath());
  QFont bold = root->font();
  bold.setBold(true);
  root->setFont(bold);
  appendRow(root);

  std::vector<CompilationStage> stages = document_->availableStages();
  if (compilation_ && compilation_->state() == ModelCompilation::State::Compiled) {
    stages.insert(stages.end(),
                  {CompilationStage::Partitioned, CompilationStage::Fused, CompilationStage::Tir,
                   CompilationStage::C, CompilationStage::MemoryPlan});
  }
  for (const CompilationStage stage : stages) {
    QString toolTip = stageDescription(stage);
    if (stage == CompilationStage::Imported) {
      const int count = document_->operatorCount();
      toolTip += QStringLiteral(" (") +
                 (count == 1 ? tr("1 operator") : tr("%1 operators").arg(count)) +
                 QStringLiteral(")");
    }
    if (stage == CompilationStage::Partitioned) {
      toolTip += QStringLiteral(" (--target \"%1\")").arg(compilation_->targetString());
    }
    auto* item = new QStandardItem(stageTitle(stage));
    item->setToolTip(toolTip);
    item->setEditable(false);
    item->setData(static_cast<int>(stage), StageRole);
    root->appendRow(item);
  }
}

}  // namespace loupe::models
