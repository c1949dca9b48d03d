// Loupe's IDE window: the stage navigator on the left, the current stage's
// views as tabs in the centre, Properties and Problems docks, totals in the
// status bar. It composes models and views around one ModelDocument and owns
// the actions; it holds no compiler logic itself.
#pragma once

#include <QList>
#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "deploy/registries.h"
#include "gui/recent_files.h"
#include "lowering/schedule.h"
#include "models/compilation_stage.h"
#include "target/target_string.h"

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QToolButton;
class QMenu;
class QPlainTextEdit;
class QTabWidget;

namespace loupe::models {
class BoardRun;
class BoardTuning;
class DocumentGraphLayout;
class ModelCompilation;
class ModelDocument;
class NpuCommandStreamModel;
class NpuOperationSelection;
class NpuRegionModel;
class NpuWeightsModel;
class OperatorPropertiesModel;
class OperatorTableModel;
class ProfileTableModel;
class ProblemListModel;
class SerialConsole;
class StageTreeModel;
}  // namespace loupe::models

namespace loupe::views {
class CommandStreamView;
class NpuRegionsView;
class NpuWeightsView;
class DeployPanel;
class DeviceMappingView;
class FunctionListingView;
class GraphIrView;
class GraphView;
class CompareView;
class MemoryPlanView;
class OperatorTableView;
class PassStageView;
class ProblemsView;
class ProfileView;
class DebugTensorView;
class PropertiesView;
class SerialConsolePanel;
class StageNavigator;
class TuningPanel;
}  // namespace loupe::views

