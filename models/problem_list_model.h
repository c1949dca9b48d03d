// What is wrong with what the user opened: files the importer rejected
// (errors, newest first) and operators of the open model that Loupe cannot
// run yet (warnings, with the reason). An entry that names an operator carries
// its index so a view can select it. Once attached to a ModelCompilation, a
// compilation that fails is listed too (an error, located at "compile"),
// and so is a failed board run (at "deploy") and a failed tuning (at "tune").
#pragma once

#include <QAbstractTableModel>
#include <QList>

namespace loupe::models {

class BoardRun;
class BoardTuning;
class ModelCompilation;
class ModelDocument;

class ProblemListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { DescriptionColumn, LocationColumn, ColumnCount };
  // SeverityRole holds the Severity as an int; views pick the icon.
  enum Role { OperatorIndexRole = Qt::UserRole + 1, SeverityRole };
  enum class Severity { Error, Warning };

  struct Problem {
    Severity severity;
    QString description;
    QString location;        // "op 3 CONV_2D", or the file's name
    int operatorIndex = -1;  // -1 when the problem is not about one operator
  };

  explicit ProblemListModel(const ModelDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // Lists the failures of `compilation` from now on.
  void attachCompilation(const ModelCompilation* compilation);
  // Lists the failure of the last board run of `run` (an error at "deploy").
  void attachBoardRun(const BoardRun* run);
  // Lists the failure of the last tuning of `tuning` (an error at "tune").
  void attachBoardTuning(const BoardTuning* tuning);

  const QList<Problem>& problems() const { return problems_; }
  int count(Severity severity) const;

 private:
  void rebuild();

  const ModelDocument* document_;
  const ModelCompilation* compilation_ = nullptr;
  const BoardRun* boardRun_ = nullptr;
  const BoardTuning* boardTuning_ = nullptr;
  QList<Problem> problems_;
};

}  // namespace loupe::models
