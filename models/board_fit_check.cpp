#include "models/board_fit_check.h"

#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "deploy/board_fit.h"
#include "models/model_document.h"
#include "models/target_choice.h"

namespace loupe::models {

// A check's outcome, built on the worker thread and read-only after.
struct BoardFitCheck::Result {
  int generation = 0;
  State state = State::None;
  QString text;
  driver::PlanSavings plan = driver::PlanSavings::None;
};

BoardFitCheck::BoardFitCheck(ModelDocument* document, const deploy::Registries& registries,
                             QObject* parent)
    : QObject(parent), document_(document), registries_(registries) {
  connect(&watcher_, &QFutureWatcherBase::finished, this, &BoardFitCheck::onDone);
}

BoardFitCheck::~BoardFitCheck() {
  watcher_.disconnect(this);
  watcher_.waitForFinished();
}

void BoardFitCheck::check(BoardRun::Request request) {
  platform_ = request.platform;
  ++generation_;  // the result of a check under way is dropped
  queued_.reset();
  if (!document_->isLoaded() || !registries_.platforms.find(request.platform.toStdString())) {
    state_ = State::None;
    text_.clear();
    emit changed();
    return;
  }
  state_ = State::Checking;
  text_ = tr("checking whether the model fits %1\u2026").arg(request.platform);
  emit changed();
  // One check at a time (a compile cannot be stopped midway): a newer one
  // waits for the one under way to end.
  if (watcher_.isRunning()) {
    queued_ = std::move(request);
  } else {
    start(std::move(request));
  }
}

void BoardFitCheck::start(BoardRun::Request request) {
  const int generation = generation_;
  const auto platform = registries_.platforms.find(request.platform.toStdString());
  if (request.targets.empty()) {
    request.targets = target::parseTargetString(kDefaultTargetString, registries_.targets);
  }
  driver::CompileRequest compile{document_->graph(), request.targets, {}, {}};
  compile.options.schedules = request.schedules;
  compile.offeredSchedules = offeredSchedules(request);
  compile.options.memory.overlapOutputs = request.overlapOutputs;
  compile.options.memory.patches = request.patches;
  watcher_.setFuture(
      QtConcurrent::run([platform, compile = std::move(compile), generation,
                         &boards = registries_.platforms]() -> std::shared_ptr<const Result> {
        auto result = std::make_shared<Result>();
        result->generation = generation;
        try {
          const deploy::BoardFit fit = deploy::checkBoardFit(*platform, compile, &boards);
          if (!fit.limited) {
            result->state = State::None;
          } else if (fit.fits) {
            result->state = State::Fits;
            result->text = QString::fromStdString(fit.note);
            result->plan = fit.plan;
          } else {
            result->state = State::DoesNotFit;
            result->text = QString::fromStdString(fit.refusal);
          }
        } catch (const std::exception& error) {
          result->state = State::Failed;
          result->text = QString::fromUtf8(error.what());
        }
        return result;
      }));
}

void BoardFitCheck::onDone() {
  if (queued_) {
    BoardRun::Request next = std::move(*queued_);
    queued_.reset();
    start(std::move(next));
    return;
  }
  const std::shared_ptr<const Result> result = watcher_.result();
  if (result->generation != generation_) return;  // replaced by a check with nothing to do
  state_ = result->state;
  text_ = result->text;
  overlapOutputs_ = result->plan == driver::PlanSavings::OverlapOutputs ||
                    result->plan == driver::PlanSavings::OverlapsAndPatches;
  patches_ = result->plan == driver::PlanSavings::Patches ||
             result->plan == driver::PlanSavings::OverlapsAndPatches;
  emit changed();
}

}  // namespace loupe::models
