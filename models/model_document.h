// The GUI's one entry into the compiler: ModelDocument opens a .tflite file
// through the importer in inspection mode and keeps what the views show - the
// graph, its printed IR, the cost of every operator, the operators Loupe cannot
// run and the operator the user has selected. A failed open leaves the
// previous model untouched, so a bad file never costs the user their work.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "analysis/operator_cost.h"
#include "ir/graph.h"
#include "models/compilation_stage.h"

namespace loupe::models {

// Why one operator cannot be compiled or run.
struct OperatorSupportProblem {
  int operatorIndex = -1;
  QString reason;
};

// An open that failed: which file and the importer's message.
struct LoadFailure {
  QString path;
  QString message;
};

class ModelDocument : public QObject {
  Q_OBJECT

 public:
  explicit ModelDocument(QObject* parent = nullptr);
  ~ModelDocument() override;

  // Opens a model file on disk or in the Qt resources (":/..."). On success
  // emits modelLoaded() and selects the first operator; on failure emits
  // loadFailed() and keeps the current model. Returns whether it opened.
  bool open(const QString& path);

  bool isLoaded() const { return loaded_ != nullptr; }
  QString filePath() const;   // as given to open(); empty when nothing is loaded
  QString modelName() const;  // the file's stem

  // Only valid while isLoaded().
  const ir::Graph& graph() const;
  const analysis::OperatorCost& operatorCost(int operatorIndex) const;
  const analysis::GraphCost& graphCost() const;
  const QString& graphIrText() const;  // printGraph() of the imported graph
  const std::vector<OperatorSupportProblem>& supportProblems() const;
  // The reason operator `operatorIndex` cannot run, or an empty string.
  QString unsupportedReason(int operatorIndex) const;
  int operatorCount() const;

  // The stages whose result the document holds, in pipeline order.
  std::vector<CompilationStage> availableStages() const;

  // Failed opens since the current model was loaded (newest last).
  const std::vector<LoadFailure>& loadFailures() const { return failures_; }

  // The operator selected in every view, or -1.
  int currentOperator() const { return currentOperator_; }
  void setCurrentOperator(int operatorIndex);

 signals:
  // A new model replaced the previous one; every view re-reads the document.
  void modelLoaded();
  void loadFailed(const QString& path, const QString& message);
  void currentOperatorChanged(int operatorIndex);

 private:
  struct LoadedModel;
  std::unique_ptr<const LoadedModel> loaded_;
  std::vector<LoadFailure> failures_;
  int currentOperator_ = -1;
};

}  // namespace loupe::models
