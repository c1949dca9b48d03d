#include "models/model_document.h"

#include <QFile>
#include <QFileInfo>
#include <exception>
#include <span>

#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "reference/reference_interpreter.h"

namespace loupe::models {

// Everything derived from one import, built completely before it replaces the
// current model (so a failure half-way leaves nothing half-updated).
struct ModelDocument::LoadedModel {
  QString path;
  QString name;
  ir::Graph graph;
  std::vector<analysis::OperatorCost> operatorCosts;
  analysis::GraphCost graphCost;
  QString irText;
  std::vector<OperatorSupportProblem> supportProblems;
};

ModelDocument::ModelDocument(QObject* parent) : QObject(parent) {}

ModelDocument::~ModelDocument() = default;

bool ModelDocument::open(const QString& path) {
  const QString fileName = QFileInfo(path).fileName();
  auto fail = [&](const QString& message) {
    failures_.push_back({path, message});
    emit loadFailed(path, message);
    return false;
  };

  // QFile rather than importTfliteFile(): it also reads the bundled model
  // from the Qt resources.
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    return fail(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
  }
  const QByteArray bytes = file.readAll();

  auto model = std::make_unique<LoadedModel>();
  try {
    frontend::ImportOptions options;
    options.keepUnsupportedOperators = true;  // show everything, flag what cannot run
    model->graph =
        frontend::importTflite(std::span(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                                         static_cast<std::size_t>(bytes.size())),
                               options);
    model->path = path;
    model->name = QFileInfo(path).completeBaseName();
    model->graph.name = model->name.toStdString();
    for (const auto& op : model->graph.operators) {
      model->operatorCosts.push_back(analysis::operatorCost(model->graph, op));
    }
    model->graphCost = analysis::graphCost(model->graph);
    model->irText = QString::fromStdString(ir::printGraph(model->graph));
    for (const auto& problem : reference::findUnsupportedOperators(model->graph)) {
      model->supportProblems.push_back(
          {problem.operatorIndex, QString::fromStdString(problem.reason)});
    }
  } catch (const frontend::ImportError& error) {
    return fail(fileName + QStringLiteral(": ") + QString::fromUtf8(error.what()));
  } catch (const std::exception& error) {
    // Anything else the core throws (bad_alloc on an absurd size, ...) is
    // still a file Loupe cannot open, not a reason to lose the session.
    return fail(fileName + QStringLiteral(": unexpected error: ") +
                QString::fromUtf8(error.what()));
  }

  loaded_ = std::move(model);
  failures_.clear();
  currentOperator_ = -1;
  emit modelLoaded();
  setCurrentOperator(operatorCount() > 0 ? 0 : -1);
  return true;
}

QString ModelDocument::filePath() const {
  return loaded_ ? loaded_->path : QString();
}

QString ModelDocument::modelName() const {
  return loaded_ ? loaded_->name : QString();
}

const ir::Graph& ModelDocument::graph() const {
  return loaded_->graph;
}

const analysis::OperatorCost& ModelDocument::operatorCost(int operatorIndex) const {
  return loaded_->operatorCosts.at(static_cast<std::size_t>(operatorIndex));
}

const analysis::GraphCost& ModelDocument::graphCost() const {
  return loaded_->graphCost;
}

const QString& ModelDocument::graphIrText() const {
  return loaded_->irText;
}

const std::vector<OperatorSupportProblem>& ModelDocument::supportProblems() const {
  return loaded_->supportProblems;
}

QString ModelDocument::unsupportedReason(int operatorIndex) const {
  if (!loaded_) return {};
  for (const auto& problem : loaded_->supportProblems) {
    if (problem.operatorIndex == operatorIndex) return problem.reason;
  }
  return {};
}

int ModelDocument::operatorCount() const {
  return loaded_ ? static_cast<int>(loaded_->graph.operators.size()) : 0;
}

std::vector<CompilationStage> ModelDocument::availableStages() const {
  if (!loaded_) return {};
  return {CompilationStage::Imported};
}

void ModelDocument::setCurrentOperator(int operatorIndex) {
  if (operatorIndex < -1 || operatorIndex >= operatorCount()) operatorIndex = -1;
  if (operatorIndex == currentOperator_) return;
  currentOperator_ = operatorIndex;
  emit currentOperatorChanged(operatorIndex);
}

}  // namespace loupe::models
