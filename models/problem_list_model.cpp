#include "models/problem_list_model.h"

#include <QFileInfo>
#include <algorithm>

#include "models/board_run.h"
#include "models/board_tuning.h"
#include "models/model_compilation.h"
#include "models/model_document.h"

namespace loupe::models {

ProblemListModel::ProblemListModel(const ModelDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
  connect(document_, &ModelDocument::modelLoaded, this, &ProblemListModel::rebuild);
  connect(document_, &ModelDocument::loadFailed, this, &ProblemListModel::rebuild);
  rebuild();
}

void ProblemListModel::attachCompilation(const ModelCompilation* compilation) {
  compilation_ = compilation;
  connect(compilation_, &ModelCompilation::compilationFailed, this, &ProblemListModel::rebuild);
  connect(compilation_, &ModelCompilation::compiled, this, &ProblemListModel::rebuild);
  rebuild();
}

void ProblemListModel::attachBoardRun(const BoardRun* run) {
  boardRun_ = run;
  connect(boardRun_, &BoardRun::finished, this, &ProblemListModel::rebuild);
  connect(boardRun_, &BoardRun::started, this, &ProblemListModel::rebuild);
  rebuild();
}

void ProblemListModel::attachBoardTuning(const BoardTuning* tuning) {
  boardTuning_ = tuning;
  connect(boardTuning_, &BoardTuning::finished, this, &ProblemListModel::rebuild);
  connect(boardTuning_, &BoardTuning::started, this, &ProblemListModel::rebuild);
  rebuild();
}

void ProblemListModel::rebuild() {
  beginResetModel();
  problems_.clear();
  const auto& failures = document_->loadFailures();
  for (auto it = failures.rbegin(); it != failures.rend(); ++it) {
    problems_.append({Severity::Error, it->message, QFileInfo(it->path).fileName(), -1});
  }
  if (compilation_ && compilation_->state() == ModelCompilation::State::Failed) {
    problems_.append({Severity::Error,
                      tr("Compilation failed: %1").arg(compilation_->errorMessage()), tr("compile"),
                      -1});
  }
  if (boardRun_ && boardRun_->state() == BoardRun::State::Failed &&
      boardRun_->errorMessage() != BoardRun::tr("cancelled")) {
    problems_.append(
        {Severity::Error,
         tr("Run on %1 failed: %2").arg(boardRun_->platform(), boardRun_->errorMessage()),
         tr("deploy"), -1});
  }
  if (boardTuning_ && boardTuning_->state() == BoardTuning::State::Failed) {
    problems_.append(
        {Severity::Error,
         tr("Tuning on %1 failed: %2").arg(boardTuning_->platform(), boardTuning_->errorMessage()),
         tr("tune"), -1});
  }
  if (document_->isLoaded()) {
    const auto& graph = document_->graph();
    for (const auto& problem : document_->supportProblems()) {
      const auto& op = graph.operators.at(static_cast<std::size_t>(problem.operatorIndex));
      problems_.append(
          {Severity::Warning,
           tr("%1 cannot run: %2").arg(QString::fromStdString(op.typeName()), problem.reason),
           tr("op %1 %2").arg(op.index).arg(QString::fromStdString(op.typeName())),
           problem.operatorIndex});
    }
  }
  endResetModel();
}

int ProblemListModel::count(Severity severity) const {
  return static_cast<int>(std::count_if(problems_.begin(), problems_.end(),
                                        [&](const Problem& p) { return p.severity == severity; }));
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

int ProblemListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Problem& problem = problems_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return index.column() == DescriptionColumn ? problem.description : problem.location;
    case Qt::ToolTipRole:
      return problem.description;
    case OperatorIndexRole:
      return problem.operatorIndex;
    case SeverityRole:
      return static_cast<int>(problem.severity);
    default:
      return {};
  }
}

QVariant ProblemListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == DescriptionColumn ? tr("Description") : tr("Location");
}

}  // namespace loupe::models
