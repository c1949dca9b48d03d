#include "views/tuning_panel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include "models/board_tuning.h"
#include "models/model_document.h"

namespace loupe::views {

namespace {

enum Column { Workload, Calls, Measured, Default, Best, Schedule, SpeedUp, ColumnCount };

QString costText(const std::optional<double>& cost) {
  return cost ? QLocale().toString(*cost, 'f', 0) : QStringLiteral("\u2013");
}

// "3 CONV_2D": the row number keeps equal operator names apart in the chart.
QString workloadLabel(int row, const models::TuningRow& tuningRow) {
  return QStringLiteral("%1 %2").arg(row + 1).arg(tuningRow.op);
}

}  // namespace

TuningPanel::TuningPanel(models::ModelDocument* document, models::BoardTuning* tuning,
                         QWidget* parent)
    : QWidget(parent),
      document_(document),
      tuning_(tuning),
      platformLabel_(new QLabel(this)),
      trials_(new QSpinBox(this)),
      jobs_(new QSpinBox(this)),
      budget_(new QSpinBox(this)),
      log_(new QLineEdit(this)),
      applyWhenDone_(new QCheckBox(tr("Apply the best schedules when done"), this)),
      tuneButton_(new QPushButton(tr("Tune on board"), this)),
      stopButton_(new QPushButton(tr("Stop"), this)),
      applyButton_(new QPushButton(tr("Apply best schedules"), this)),
      progress_(new QProgressBar(this)),
      status_(new QLabel(this)),
      chartView_(new QChartView(this)),
      table_(new QTableWidget(0, ColumnCount, this)) {
  tuneButton_->setObjectName(QStringLiteral("tuneButton"));
  stopButton_->setObjectName(QStringLiteral("stopTuningButton"));
  applyButton_->setObjectName(QStringLiteral("applySchedulesButton"));
  table_->setObjectName(QStringLiteral("tuningTable"));
  status_->setObjectName(QStringLiteral("tuningStatus"));

  trials_->setRange(0, 1000);
  trials_->setSpecialValueText(tr("all"));
  trials_->setToolTip(tr("At most this many candidate schedules per workload (the default first)"));
  jobs_->setRange(1, std::max(1, QThread::idealThreadCount()));
  jobs_->setToolTip(tr("Boards (QEMU instances or host processes) measuring at once"));
  budget_->setRange(0, 24 * 3600);
  budget_->setSuffix(tr(" s"));
  budget_->setSpecialValueText(tr("none"));
  budget_->setToolTip(tr("No trial starts after this many seconds; run again to resume"));
  log_->setPlaceholderText(tr("the application's data folder"));
  log_->setToolTip(
      tr("Tuning records are appended here as they are measured (JSON lines); an existing log "
         "is resumed. loupec compile/run/generate --tuning-log take the same file."));
  auto* browse = new QToolButton(this);
  browse->setText(tr("\u2026"));
  browse->setToolTip(tr("Choose the tuning log"));
  connect(browse, &QToolButton::clicked, this, &TuningPanel::chooseLog);
  auto* logRow = new QHBoxLayout;
  logRow->addWidget(log_, 1);
  logRow->addWidget(browse);
  applyWhenDone_->setChecked(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Platform"), platformLabel_);
  auto* limits = new QHBoxLayout;
  limits->addWidget(new QLabel(tr("Candidates"), this));
  limits->addWidget(trials_);
  limits->addWidget(new QLabel(tr("Boards"), this));
  limits->addWidget(jobs_);
  limits->addWidget(new QLabel(tr("Budget"), this));
  limits->addWidget(budget_);
  limits->addStretch(1);
  form->addRow(tr("Limits"), limits);
  form->addRow(tr("Log"), logRow);
  form->addRow(QString(), applyWhenDone_);

  tuneButton_->setToolTip(
      tr("Build, flash and measure candidate schedules of every operator workload on the board"));
  stopButton_->setToolTip(tr("Stop after the trials under way; every record measured is kept"));
  applyButton_->setToolTip(
      tr("Recompile the views and Run on board with the log's best schedule per workload"));
  connect(tuneButton_, &QPushButton::clicked, this, &TuningPanel::tune);
  connect(stopButton_, &QPushButton::clicked, tuning_, &models::BoardTuning::stop);
  connect(applyButton_, &QPushButton::clicked, this, [this] {
    emit applySchedules(tuning_->bestSchedules(), QFileInfo(tuning_->logPath()).fileName());
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(tuneButton_);
  buttons->addWidget(stopButton_);
  buttons->addWidget(applyButton_);
  buttons->addStretch(1);

  progress_->setFormat(tr("trial %v of %m"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignTop);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chartView_->setChart(chart);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(180);

  table_->setHorizontalHeaderLabels({tr("Workload"), tr("Calls"), tr("Measured"), tr("Default"),
                                     tr("Best"), tr("Schedule"), tr("Speed-up")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setStretchLastSection(true);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(chartView_);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addWidget(splitter, 1);

  connect(tuning_, &models::BoardTuning::progressChanged, this, &TuningPanel::updateProgress);
  connect(tuning_, &models::BoardTuning::runningChanged, this, &TuningPanel::updateControls);
  connect(tuning_, &models::BoardTuning::finished, this, [this] {
    if (tuning_->state() != models::BoardTuning::State::Failed && applyWhenDone_->isChecked() &&
        !tuning_->bestSchedules().empty()) {
      emit applySchedules(tuning_->bestSchedules(), QFileInfo(tuning_->logPath()).fileName());
    }
  });
  connect(document_, &models::ModelDocument::modelLoaded, this, &TuningPanel::updateControls);
  updateControls();
  updateProgress();
}

void TuningPanel::setPlatform(const QString& name, bool tunable) {
  platform_ = name;
  tunable_ = tunable;
  updateControls();
}

QString TuningPanel::logPath() const {
  const QString chosen = log_->text().trimmed();
  if (!chosen.isEmpty() || !document_->isLoaded()) return chosen;
  return models::BoardTuning::defaultLogPath(document_->filePath(), platform_);
}

void TuningPanel::chooseLog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Tuning Log"), logPath(), tr("Tuning logs (*.json);;All files (*)"), nullptr,
      QFileDialog::DontConfirmOverwrite);  // a log is appended to, never overwritten
  if (!path.isEmpty()) log_->setText(path);
}

void TuningPanel::tune() {
  models::BoardTuning::Request request;
  request.platform = platform_;
  request.trials = trials_->value();
  request.jobs = jobs_->value();
  request.timeBudgetSeconds = budget_->value();
  request.logPath = logPath();
  if (!tuning_->start(request)) {
    status_->setText(tr("<b style='color:#b00020'>Cannot tune:</b> %1")
                         .arg(tuning_->errorMessage().toHtmlEscaped()));
  }
}

void TuningPanel::updateControls() {
  const bool running = tuning_->isRunning();
  platformLabel_->setText(tunable_ ? platform_
                                   : tr("%1 (runs firmware flashed by hand: cannot be tuned)")
                                         .arg(platform_.isEmpty() ? tr("none") : platform_));
  tuneButton_->setEnabled(!running && tunable_ && document_->isLoaded());
  stopButton_->setEnabled(tuning_->state() == models::BoardTuning::State::Running);
  applyButton_->setEnabled(!running && !tuning_->bestSchedules().empty());
  for (QWidget* w : {static_cast<QWidget*>(trials_), static_cast<QWidget*>(jobs_),
                     static_cast<QWidget*>(budget_), static_cast<QWidget*>(log_)}) {
    w->setEnabled(!running);
  }
}

void TuningPanel::updateProgress() {
  using State = models::BoardTuning::State;
  progress_->setMaximum(std::max(1, tuning_->trialsTotal()));
  progress_->setValue(tuning_->trialsDone());
  const QString log = tuning_->logPath().toHtmlEscaped();
  const int records = tuning_->recordsWritten();
  switch (tuning_->state()) {
    case State::Idle:
      status_->setText(
          tr("Not tuned yet. Each trial builds a firmware with one candidate "
             "schedule per workload and measures every operator on the board."));
      break;
    case State::Running:
      status_->setText(
          tuning_->trialsTotal() == 0
              ? tr("Compiling and finding the workloads\u2026")
              : tr("Tuning on <b>%1</b>: %n record(s) appended to %2", nullptr, records)
                    .arg(tuning_->platform().toHtmlEscaped(), log));
      break;
    case State::Stopping:
      status_->setText(tr("Stopping after the trials under way\u2026"));
      break;
    case State::Finished:
      status_->setText(tr("Finished on <b>%1</b>: %n record(s) appended to %2", nullptr, records)
                           .arg(tuning_->platform().toHtmlEscaped(), log));
      break;
    case State::Stopped:
      status_->setText(
          tr("Stopped: %n record(s) kept in %1; Tune on board resumes from it", nullptr, records)
              .arg(log));
      break;
    case State::Failed:
      status_->setText(tr("<b style='color:#b00020'>Tuning failed:</b> %1 (%n record(s) kept "
                          "in %2)",
                          nullptr, records)
                           .arg(tuning_->errorMessage().toHtmlEscaped(), log));
      break;
  }

  const QList<models::TuningRow>& rows = tuning_->rows();
  table_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < rows.size(); ++r) {
    const models::TuningRow& row = rows[r];
    QString speedUp = QStringLiteral("\u2013");
    if (row.defaultCost && row.bestCost && *row.bestCost > 0) {
      speedUp = QStringLiteral("%1\u00d7").arg(*row.defaultCost / *row.bestCost, 0, 'f', 2);
    }
    const QStringList cells = {workloadLabel(r, row),
                               QString::number(row.calls),
                               QStringLiteral("%1 / %2").arg(row.measured).arg(row.candidates),
                               costText(row.defaultCost),
                               costText(row.bestCost),
                               row.bestSchedule,
                               speedUp};
    for (int c = 0; c < ColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c != Workload && c != Schedule) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      item->setToolTip(row.key);
      table_->setItem(r, c, item);
    }
  }
  table_->resizeColumnsToContents();
  updateChart();
  updateControls();
}

void TuningPanel::updateChart() {
  QChart* chart = chartView_->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  const QList<models::TuningRow>& rows = tuning_->rows();
  const QString unit = tuning_->unit().isEmpty() ? tr("cost") : tuning_->unit();
  chart->setTitle(rows.isEmpty() ? QString() : tr("%1 per call, per workload").arg(unit));
  if (rows.isEmpty()) return;

  auto* defaults = new QBarSet(tr("default schedule"));
  auto* best = new QBarSet(tr("best measured"));
  defaults->setColor(QColor(0x9e, 0x9e, 0x9e));
  best->setColor(QColor(0x1f, 0x77, 0xb4));
  QStringList categories;
  double most = 0;
  // Bottom to top in a horizontal chart: the first workload is drawn last.
  for (qsizetype r = rows.size() - 1; r >= 0; --r) {
    const models::TuningRow& row = rows[r];
    categories << workloadLabel(static_cast<int>(r), row);
    *defaults << row.defaultCost.value_or(0);
    *best << row.bestCost.value_or(0);
    most = std::max({most, row.defaultCost.value_or(0), row.bestCost.value_or(0)});
  }
  auto* series = new QHorizontalBarSeries;
  series->append(defaults);
  series->append(best);
  chart->addSeries(series);
  auto* y = new QBarCategoryAxis;
  y->append(categories);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(y);
  auto* x = new QValueAxis;
  x->setRange(0, most > 0 ? most * 1.05 : 1);
  x->setLabelFormat(QStringLiteral("%.0f"));
  x->setTitleText(unit);
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  // Room for every workload's label and its two bars.
  chartView_->setMinimumHeight(std::min(640, 130 + 34 * static_cast<int>(rows.size())));
}

}  // namespace loupe::views
