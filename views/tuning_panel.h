// The Tune panel: tuning on the board from the window (models::BoardTuning,
// what `loupec tune` does). It tunes on the platform chosen in the Deploy
// panel, with a limit on candidates per workload, boards at once and a time
// budget, into a tuning log (resumed when it exists). While it runs: a
// progress bar of trials, and per workload the default's and the best
// measured cost per call, as a chart and a table. Stop keeps every record.
// Apply hands the log's best schedules to the window, which recompiles the
// views (the TIR and C show the tuned schedules) and Run on board with them.
#pragma once

#include <QWidget>

#include "lowering/schedule.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

class QChartView;

namespace loupe::models {
class BoardTuning;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class TuningPanel : public QWidget {
  Q_OBJECT

 public:
  TuningPanel(models::ModelDocument* document, models::BoardTuning* tuning,
              QWidget* parent = nullptr);

  // The platform to tune on (the Deploy panel's) and whether it can be tuned
  // (it builds firmware: not `serial`).
  void setPlatform(const QString& name, bool tunable);
  QString platform() const { return platform_; }

  QPushButton* tuneButton() const { return tuneButton_; }
  QPushButton* stopButton() const { return stopButton_; }
  QPushButton* applyButton() const { return applyButton_; }
  QSpinBox* trialsBox() const { return trials_; }
  QSpinBox* jobsBox() const { return jobs_; }
  QLineEdit* logEdit() const { return log_; }
  QTableWidget* table() const { return table_; }
  QLabel* statusLabel() const { return status_; }

 public slots:
  // Starts tuning with the panel's settings (the Tune on Board action).
  void tune();

 signals:
  // The user asked for the log's best schedules (Apply, or the tuning ended
  // with "apply when done" checked); `source` names the log.
  void applySchedules(const lowering::ScheduleTable& schedules, const QString& source);

 private:
  void updateControls();
  void updateProgress();
  void updateChart();
  void chooseLog();
  QString logPath() const;

  models::ModelDocument* document_;
  models::BoardTuning* tuning_;
  QString platform_;
  bool tunable_ = false;
  QLabel* platformLabel_;
  QSpinBox* trials_;
  QSpinBox* jobs_;
  QSpinBox* budget_;
  QLineEdit* log_;
  QCheckBox* applyWhenDone_;
  QPushButton* tuneButton_;
  QPushButton* stopButton_;
  QPushButton* applyButton_;
  QProgressBar* progress_;
  QLabel* status_;
  QChartView* chartView_;
  QTableWidget* table_;
};

}  // namespace loupe::views