namespace loupe::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  struct Options {
    // Show message boxes for errors (off for tests and screenshots, where
    // nobody could close them; errors still go to Problems).
    bool interactive = true;
    // Read and write QSettings (window layout, recent files).
    bool persistSettings = true;
    // The targets and platforms to offer, built once by the app
    // (plugins::builtinRegistries()); required.
    std::shared_ptr<const deploy::Registries> registries;
  };

  explicit MainWindow(Options options, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a model file (or a ":/" resource). A failure is reported and the
  // previous model stays open. Returns whether the model opened.
  bool openModel(const QString& path);

  models::ModelDocument* document() const { return document_; }
  models::ModelCompilation* compilation() const { return compilation_; }
  models::DocumentGraphLayout* graphLayout() const { return graphLayout_; }
  views::GraphView* graphView() const { return graphView_; }
  views::FunctionListingView* tirView() const { return tirView_; }
  views::FunctionListingView* cView() const { return cView_; }
  views::MemoryPlanView* memoryPlanView() const { return memoryPlanView_; }
  views::CompareView* compareView() const { return compareView_; }
  views::DeviceMappingView* deviceMappingView() const { return deviceMappingView_; }
  views::PassStageView* passStageView() const { return passStageView_; }
  views::StageNavigator* stageNavigator() const { return stageNavigator_; }
  views::CommandStreamView* commandStreamView() const { return commandStreamView_; }
  models::NpuOperationSelection* npuOperationSelection() const { return npuSelection_; }
  // The NPU Regions and NPU Weights docks, tabbed with the Command Stream.
  views::NpuRegionsView* npuRegionsView() const { return npuRegionsView_; }
  views::NpuWeightsView* npuWeightsView() const { return npuWeightsView_; }
  models::OperatorPropertiesModel* propertiesModel() const { return propertiesModel_; }
  QComboBox* targetBox() const { return targetBox_; }

  // Compiles for `targetString` ("ethos-u -accelerator_config=ethos-u55-128, c"), parsed here,
  // in the background, and remembers it (QSettings). Returns false, changing
  // nothing, for a string that is not a valid target list.
  bool setTargetString(const QString& targetString);
  // The same for targets parsed already (loupe --target).
  void setTargets(target::TargetList targets);
  models::BoardRun* boardRun() const { return boardRun_; }
  models::ProblemListModel* problemListModel() const { return problemListModel_; }
  views::DeployPanel* deployPanel() const { return deployPanel_; }
  models::BoardTuning* boardTuning() const { return boardTuning_; }
  views::TuningPanel* tuningPanel() const { return tuningPanel_; }
  models::SerialConsole* serialConsole() const { return serialConsole_; }
  views::SerialConsolePanel* serialConsolePanel() const { return serialConsolePanel_; }
  // Compiles the views and Run on board with these schedules (a tuning log's
  // best, named by `source`); empty: the default schedules.
  void applySchedules(const lowering::ScheduleTable& schedules, const QString& source);
  // Reads a tuning log and applies its best schedules; false (with a message
  // in Problems and the status bar) for a log that cannot be read.
  bool applyTuningLog(const QString& path);
  // Run → Use Bundled Tuning Logs: whether a compilation for the chosen
  // board without a log of the user's uses the tuning logs kept with Loupe
  // (on unless turned off; the choice is kept with the other preferences).
  void setBundledTuning(bool on);
  QAction* bundledTuningAction() const { return bundledTuningAction_; }
  views::ProfileView* profileView() const { return profileView_; }
  views::DebugTensorView* debugTensorView() const { return debugTensorView_; }
  QPlainTextEdit* buildLog() const { return buildLog_; }
  QAction* runOnBoardAction() const { return runOnBoardAction_; }
  QToolButton* cancelCompileButton() const { return cancelCompileButton_; }

  // What File > Export writes: "graph-svg", "graph-png", "graph-dot",
  // "memory-csv", "memory-json", "profile-csv", "profile-trace",
  // "operators-csv", "report-html", each with its menu text and file filter.
  struct ExportKind {
    QString name;
    QString menuText;
    QString filter;
  };
  static QList<ExportKind> exportKinds();
  // Writes export `kind` to `path` atomically and names it in the status
  // bar; returns an empty string, or why nothing was written (nothing to
  // export yet, or the file system's reason).
  QString exportTo(const QString& kind, const QString& path);
  // The one-page report of the compilation the views show.
  QByteArray compilationReportHtml() const;

  // Whether compilation, graph layout or a board run is still running in the background.
  bool isBusy() const;
  // Runs the event loop until nothing runs in the background (for
  // screenshots and tests); returns false when `timeoutMs` passed first.
  bool waitUntilIdle(int timeoutMs = 120000);

  // The views by name, for --view: the central "graph", "operators", "ir",
  // "devices", "passes", "tir", "c", "memory", and the docks "deploy", "tune", "profile"
  // and "npu-stream", "npu-regions", "npu-weights" (the Command Stream, NPU
  // Regions and NPU Weights docks of a Vela model's ethos-u operator).
  static QStringList viewNames();
  bool showView(const QString& name);
  QString currentViewName() const;

 protected:
  void showEvent(QShowEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // The bottom docks (Problems, Build Log, Profile, ...) a few lines high
  // while there is nothing to read in them, roomy once there is.
  void fitBottomDocks(bool roomy);
  bool bottomDocksRoomy_ = false;
  // --view npu-stream before the window is shown: the Command Stream dock
  // gets two fifths of the height once it is.
  void fitTallCommandStream();
  bool tallCommandStream_ = false;
  QDockWidget* tallNpuDock_ = nullptr;  // the NPU dock --view raised
  bool settingsRestored_ = false;

  struct StageTab {
    models::CompilationStage stage;
    QString viewName;
    QWidget* widget;
  };

  void createViews();
  void createDocks();
  void createActions();
  void addStageTab(models::CompilationStage stage, const QString& viewName, QWidget* widget,
                   const QString& title);
  void showStage(models::CompilationStage stage);
  void createTargetChoice();
  void showTargets();
  void chooseModelFile();
  void rebuildRecentMenu();
  void showAbout();
  void onModelLoaded();
  void onBoardRunStarted(const QString& platform);
  void onBoardRunFinished();
  void onPlatformChosen();
  void chooseTuningLog();
  void onLoadFailed(const QString& path, const QString& message);
  void updateProblemsTitle();
  void updatePropertiesTitle();
  void updateCompileStatus();
  // "bundled tuning logs (qemu-mps3-an547): 5 of 7 workloads tuned", or
  // empty when the bundled logs tuned nothing of the last compilation.
  QString bundledTuningStatus() const;
  void restoreSettings();
  void saveSettings() const;

  Options options_;
  std::shared_ptr<const deploy::Registries> registries_;
  RecentFiles recentFiles_;

  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  models::DocumentGraphLayout* graphLayout_;
  models::OperatorTableModel* operatorTableModel_;
  models::OperatorPropertiesModel* propertiesModel_;
  models::ProblemListModel* problemListModel_;
  models::StageTreeModel* stageTreeModel_;
  models::BoardRun* boardRun_;
  models::ProfileTableModel* profileTableModel_;
  models::BoardTuning* boardTuning_;
  models::SerialConsole* serialConsole_;
  models::NpuOperationSelection* npuSelection_;
  models::NpuCommandStreamModel* npuCommandStreamModel_;
  models::NpuRegionModel* npuRegionModel_;
  models::NpuWeightsModel* npuWeightsModel_;

  QTabWidget* tabs_ = nullptr;
  QList<StageTab> stageTabs_;
  views::OperatorTableView* operatorTable_ = nullptr;
  views::GraphIrView* graphIrView_ = nullptr;
  views::GraphView* graphView_ = nullptr;
  views::FunctionListingView* tirView_ = nullptr;
  views::FunctionListingView* cView_ = nullptr;
  views::MemoryPlanView* memoryPlanView_ = nullptr;
  views::CompareView* compareView_ = nullptr;
  views::DeviceMappingView* deviceMappingView_ = nullptr;
  views::PassStageView* passStageView_ = nullptr;
  QComboBox* targetBox_ = nullptr;
  QActionGroup* targetActions_ = nullptr;
  views::StageNavigator* stageNavigator_ = nullptr;
  views::PropertiesView* propertiesView_ = nullptr;
  views::ProblemsView* problemsView_ = nullptr;
  QDockWidget* stagesDock_ = nullptr;
  QDockWidget* propertiesDock_ = nullptr;
  QDockWidget* problemsDock_ = nullptr;
  views::DeployPanel* deployPanel_ = nullptr;
  views::ProfileView* profileView_ = nullptr;
  views::DebugTensorView* debugTensorView_ = nullptr;
  QDockWidget* debugDock_ = nullptr;
  QPlainTextEdit* buildLog_ = nullptr;
  QDockWidget* deployDock_ = nullptr;
  views::TuningPanel* tuningPanel_ = nullptr;
  QDockWidget* tuneDock_ = nullptr;
  QDockWidget* profileDock_ = nullptr;
  QDockWidget* buildLogDock_ = nullptr;
  views::SerialConsolePanel* serialConsolePanel_ = nullptr;
  QDockWidget* serialConsoleDock_ = nullptr;
  views::CommandStreamView* commandStreamView_ = nullptr;
  QDockWidget* commandStreamDock_ = nullptr;
  views::NpuRegionsView* npuRegionsView_ = nullptr;
  QDockWidget* npuRegionsDock_ = nullptr;
  views::NpuWeightsView* npuWeightsView_ = nullptr;
  QDockWidget* npuWeightsDock_ = nullptr;
  QAction* runOnBoardAction_ = nullptr;
  QAction* bundledTuningAction_ = nullptr;
  QAction* cancelRunAction_ = nullptr;
  QLabel* totalsLabel_ = nullptr;
  QLabel* fileLabel_ = nullptr;
  QLabel* compileLabel_ = nullptr;
  QToolButton* cancelCompileButton_ = nullptr;
  QMenu* recentMenu_ = nullptr;
};

}  // namespace loupe::gui
