#include "views/deploy_panel.h"

#include <QComboBox>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>

#include "models/board_fit_check.h"
#include "models/board_run.h"
#include "models/model_document.h"
#include "views/serial_port_box.h"

namespace loupe::views {

DeployPanel::DeployPanel(models::ModelDocument* document, models::BoardRun* run,
                         models::BoardFitCheck* fit, QWidget* parent)
    : QWidget(parent),
      document_(document),
      run_(run),
      fitCheck_(fit),
      fitTimer_(new QTimer(this)),
      platform_(new QComboBox(this)),
      description_(new QLabel(this)),
      serialRow_(new QWidget(this)),
      optionsRow_(new QWidget(this)),
      port_(new SerialPortBox(serialRow_)),
      baud_(new QSpinBox(serialRow_)),
      targets_(new QLabel(this)),
      schedules_(new QLabel(this)),
      inputs_(new QLabel(this)),
      goldenSet_(new QComboBox(this)),
      fit_(new QLabel(this)),
      runButton_(new QPushButton(tr("Run on board"), this)),
      debugButton_(new QPushButton(tr("Debug on board"), this)),
      cancelButton_(new QPushButton(tr("Cancel"), this)),
      result_(new QLabel(this)) {
  platform_->setObjectName(QStringLiteral("platformBox"));
  port_->comboBox()->setObjectName(QStringLiteral("portBox"));
  runButton_->setObjectName(QStringLiteral("runOnBoardButton"));
  debugButton_->setObjectName(QStringLiteral("debugOnBoardButton"));
  cancelButton_->setObjectName(QStringLiteral("cancelRunButton"));
  result_->setObjectName(QStringLiteral("deployResult"));
  goldenSet_->setObjectName(QStringLiteral("goldenSetBox"));
  fit_->setObjectName(QStringLiteral("boardFit"));

  // Unavailable platforms stay listed, disabled, with what to install.
  auto* items = new QStandardItemModel(platform_);
  choices_ = run_->platforms();
  for (const models::PlatformChoice& choice : choices_) {
    auto* item = new QStandardItem(choice.name);
    item->setData(choice.description, Qt::UserRole);
    if (choice.available) {
      item->setToolTip(choice.description);
    } else if (!choice.problem.isEmpty()) {
      item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
      item->setText(tr("%1 (unavailable)").arg(choice.name));
      item->setToolTip(tr("%1\n%2").arg(choice.description, choice.problem));
    } else {
      item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
      item->setText(tr("%1 (not installed)").arg(choice.name));
      item->setToolTip(tr("%1\nInstall: apt install %2")
                           .arg(choice.description, choice.missingPackages.join(u' ')));
    }
    item->setData(choice.name, Qt::UserRole + 1);
    item->setData(choice.needsPort, Qt::UserRole + 2);
    items->appendRow(item);
  }
  platform_->setModel(items);
  description_->setWordWrap(true);
  description_->setStyleSheet(QStringLiteral("color: palette(mid)"));

  baud_->setRange(1200, 4000000);
  baud_->setValue(115200);
  auto* serialLayout = new QHBoxLayout(serialRow_);
  serialLayout->setContentsMargins(0, 0, 0, 0);
  serialLayout->addWidget(new QLabel(tr("Port"), serialRow_));
  serialLayout->addWidget(port_, 1);
  serialLayout->addWidget(new QLabel(tr("Baud"), serialRow_));
  serialLayout->addWidget(baud_);

  auto* loadInputs = new QPushButton(tr("Load inputs\u2026"), this);
  loadInputs->setToolTip(tr("Raw little-endian .bin files, one per model input, in order"));
  connect(loadInputs, &QPushButton::clicked, this, &DeployPanel::loadInputs);
  auto* randomInputs = new QPushButton(tr("Random"), this);
  randomInputs->setToolTip(tr("Random bytes with seed 1"));
  connect(randomInputs, &QPushButton::clicked, this, [this] {
    run_->setInputFiles({});
    updateControls();
  });
  goldenSet_->setPlaceholderText(tr("Golden set"));
  goldenSet_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  connect(goldenSet_, &QComboBox::activated, this, [this](int index) {
    run_->setGoldenSet(goldenSet_->itemText(index));
    updateControls();
  });
  inputs_->setWordWrap(true);
  auto* inputButtons = new QHBoxLayout;
  inputButtons->addWidget(goldenSet_);
  inputButtons->addWidget(loadInputs);
  inputButtons->addWidget(randomInputs);
  inputButtons->addStretch(1);

  fit_->setWordWrap(true);
  fit_->setTextFormat(Qt::RichText);
  fit_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fitTimer_->setSingleShot(true);
  fitTimer_->setInterval(100);
  connect(fitTimer_, &QTimer::timeout, this, [this] { fitCheck_->check(request()); });
  connect(fitCheck_, &models::BoardFitCheck::changed, this, &DeployPanel::updateFit);

  runButton_->setToolTip(tr("Build, flash and run the model on the platform (Ctrl+R)"));
  connect(runButton_, &QPushButton::clicked, this, &DeployPanel::runOnBoard);
  debugButton_->setToolTip(
      tr("Run a debug build: every tensor comes back from the board as it is written and is "
         "compared with the golden set's per-tensor dump or the reference interpreter; the "
         "graph marks each operator exact or differs and the first difference is selected"));
  connect(debugButton_, &QPushButton::clicked, this, [this] { debugOnBoard(); });
  connect(cancelButton_, &QPushButton::clicked, run_, &models::BoardRun::cancel);
  auto* runButtons = new QHBoxLayout;
  runButtons->addWidget(runButton_);
  runButtons->addWidget(debugButton_);
  runButtons->addWidget(cancelButton_);
  runButtons->addStretch(1);

  result_->setWordWrap(true);
  result_->setTextFormat(Qt::RichText);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  result_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

  form_ = new QFormLayout;
  auto* form = form_;
  form->addRow(tr("Platform"), platform_);
  form->addRow(QString(), description_);
  form->addRow(tr("Serial"), serialRow_);
  optionsForm_ = new QFormLayout(optionsRow_);
  optionsForm_->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("Options"), optionsRow_);
  form->addRow(tr("Targets"), targets_);
  form->addRow(tr("Schedules"), schedules_);
  form->addRow(tr("Inputs"), inputs_);
  form->addRow(QString(), inputButtons);
  form->addRow(tr("Memory"), fit_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(runButtons);
  layout->addWidget(result_, 1);

  connect(platform_, &QComboBox::currentIndexChanged, this, &DeployPanel::updateControls);
  connect(platform_, &QComboBox::currentIndexChanged, this, &DeployPanel::scheduleFitCheck);
  connect(run_, &models::BoardRun::runningChanged, this, &DeployPanel::updateControls);
  connect(run_, &models::BoardRun::finished, this, &DeployPanel::updateResult);
  connect(run_, &models::BoardRun::started, this, &DeployPanel::updateResult);
  connect(document_, &models::ModelDocument::modelLoaded, this, [this] {
    refreshGoldenSets();
    updateControls();
    updateResult();
    scheduleFitCheck();
  });
  refreshGoldenSets();
  selectPlatform(QStringLiteral("host"));
  updateControls();
  updateResult();
  updateFit();
  scheduleFitCheck();
}

bool DeployPanel::selectPlatform(const QString& name) {
  const auto* items = static_cast<QStandardItemModel*>(platform_->model());
  for (int row = 0; row < items->rowCount(); ++row) {
    const QStandardItem* item = items->item(row);
    if (item->data(Qt::UserRole + 1).toString() == name && item->isEnabled()) {
      platform_->setCurrentIndex(row);
      return true;
    }
  }
  return false;
}

models::PlatformChoice DeployPanel::selectedPlatformChoice() const {
  return choices_.value(platform_->currentIndex());
}

QString DeployPanel::selectedPlatform() const {
  return platform_->currentData(Qt::UserRole + 1).toString();
}

QComboBox* DeployPanel::portBox() const {
  return port_->comboBox();
}

void DeployPanel::loadInputs() {
  const QStringList files = QFileDialog::getOpenFileNames(this, tr("Load Inputs"), QString(),
                                                          tr("Raw tensors (*.bin);;All files (*)"));
  if (files.isEmpty()) return;
  run_->setInputFiles(files);
  updateControls();
}

void DeployPanel::setTargets(target::TargetList targets) {
  targetList_ = std::move(targets);
  updateControls();
  scheduleFitCheck();
}

void DeployPanel::setSchedules(lowering::ScheduleTable schedules, const QString& source) {
  scheduleTable_ = std::move(schedules);
  schedulesSource_ = source;
  updateControls();
  scheduleFitCheck();
}

void DeployPanel::setBundledTuning(bool on, const QString& status) {
  if (on == bundledTuning_ && status == bundledStatus_) return;
  const bool changed = on != bundledTuning_;
  bundledTuning_ = on;
  bundledStatus_ = status;
  updateControls();
  if (changed) scheduleFitCheck();
}

void DeployPanel::setOverlapOutputs(bool on) {
  overlapOutputs_ = on;
  scheduleFitCheck();
}

void DeployPanel::setPatches(bool on) {
  patches_ = on;
  scheduleFitCheck();
}

void DeployPanel::scheduleFitCheck() {
  fitTimer_->start();
}

bool DeployPanel::isCheckingFit() const {
  return fitTimer_->isActive() || fitCheck_->state() == models::BoardFitCheck::State::Checking;
}

bool DeployPanel::waitUntilFitChecked(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (isCheckingFit() && !deadline.hasExpired()) {
    QEventLoop loop;
    connect(fitCheck_, &models::BoardFitCheck::changed, &loop, &QEventLoop::quit);
    QTimer::singleShot(std::min<qint64>(100, std::max<qint64>(1, deadline.remainingTime())), &loop,
                       &QEventLoop::quit);
    loop.exec();
  }
  return !isCheckingFit();
}

void DeployPanel::updateFit() {
  using State = models::BoardFitCheck::State;
  const QString board = fitCheck_->platform().toHtmlEscaped();
  const QString text = fitCheck_->text().toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
  QString html;
  switch (fitCheck_->state()) {
    case State::None:
      html = tr("<span style='color:#777'>no memory limit to check</span>");
      break;
    case State::Checking:
      html = tr("<span style='color:#777'>%1</span>").arg(text);
      break;
    case State::Fits:
      html = tr("<span style='color:#1b7a1b'>\u2714 %1:</span> %2").arg(board, text);
      break;
    case State::DoesNotFit:
      html = tr("<b style='color:#b00020'>\u2718 Does not fit:</b> %1").arg(text);
      break;
    case State::Failed:
      html = tr("<b style='color:#b00020'>Cannot compile for %1:</b> %2").arg(board, text);
      break;
  }
  fit_->setText(html);
}

QString DeployPanel::targetString() const {
  return QString::fromStdString(target::targetListString(targetList_));
}

void DeployPanel::refreshGoldenSets() {
  goldenSet_->clear();
  goldenSet_->addItems(run_->goldenSetNames());
  goldenSet_->setEnabled(goldenSet_->count() > 0);
  QString tip = goldenSet_->count() > 0
                    ? tr("TFLite's inputs and outputs from the golden/ folder beside the model")
                    : tr("No golden/ folder with sets for this model beside it");
  const QStringList skipped = run_->skippedGoldenSets();
  if (!skipped.isEmpty()) tip += tr("\nLeft out:\n") + skipped.join(u'\n');
  goldenSet_->setToolTip(tip);
}

models::BoardRun::Request DeployPanel::request() const {
  models::BoardRun::Request request;
  request.platform = selectedPlatform();
  request.port = port_->port();
  request.baud = static_cast<quint32>(baud_->value());
  request.options = optionValues();
  request.targets = targetList_;
  request.schedules = scheduleTable_;
  request.bundledTuning = bundledTuning_;
  request.overlapOutputs = overlapOutputs_;
  request.patches = patches_;
  return request;
}

void DeployPanel::runOnBoard() {
  const models::BoardRun::Request chosen = request();
  emit aboutToRun(platform_->currentData(Qt::UserRole + 2).toBool() ? chosen.port : QString());
  run_->start(chosen);
}

void DeployPanel::debugOnBoard(std::optional<int> corruptOperator) {
  models::BoardRun::Request chosen = request();
  chosen.debug = true;
  chosen.corruptOperator = corruptOperator;
  emit aboutToRun(platform_->currentData(Qt::UserRole + 2).toBool() ? chosen.port : QString());
  run_->start(chosen);
}

void DeployPanel::updateControls() {
  const bool running = run_->isRunning();
  form_->setRowVisible(serialRow_, platform_->currentData(Qt::UserRole + 2).toBool());
  if (optionsPlatform_ != selectedPlatform()) rebuildOptionFields();
  form_->setRowVisible(optionsRow_, optionsForm_->rowCount() > 0);
  optionsRow_->setEnabled(!running);
  description_->setText(platform_->currentData(Qt::UserRole).toString());
  targets_->setText(targetString());
  targets_->setToolTip(
      tr("As chosen in the toolbar's Target box; the firmware runs Ethos-U operators on "
         "Loupe's functional model of the NPU"));
  if (!schedulesSource_.isEmpty()) {
    schedules_->setText(
        tr("%n tuned workload(s) from %1", nullptr, static_cast<int>(scheduleTable_.size()))
            .arg(schedulesSource_));
  } else if (bundledTuning_ && !bundledStatus_.isEmpty()) {
    schedules_->setText(bundledStatus_);
  } else {
    schedules_->setText(tr("default"));
  }
  schedules_->setToolTip(
      tr("Apply or clear a tuning log in the Tune panel or the Run menu, or turn the bundled "
         "tuning logs off there; operators without a tuned schedule keep their default"));
  inputs_->setText(run_->inputsDescription());
  goldenSet_->setCurrentIndex(
      run_->goldenSet().isEmpty() ? -1 : goldenSet_->findText(run_->goldenSet()));
  platform_->setEnabled(!running);
  runButton_->setEnabled(!running && document_->isLoaded() && !selectedPlatform().isEmpty());
  debugButton_->setEnabled(runButton_->isEnabled());
  cancelButton_->setEnabled(running);
}

void DeployPanel::rebuildOptionFields() {
  optionsPlatform_ = selectedPlatform();
  while (optionsForm_->rowCount() > 0) optionsForm_->removeRow(0);
  for (const deploy::ProjectOption& option : selectedPlatformChoice().options) {
    const QString name = QString::fromStdString(option.name);
    QWidget* field = nullptr;
    if (!option.choices.empty()) {
      auto* box = new QComboBox(optionsRow_);
      for (const auto& choice : option.choices) box->addItem(QString::fromStdString(choice));
      box->setCurrentText(QString::fromStdString(option.defaultValue));
      field = box;
    } else {
      auto* line = new QLineEdit(optionsRow_);
      line->setPlaceholderText(
          option.defaultValue.empty() ? tr("(none)") : QString::fromStdString(option.defaultValue));
      field = line;
    }
    field->setObjectName(QStringLiteral("option_") + name);
    field->setToolTip(QString::fromStdString(option.help));
    optionsForm_->addRow(name, field);
  }
}

std::map<std::string, std::string> DeployPanel::optionValues() const {
  std::map<std::string, std::string> values;
  for (const deploy::ProjectOption& option : selectedPlatformChoice().options) {
    const QString name = QStringLiteral("option_") + QString::fromStdString(option.name);
    if (const auto* box = optionsRow_->findChild<QComboBox*>(name)) {
      values[option.name] = box->currentText().toStdString();
    } else if (const auto* line = optionsRow_->findChild<QLineEdit*>(name)) {
      if (!line->text().trimmed().isEmpty())
        values[option.name] = line->text().trimmed().toStdString();
    }
  }
  return values;
}

void DeployPanel::updateResult() {
  using State = models::BoardRun::State;
  QString html;
  switch (run_->state()) {
    case State::Idle:
      html = tr("Not run yet. Choose a platform and press <b>Run on board</b>.");
      break;
    case State::Running:
      html = tr("Running on <b>%1</b>\u2026 (progress in the Build Log)")
                 .arg(run_->platform().toHtmlEscaped());
      break;
    case State::Failed:
      html = tr("<b style='color:#b00020'>Run on %1 failed:</b> %2")
                 .arg(run_->platform().toHtmlEscaped(), run_->errorMessage().toHtmlEscaped());
      break;
    case State::Succeeded: {
      html = tr("Ran on <b>%1</b> (%2):")
                 .arg(run_->platform().toHtmlEscaped(), run_->boardName().toHtmlEscaped());
      html += QStringLiteral("<ul style='margin-left:-20px'>");
      for (const models::OutputCheck& check : run_->outputChecks()) {
        // Green either way when it agrees, but a float32 output within the
        // tolerance is marked "≈", not "✔": it is not bit-exact.
        html += QStringLiteral("<li style='color:%1'>%2 %3")
                    .arg(check.agrees ? QStringLiteral("#1b7a1b") : QStringLiteral("#b00020"),
                         check.bitExact ? QStringLiteral("\u2714")
                         : check.agrees ? QStringLiteral("\u2248")
                                        : QStringLiteral("\u2718"),
                         check.message.toHtmlEscaped());
        if (!check.metrics.isEmpty()) {
          html += QStringLiteral("<br><span style='color:#555'>%1</span>")
                      .arg(check.metrics.toHtmlEscaped());
        }
        html += QStringLiteral("</li>");
      }
      html += QStringLiteral("</ul>");
      if (const auto& debug = run_->debugFindings()) {
        html += tr("<span style='color:%1'>Debug: %2</span><br>")
                    .arg(debug->firstDiffering >= 0 ? QStringLiteral("#c62828")
                                                    : QStringLiteral("#2e7d32"),
                         debug->summary.toHtmlEscaped());
      }
      if (!run_->planNote().isEmpty()) {
        html += tr("Memory plan: %1<br>").arg(run_->planNote().toHtmlEscaped());
      }
      const auto& t = run_->times();
      html += tr("generate %1 s \u00b7 build %2 s \u00b7 flash %3 s \u00b7 run %4 s")
                  .arg(t.generate, 0, 'f', 2)
                  .arg(t.build, 0, 'f', 2)
                  .arg(t.flash, 0, 'f', 2)
                  .arg(t.run, 0, 'f', 3);
      break;
    }
  }
  result_->setText(html);
}

}  // namespace loupe::views
