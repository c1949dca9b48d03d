// The Deploy panel: choose a platform (those whose tools are missing are
// greyed out, the tooltip names the Debian package), a serial port and baud
// rate for `serial`, the inputs (a golden set beside the model, whose outputs
// are then compared with TFLite's too; raw .bin files; or random bytes),
// and Run on board / Cancel. Before a run, the memory plan the board needs
// (or why the model does not fit it, and which board it would fit). Below:
// how the outputs compare with the reference interpreter, the stage times,
// or why the run failed.
#pragma once

#include <QWidget>

#include "lowering/schedule.h"
#include "models/board_run.h"
#include "target/target_string.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QTimer;
class QWidget;

namespace loupe::models {
class BoardFitCheck;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class SerialPortBox;

class DeployPanel : public QWidget {
  Q_OBJECT

 public:
  DeployPanel(models::ModelDocument* document, models::BoardRun* run, models::BoardFitCheck* fit,
              QWidget* parent = nullptr);

  QComboBox* platformBox() const { return platform_; }
  QComboBox* portBox() const;
  QPushButton* runButton() const { return runButton_; }
  QPushButton* debugButton() const { return debugButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QLabel* resultLabel() const { return result_; }
  QComboBox* goldenSetBox() const { return goldenSet_; }
  models::BoardFitCheck* fitCheck() const { return fitCheck_; }
  QLabel* fitLabel() const { return fit_; }
  // Whether the check of the chosen board's fit is due or under way.
  bool isCheckingFit() const;
  bool waitUntilFitChecked(int timeoutMs);

  // The targets Run on board compiles for ("ethos-u -accelerator_config=ethos-u55-128, c"); the
  // window passes the ones the views were compiled for.
  void setTargets(target::TargetList targets);
  // The schedules Run on board applies (the window's tuning log), and the
  // log's name shown beside the targets; empty: default schedules.
  void setSchedules(lowering::ScheduleTable schedules, const QString& source);
  // Without those, whether Run on board is offered the bundled tuning logs'
  // schedules for its board (Run → Use Bundled Tuning Logs), and what they
  // covered when the views were compiled ("bundled tuning logs
  // (qemu-mps3-an547): 5 of 7 workloads tuned"; empty: nothing tuned).
  void setBundledTuning(bool on, const QString& status);
  QString targetString() const;
  // Whether Run on board plans outputs over their dying inputs, as the views
  // were compiled (the Memory Plan view's Overlap outputs).
  void setOverlapOutputs(bool on);
  bool overlapOutputs() const { return overlapOutputs_; }
  // And whether it runs the first operators in patches (the view's Patches).
  void setPatches(bool on);
  bool patches() const { return patches_; }

  // Selects `name` when it is listed and available; returns whether it did.
  bool selectPlatform(const QString& name);
  QString selectedPlatform() const;
  // The selected platform as listed (its CPU, whether it builds firmware);
  // a default choice when none is selected.
  models::PlatformChoice selectedPlatformChoice() const;

 signals:
  // Emitted just before a run starts, with the serial port it will open
  // (empty when the platform uses none), so whoever holds the port (the
  // Serial Console) can let go of it first.
  void aboutToRun(const QString& port);

 public slots:
  // Starts a run with the panel's settings (the Run on board action).
  void runOnBoard();
  // A debug run: every tensor read back and compared (BoardRun::Request::debug);
  // `corruptOperator` (demos, --corrupt-operator) changes one of its weight bytes.
  void debugOnBoard(std::optional<int> corruptOperator = std::nullopt);

 private:
  void updateControls();
  // Checks again, shortly: several settings often change at once.
  void scheduleFitCheck();
  void updateFit();
  models::BoardRun::Request request() const;
  void rebuildOptionFields();
  std::map<std::string, std::string> optionValues() const;
  void updateResult();
  void loadInputs();
  void refreshGoldenSets();

  models::ModelDocument* document_;
  models::BoardRun* run_;
  models::BoardFitCheck* fitCheck_;
  QTimer* fitTimer_;
  QList<models::PlatformChoice> choices_;  // in the platform box's order
  QComboBox* platform_;
  QLabel* description_;
  QFormLayout* form_ = nullptr;
  QWidget* serialRow_;
  // The selected platform's project options, one field each (a QComboBox
  // for choices, else a QLineEdit), rebuilt when the platform changes.
  QWidget* optionsRow_;
  QFormLayout* optionsForm_ = nullptr;
  QString optionsPlatform_;
  SerialPortBox* port_;
  QSpinBox* baud_;
  QLabel* targets_;
  target::TargetList targetList_;
  QLabel* schedules_;
  lowering::ScheduleTable scheduleTable_;
  bool overlapOutputs_ = false;
  bool patches_ = false;
  QString schedulesSource_;
  bool bundledTuning_ = false;
  QString bundledStatus_;
  QLabel* inputs_;
  QComboBox* goldenSet_;
  QLabel* fit_;
  QPushButton* runButton_;
  QPushButton* debugButton_;
  QPushButton* cancelButton_;
  QLabel* result_;
};

}  // namespace loupe::views
