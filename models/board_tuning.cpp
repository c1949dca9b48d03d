#include "models/board_tuning.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "deploy/auto_tuner.h"
#include "deploy/deploy_error.h"
#include "models/model_document.h"
#include "models/target_choice.h"

namespace loupe::models {

namespace fs = std::filesystem;

// What the worker reports as it goes: the workloads and the log's earlier
// records once, before the first trial, then every record measured.
struct BoardTuning::Update {
  int generation = 0;
  int trialsDone = 0;
  int trialsTotal = 0;
  std::shared_ptr<const std::vector<deploy::TuningWorkload>> workloads;  // first update only
  std::vector<tuning::TuningRecord> records;
};

// How the worker ended.
struct BoardTuning::Outcome {
  int generation = 0;
  QString error;
  bool stopped = false;  // a stop request or the time budget left trials unrun
};

lowering::ScheduleTable schedulesFromTuningLog(const QString& path) {
  return tuning::bestSchedules(tuning::readTuningLogFile(path.toStdString()));
}

BoardTuning::BoardTuning(ModelDocument* document, const deploy::Registries& registries,
                         QObject* parent)
    : QObject(parent), document_(document), registries_(registries) {
  connect(&watcher_, &QFutureWatcherBase::finished, this, &BoardTuning::onDone);
  connect(document_, &ModelDocument::modelLoaded, this, [this] {
    // Another model: what was measured stays in the log; the rows were the
    // old model's.
    stop_.request_stop();
    ++generation_;
    const bool wasRunning = isRunning();
    state_ = State::Idle;
    error_.clear();
    rows_.clear();
    records_.clear();
    workloads_.reset();
    trialsDone_ = trialsTotal_ = recordsWritten_ = 0;
    emit progressChanged();
    if (wasRunning) emit runningChanged(false);
  });
}

BoardTuning::~BoardTuning() {
  stop_.request_stop();
  watcher_.waitForFinished();
}

QString BoardTuning::defaultLogPath(const QString& modelPath, const QString& platform) {
  const QString folder =
      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/tuning");
  return folder + QLatin1Char('/') + QFileInfo(modelPath).completeBaseName() + QLatin1Char('.') +
         platform + QStringLiteral(".json");
}

bool BoardTuning::start(Request request) {
  if (isRunning()) return false;
  if (!document_->isLoaded()) {
    error_ = tr("no model is open");
    return false;
  }
  if (watcher_.isRunning()) {
    error_ = tr("the last tuning is still stopping");
    return false;
  }
  if (request.logPath.isEmpty()) {
    request.logPath = defaultLogPath(document_->filePath(), request.platform);
  }
  if (request.targets.empty()) {
    request.targets = target::parseTargetString(kDefaultTargetString, registries_.targets);
  }
  request_ = request;
  const int generation = ++generation_;
  state_ = State::Running;
  error_.clear();
  unit_.clear();
  rows_.clear();
  records_.clear();
  workloads_.reset();
  trialsDone_ = trialsTotal_ = recordsWritten_ = 0;
  stop_ = std::stop_source();
  emit runningChanged(true);
  emit started();
  emit progressChanged();

  QPointer<BoardTuning> self(this);
  auto post = [self](Update update) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, update = std::move(update)] {
          if (self && self->generation_ == update.generation) self->apply(update);
        },
        Qt::QueuedConnection);
  };
  const std::string version = QCoreApplication::applicationVersion().toStdString();
  watcher_.setFuture(QtConcurrent::run(
      [graph = document_->graph(), request, &platforms = registries_.platforms, generation, post,
       version, stop = stop_.get_token()]() -> std::shared_ptr<const Outcome> {
        auto outcome = std::make_shared<Outcome>();
        outcome->generation = generation;
        const std::string logPath = request.logPath.toStdString();
        try {
          deploy::TuneRequest tune;
          tune.platform = platforms.find(request.platform.toStdString());
          if (!tune.platform->buildsFirmware()) {
            throw std::runtime_error("platform " + tune.platform->name() +
                                     " runs firmware flashed by hand; tuning builds one per trial");
          }
          if (fs::exists(logPath)) tune.previous = tuning::readTuningLogFile(logPath);
          std::error_code ignored;
          fs::create_directories(fs::path(logPath).parent_path(), ignored);
          std::ofstream log(logPath, std::ios::app | std::ios::binary);
          if (!log) {
            throw std::runtime_error("cannot open " + logPath +
                                     " to append tuning records: " + std::strerror(errno));
          }
          tune.compile = {graph, request.targets, {}, {}};
          tune.inputs = deploy::fixedTuningInputs(graph);
          tune.deployment.stop = stop;
          tune.trials = request.trials;
          tune.jobs = request.jobs;
          tune.timeBudgetSeconds = request.timeBudgetSeconds;
          tune.version = version;
          const std::vector<tuning::TuningRecord> previous = tune.previous;
          bool written = true;
          bool announced = false;
          tune.progress = [&](const deploy::TuningProgress& progress) {
            Update update{generation, progress.trialsDone, progress.trialsTotal, {}, {}};
            if (progress.record) {
              // Written and flushed at once: a stop or a crash keeps it.
              log << tuning::tuningRecordLine(*progress.record) << "\n" << std::flush;
              written = written && static_cast<bool>(log);
              update.records.push_back(*progress.record);
            } else {
              // The workloads, announced before each round; the log's
              // earlier records go with the first announcement only.
              update.workloads =
                  std::make_shared<const std::vector<deploy::TuningWorkload>>(*progress.workloads);
              if (!announced) update.records = previous;
              announced = true;
            }
            post(std::move(update));
          };
          const deploy::TuneResult result = deploy::tuneOnBoard(std::move(tune));
          outcome->stopped = result.trialsSkipped > 0;
          if (!written) {
            throw std::runtime_error("cannot write tuning records to " + logPath +
                                     " (is the disk full?); the log holds only some of them");
          }
        } catch (const deploy::DeployError& error) {
          outcome->error = QString::fromUtf8(error.what());
        } catch (const std::exception& error) {
          outcome->error = QString::fromUtf8(error.what());
        }
        return outcome;
      }));
  return true;
}

