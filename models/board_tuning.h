// "Tune on board" for the GUI: what `loupec tune` does (deploy/auto_tuner.h)
// for the document's model, on a worker thread. Every record is appended to
// the tuning log as soon as it is measured, so nothing measured is lost to a
// stop, a failure or the window closing; a log that exists is resumed (what
// it measured on this board is not measured again, and its records count in
// each workload's default and best). Stop ends the tuning after the trials
// under way and keeps their records; a failure becomes a message.
#pragma once

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include "deploy/auto_tuner.h"
#include "deploy/registries.h"
#include "lowering/schedule.h"
#include "target/target_string.h"
#include "tuning/tuning_log.h"

namespace loupe::models {

class ModelDocument;

// One distinct workload of the model as the Tune panel shows it.
struct TuningRow {
  QString key;    // the workload key (lowering::workloadKey)
  QString op;     // "CONV_2D"
  int calls = 0;  // operators of the compiled model with this workload
  int candidates = 0;
  int measured = 0;                   // records on this board, failed ones too
  std::optional<double> defaultCost;  // per call, in unit()
  std::optional<double> bestCost;
  QString bestSchedule;  // "kernel=simd unroll=4"
};

// The best schedule per workload of a tuning log, as compile --tuning-log
// applies them. Throws std::runtime_error naming the file and the line.
lowering::ScheduleTable schedulesFromTuningLog(const QString& path);

class BoardTuning : public QObject {
  Q_OBJECT

 public:
  enum class State { Idle, Running, Stopping, Finished, Stopped, Failed };

  struct Request {
    QString platform;
    target::TargetList targets;  // empty: the CPU only ("c")
    int trials = 0;              // at most this many candidates per workload; 0: all
    int jobs = 1;                // boards at once
    int timeBudgetSeconds = 0;   // no trial starts after this; 0: no limit
    QString logPath;             // appended to; created with its folder
  };

  BoardTuning(ModelDocument* document, const deploy::Registries& registries,
              QObject* parent = nullptr);
  ~BoardTuning() override;  // stops a tuning in flight and waits for its worker

  // Where the window keeps the log of `model` tuned on `platform` when the
  // user names none: the application's data folder, tuning/<model>.<platform>.json.
  static QString defaultLogPath(const QString& modelPath, const QString& platform);

  // Starts a tuning; false when one is running or no model is open (the
  // reason is errorMessage()).
  bool start(Request request);
  // Ends the tuning after the trials under way; their records are kept.
  void stop();

  State state() const { return state_; }
  bool isRunning() const { return state_ == State::Running || state_ == State::Stopping; }
  QString errorMessage() const { return error_; }
  QString platform() const { return request_.platform; }
  QString logPath() const { return request_.logPath; }
  QString unit() const { return unit_; }
  int trialsDone() const { return trialsDone_; }
  int trialsTotal() const { return trialsTotal_; }
  int recordsWritten() const { return recordsWritten_; }
  const QList<TuningRow>& rows() const { return rows_; }
  // The best schedule per workload of the whole log (this tuning's records
  // and the ones it resumed from); empty before any was measured.
  lowering::ScheduleTable bestSchedules() const;

  bool waitUntilIdle(int timeoutMs = 600000);

 signals:
  void started();
  void progressChanged();  // rows, trials or records changed
  void finished();         // finished, stopped or failed; state() says which
  void runningChanged(bool running);

 private:
  struct Update;
  struct Outcome;
  void apply(const Update& update);
  void onDone();
  void rebuildRows();

  ModelDocument* document_;
  const deploy::Registries& registries_;
  Request request_;
  State state_ = State::Idle;
  QString error_;
  QString unit_;
  int trialsDone_ = 0;
  int trialsTotal_ = 0;
  int recordsWritten_ = 0;
  int generation_ = 0;
  std::shared_ptr<const std::vector<deploy::TuningWorkload>> workloads_;
  std::vector<tuning::TuningRecord> records_;  // the log's earlier ones, then this tuning's
  QList<TuningRow> rows_;
  std::stop_source stop_;
  QFutureWatcher<std::shared_ptr<const Outcome>> watcher_;
};

}  // namespace loupe::models
