// Whether the opened model fits the board the Deploy panel has chosen, known
// before anything is built: the model is compiled for the board on a worker
// thread as Run on board would compile it (deploy::checkBoardFit), and the
// panel shows the plan it needs or why it does not fit and which board it
// would. A newer check replaces one under way (which ends first: a compile
// cannot be stopped midway).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>

#include "deploy/registries.h"
#include "models/board_run.h"

namespace loupe::models {

class ModelDocument;

class BoardFitCheck : public QObject {
  Q_OBJECT

 public:
  enum class State {
    None,        // nothing checked: no model, or a platform without memories of its own
    Checking,    // a check is under way
    Fits,        // fits, with the plan of overlapOutputs() and patches()
    DoesNotFit,  // no plan fits; text() says why and where it would
    Failed,      // the model does not compile for the board (text() says why)
  };

  // Compiles for the platforms of `registries`, which outlive the check.
  BoardFitCheck(ModelDocument* document, const deploy::Registries& registries,
                QObject* parent = nullptr);
  ~BoardFitCheck() override;  // waits for the worker

  // Checks `request`'s platform with its targets, schedules and memory
  // switches (both off: fit first; either on: that plan or a refusal).
  void check(BoardRun::Request request);

  State state() const { return state_; }
  QString platform() const { return platform_; }
  // "fits with overlapped outputs, every board's default: 8,640 of 10,912
  // workspace bytes ...", "fits with patches: ..." (as the switches chose),
  // or the refusal.
  QString text() const { return text_; }
  // The plan the board needs (when it fits).
  bool overlapOutputs() const { return overlapOutputs_; }
  bool patches() const { return patches_; }

 signals:
  void changed();

 private:
  struct Result;
  void start(BoardRun::Request request);
  void onDone();

  ModelDocument* document_;
  const deploy::Registries& registries_;
  State state_ = State::None;
  QString platform_;
  QString text_;
  bool overlapOutputs_ = false;
  bool patches_ = false;
  int generation_ = 0;
  std::optional<BoardRun::Request> queued_;  // waits for the check under way
  QFutureWatcher<std::shared_ptr<const Result>> watcher_;
};

}  // namespace loupe::models