void BoardTuning::stop() {
  if (state_ != State::Running) return;
  stop_.request_stop();
  state_ = State::Stopping;
  emit progressChanged();
}

void BoardTuning::apply(const Update& update) {
  trialsDone_ = update.trialsDone;
  trialsTotal_ = update.trialsTotal;
  if (update.workloads) {
    workloads_ = update.workloads;
  } else {
    recordsWritten_ += static_cast<int>(update.records.size());
  }
  for (const tuning::TuningRecord& record : update.records) {
    const bool onThisBoard = record.board == request_.platform.toStdString();
    if (unit_.isEmpty() && onThisBoard && record.cost) unit_ = QString::fromStdString(record.unit);
  }
  records_.insert(records_.end(), update.records.begin(), update.records.end());
  rebuildRows();
  emit progressChanged();
}

void BoardTuning::rebuildRows() {
  rows_.clear();
  if (!workloads_) return;
  const std::string board = request_.platform.toStdString();
  for (const deploy::WorkloadSummary& summary :
       deploy::summarizeTuning(*workloads_, records_, board)) {
    const deploy::TuningWorkload& workload = *summary.workload;
    TuningRow row;
    row.key = QString::fromStdString(workload.key);
    row.op = QString::fromStdString(workload.op);
    row.calls = static_cast<int>(workload.operators.size());
    row.candidates = static_cast<int>(workload.candidates.size());
    for (const tuning::TuningRecord& record : records_) {
      if (record.board == board && record.workload == workload.key) ++row.measured;
    }
    row.defaultCost = summary.defaultCost;
    row.bestCost = summary.bestCost;
    if (summary.bestCost) {
      row.bestSchedule = QString::fromStdString(lowering::scheduleToString(summary.best));
    }
    rows_.append(row);
  }
}

lowering::ScheduleTable BoardTuning::bestSchedules() const {
  return tuning::bestSchedules(records_);
}

void BoardTuning::onDone() {
  const std::shared_ptr<const Outcome> outcome = watcher_.result();
  if (outcome->generation != generation_) return;  // another model was opened
  if (!outcome->error.isEmpty()) {
    state_ = State::Failed;
    error_ = outcome->error;
  } else {
    state_ = outcome->stopped || stop_.stop_requested() ? State::Stopped : State::Finished;
  }
  emit progressChanged();
  emit runningChanged(false);
  emit finished();
}

bool BoardTuning::waitUntilIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while ((isRunning() || watcher_.isRunning()) && !deadline.hasExpired()) {
    QEventLoop loop;
    connect(this, &BoardTuning::runningChanged, &loop, &QEventLoop::quit);
    QTimer::singleShot(std::min<qint64>(200, std::max<qint64>(1, deadline.remainingTime())), &loop,
                       &QEventLoop::quit);
    loop.exec();
  }
  return !isRunning();
}

}  // namespace loupe::models
