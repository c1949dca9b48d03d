#include "gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QImage>
#include <QLabel>
#include <QLayout>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <stdexcept>

#include "gui/bundled_model.h"
#include "loupe_version.h"
#include "models/board_fit_check.h"
#include "models/board_run.h"
#include "models/board_tuning.h"
#include "models/compilation_comparison.h"
#include "models/compilation_report.h"
#include "models/display_text.h"
#include "models/document_graph_layout.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/npu_command_stream_model.h"
#include "models/npu_operation_selection.h"
#include "models/npu_region_model.h"
#include "models/npu_weights_model.h"
#include "models/operator_properties_model.h"
#include "models/operator_table_model.h"
#include "models/problem_list_model.h"
#include "models/profile_table_model.h"
#include "models/serial_console.h"
#include "models/stage_tree_model.h"
#include "models/target_choice.h"
#include "models/view_exports.h"
#include "views/command_stream_view.h"
#include "views/compare_view.h"
#include "views/debug_tensor_view.h"
#include "views/deploy_panel.h"
#include "views/device_mapping_view.h"
#include "views/function_listing_view.h"
#include "views/graph_ir_view.h"
#include "views/graph_view.h"
#include "views/memory_plan_view.h"
#include "views/memory_timeline_chart.h"
#include "views/npu_regions_view.h"
#include "views/npu_weights_view.h"
#include "views/operator_table_view.h"
#include "views/pass_stage_view.h"
#include "views/problems_view.h"
#include "views/profile_view.h"
#include "views/properties_view.h"
#include "views/serial_console_panel.h"
#include "views/stage_navigator.h"
#include "views/tuning_panel.h"

namespace loupe::gui {

using models::CompilationStage;

namespace {

const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kLastDirectoryKey = "mainWindow/lastDirectory";
const char* const kTargetKey = "compile/target";
const char* const kBundledTuningKey = "compile/bundledTuning";

// The first local .tflite file among dropped URLs, or an empty string.
QString droppedModel(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (url.isLocalFile() &&
        url.toLocalFile().endsWith(QStringLiteral(".tflite"), Qt::CaseInsensitive)) {
      return url.toLocalFile();
    }
  }
  return {};
}

}  // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      registries_(options.registries ? options.registries
                                     : throw std::invalid_argument("MainWindow needs registries")),
      recentFiles_(options.persistSettings),
      document_(new models::ModelDocument(this)),
      compilation_(new models::ModelCompilation(
          document_, registries_->targets,
          target::parseTargetString(models::kDefaultTargetString, registries_->targets), this)),
      graphLayout_(new models::DocumentGraphLayout(document_, this)),
      operatorTableModel_(new models::OperatorTableModel(document_, this)),
      propertiesModel_(new models::OperatorPropertiesModel(document_, this)),
      problemListModel_(new models::ProblemListModel(document_, this)),
      stageTreeModel_(new models::StageTreeModel(document_, this)),
      boardRun_(new models::BoardRun(document_, *registries_, this)),
      profileTableModel_(new models::ProfileTableModel(boardRun_, this)),
      boardTuning_(new models::BoardTuning(document_, *registries_, this)),
      serialConsole_(new models::SerialConsole(this)),
      npuSelection_(new models::NpuOperationSelection(document_, this)),
      npuCommandStreamModel_(new models::NpuCommandStreamModel(document_, compilation_, this)),
      npuRegionModel_(new models::NpuRegionModel(document_, npuSelection_, this)),
      npuWeightsModel_(new models::NpuWeightsModel(document_, npuSelection_, this)) {
  setWindowTitle(QStringLiteral("Loupe"));
  setAcceptDrops(true);
  // IDE layout: the side docks run the full height, Problems sits under the
  // central tabs only.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  setDockOptions(AnimatedDocks | AllowTabbedDocks);

  createViews();
  createDocks();
  createActions();
  createTargetChoice();

  problemListModel_->attachCompilation(compilation_);
  stageTreeModel_->attachCompilation(compilation_);
  propertiesModel_->attachCompilation(compilation_);
  // The graph shows where each operator runs once the model compiled.
  connect(compilation_, &models::ModelCompilation::compiled, this,
          [this] { graphView_->setDeviceMapping(compilation_->deviceMapping()); });
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          [this] { graphView_->setDeviceMapping({}); });
  // Full-detail nodes show the bytes alive at their step.
  connect(compilation_, &models::ModelCompilation::memoryPlanChanged, this, [this] {
    graphView_->setLiveBytes(
        compilation_->memoryPlan().liveBytesByModelOperator(document_->operatorCount()));
  });
  problemListModel_->attachBoardRun(boardRun_);
  problemListModel_->attachBoardTuning(boardTuning_);

  totalsLabel_ = new QLabel(this);
  fileLabel_ = new QLabel(this);
  compileLabel_ = new QLabel(this);
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The totals give way (clipped) before the window grows past the size
  // the user gave it.
  totalsLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  statusBar()->addWidget(totalsLabel_, 1);
  // While a compilation runs: its stage, and a button that stops it.
  cancelCompileButton_ = new QToolButton(this);
  cancelCompileButton_->setObjectName(QStringLiteral("cancelCompileButton"));
  cancelCompileButton_->setText(tr("Cancel"));
  cancelCompileButton_->setToolTip(
      tr("Stop the compilation (Compile > Recompile starts it again)"));
  cancelCompileButton_->hide();
  connect(cancelCompileButton_, &QToolButton::clicked, compilation_,
          &models::ModelCompilation::cancel);
  statusBar()->addPermanentWidget(compileLabel_);
  statusBar()->addPermanentWidget(cancelCompileButton_);
  statusBar()->addPermanentWidget(fileLabel_);
  totalsLabel_->setText(tr("No model open"));

  connect(document_, &models::ModelDocument::modelLoaded, this, &MainWindow::onModelLoaded);
  connect(document_, &models::ModelDocument::loadFailed, this, &MainWindow::onLoadFailed);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &MainWindow::updatePropertiesTitle);
  connect(compilation_, &models::ModelCompilation::busyChanged, this,
          &MainWindow::updateCompileStatus);
  connect(compilation_, &models::ModelCompilation::memoryPlanChanged, this,
          &MainWindow::updateCompileStatus);
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          &MainWindow::updateCompileStatus);
  connect(compilation_, &models::ModelCompilation::progressChanged, this,
          [this](const QString& stage) {
            if (compilation_->state() == models::ModelCompilation::State::Compiling) {
              compileLabel_->setText(tr("compiling: %1\u2026").arg(stage));
            }
          });
  connect(boardRun_, &models::BoardRun::started, this, &MainWindow::onBoardRunStarted);
  connect(boardRun_, &models::BoardRun::finished, this, &MainWindow::onBoardRunFinished);
  connect(boardRun_, &models::BoardRun::progress, buildLog_, &QPlainTextEdit::appendPlainText);
  // Once there is a profile, the graph shows where the time goes.
  connect(boardRun_, &models::BoardRun::profileChanged, this, [this] {
    graphView_->setOperatorTimes(boardRun_->operatorTimes(), boardRun_->profileUnit());
    if (!boardRun_->operatorTimes().empty())
      graphView_->setColourBy(views::GraphView::ColourBy::Time);
  });
  connect(problemListModel_, &QAbstractItemModel::modelReset, this,
          &MainWindow::updateProblemsTitle);
  updateProblemsTitle();

  resize(1400, 900);
  resizeDocks({stagesDock_, propertiesDock_}, {160, 400}, Qt::Horizontal);
  if (options_.persistSettings) restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews() {
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);

  graphView_ = new views::GraphView(document_, graphLayout_, this);
  graphView_->setObjectName(QStringLiteral("graphView"));
  graphView_->setNpuOperationSelection(npuSelection_);
  addStageTab(CompilationStage::Imported, QStringLiteral("graph"), graphView_, tr("Graph"));

  operatorTable_ = new views::OperatorTableView(document_, operatorTableModel_, this);
  operatorTable_->setObjectName(QStringLiteral("operatorTable"));
  addStageTab(CompilationStage::Imported, QStringLiteral("operators"), operatorTable_,
              tr("Operators"));

  graphIrView_ = new views::GraphIrView(document_, this);
  graphIrView_->setObjectName(QStringLiteral("graphIrView"));
  addStageTab(CompilationStage::Imported, QStringLiteral("ir"), graphIrView_, tr("Graph IR"));

  deviceMappingView_ = new views::DeviceMappingView(document_, compilation_, this);
  deviceMappingView_->setObjectName(QStringLiteral("deviceMappingView"));
  addStageTab(CompilationStage::Partitioned, QStringLiteral("devices"), deviceMappingView_,
              tr("Devices"));

  passStageView_ = new views::PassStageView(compilation_, this);
  passStageView_->setObjectName(QStringLiteral("passStageView"));
  addStageTab(CompilationStage::Fused, QStringLiteral("passes"), passStageView_, tr("Passes"));

  tirView_ = new views::FunctionListingView(views::FunctionListingView::Language::Tir, document_,
                                            compilation_, this);
  tirView_->setObjectName(QStringLiteral("tirView"));
  addStageTab(CompilationStage::Tir, QStringLiteral("tir"), tirView_, tr("TIR"));

  cView_ = new views::FunctionListingView(views::FunctionListingView::Language::C, document_,
                                          compilation_, this);
  cView_->setObjectName(QStringLiteral("cView"));
  addStageTab(CompilationStage::C, QStringLiteral("c"), cView_, tr("C"));

  memoryPlanView_ = new views::MemoryPlanView(document_, compilation_, this);
  memoryPlanView_->setObjectName(QStringLiteral("memoryPlanView"));
  addStageTab(CompilationStage::MemoryPlan, QStringLiteral("memory"), memoryPlanView_,
              tr("Memory Plan"));
  compareView_ = new views::CompareView(document_, compilation_, *registries_, this);
  compareView_->setObjectName(QStringLiteral("compareView"));
  tabs_->addTab(compareView_, tr("Compare"));
  // The graph is the first thing a user sees.
  tabs_->setCurrentWidget(graphView_);
}

void MainWindow::addStageTab(CompilationStage stage, const QString& viewName, QWidget* widget,
                             const QString& title) {
  stageTabs_.append({stage, viewName, widget});
  tabs_->addTab(widget, title);
}

void MainWindow::createDocks() {
  stageNavigator_ = new views::StageNavigator(stageTreeModel_, this);
  stageNavigator_->setObjectName(QStringLiteral("stageNavigator"));
  connect(stageNavigator_, &views::StageNavigator::stageActivated, this, &MainWindow::showStage);
  stagesDock_ = new QDockWidget(tr("Stages"), this);
  stagesDock_->setObjectName(QStringLiteral("stagesDock"));
  stagesDock_->setWidget(stageNavigator_);
  addDockWidget(Qt::LeftDockWidgetArea, stagesDock_);
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    for (const StageTab& tab : stageTabs_) {
      if (tab.widget == tabs_->currentWidget()) stageNavigator_->selectStage(tab.stage);
    }
  });

  propertiesView_ = new views::PropertiesView(propertiesModel_, this);
  propertiesView_->setObjectName(QStringLiteral("propertiesView"));
  propertiesDock_ = new QDockWidget(tr("Properties"), this);
  propertiesDock_->setObjectName(QStringLiteral("propertiesDock"));
  propertiesDock_->setWidget(propertiesView_);
  addDockWidget(Qt::RightDockWidgetArea, propertiesDock_);

  problemsView_ = new views::ProblemsView(document_, problemListModel_, this);
  problemsView_->setObjectName(QStringLiteral("problemsView"));
  problemsDock_ = new QDockWidget(tr("Problems"), this);
  problemsDock_->setObjectName(QStringLiteral("problemsDock"));
  problemsDock_->setWidget(problemsView_);
  addDockWidget(Qt::BottomDockWidgetArea, problemsDock_);

  deployPanel_ = new views::DeployPanel(
      document_, boardRun_, new models::BoardFitCheck(document_, *registries_, this), this);
  deployPanel_->setObjectName(QStringLiteral("deployPanel"));
  deployDock_ = new QDockWidget(tr("Deploy"), this);
  deployDock_->setObjectName(QStringLiteral("deployDock"));
  deployDock_->setWidget(deployPanel_);
  addDockWidget(Qt::RightDockWidgetArea, deployDock_);
  tabifyDockWidget(propertiesDock_, deployDock_);

  tuningPanel_ = new views::TuningPanel(document_, boardTuning_, this);
  tuningPanel_->setObjectName(QStringLiteral("tuningPanel"));
  tuneDock_ = new QDockWidget(tr("Tune"), this);
  tuneDock_->setObjectName(QStringLiteral("tuneDock"));
  tuneDock_->setWidget(tuningPanel_);
  addDockWidget(Qt::RightDockWidgetArea, tuneDock_);
  tabifyDockWidget(deployDock_, tuneDock_);
  propertiesDock_->raise();
  // The views show the code for the board chosen in the Deploy panel (its
  // instruction set's kernels), and the Tune panel tunes on that board.
  connect(deployPanel_->platformBox(), &QComboBox::currentIndexChanged, this,
          &MainWindow::onPlatformChosen);
  connect(tuningPanel_, &views::TuningPanel::applySchedules, this, &MainWindow::applySchedules);
  onPlatformChosen();

  buildLog_ = new QPlainTextEdit(this);
  buildLog_->setObjectName(QStringLiteral("buildLog"));
  buildLog_->setReadOnly(true);
  buildLog_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  buildLog_->setPlaceholderText(
      tr("Run on board (Ctrl+R) to see the build and deploy steps here."));
  buildLogDock_ = new QDockWidget(tr("Build Log"), this);
  buildLogDock_->setObjectName(QStringLiteral("buildLogDock"));
  buildLogDock_->setWidget(buildLog_);
  addDockWidget(Qt::BottomDockWidgetArea, buildLogDock_);
  tabifyDockWidget(problemsDock_, buildLogDock_);

  serialConsolePanel_ = new views::SerialConsolePanel(serialConsole_, this);
  serialConsolePanel_->setObjectName(QStringLiteral("serialConsolePanel"));
  serialConsoleDock_ = new QDockWidget(tr("Serial Console"), this);
  serialConsoleDock_->setObjectName(QStringLiteral("serialConsoleDock"));
  serialConsoleDock_->setWidget(serialConsolePanel_);
  addDockWidget(Qt::BottomDockWidgetArea, serialConsoleDock_);
  tabifyDockWidget(problemsDock_, serialConsoleDock_);
  // A run on the console's port borrows it, and gives it back when done;
  // the board's LOG lines of the run show in the console too.
  connect(deployPanel_, &views::DeployPanel::aboutToRun, serialConsole_,
          &models::SerialConsole::yieldPort);
  connect(boardRun_, &models::BoardRun::finished, serialConsole_,
          &models::SerialConsole::reclaimPort);
  connect(boardRun_, &models::BoardRun::boardLog, serialConsole_,
          &models::SerialConsole::appendBoardLog);

  profileView_ = new views::ProfileView(document_, boardRun_, profileTableModel_, this);
  profileView_->setObjectName(QStringLiteral("profileView"));
  profileDock_ = new QDockWidget(tr("Profile"), this);
  profileDock_->setObjectName(QStringLiteral("profileDock"));
  profileDock_->setWidget(profileView_);
  addDockWidget(Qt::BottomDockWidgetArea, profileDock_);
  tabifyDockWidget(problemsDock_, profileDock_);

  debugTensorView_ = new views::DebugTensorView(document_, boardRun_, this);
  debugTensorView_->setObjectName(QStringLiteral("debugTensorView"));
  debugDock_ = new QDockWidget(tr("Debug"), this);
  debugDock_->setObjectName(QStringLiteral("debugDock"));
  debugDock_->setWidget(debugTensorView_);
  addDockWidget(Qt::BottomDockWidgetArea, debugDock_);
  tabifyDockWidget(problemsDock_, debugDock_);

  commandStreamView_ = new views::CommandStreamView(npuCommandStreamModel_, npuSelection_, this);
  commandStreamView_->setObjectName(QStringLiteral("commandStreamView"));
  commandStreamDock_ = new QDockWidget(tr("Command Stream"), this);
  commandStreamDock_->setObjectName(QStringLiteral("commandStreamDock"));
  commandStreamDock_->setWidget(commandStreamView_);
  addDockWidget(Qt::BottomDockWidgetArea, commandStreamDock_);
  tabifyDockWidget(problemsDock_, commandStreamDock_);

  // Beside the listing: where the stream keeps things, and the selected
  // convolution's weights.
  npuRegionsView_ = new views::NpuRegionsView(npuRegionModel_, npuSelection_, this);
  npuRegionsView_->setObjectName(QStringLiteral("npuRegionsView"));
  npuRegionsDock_ = new QDockWidget(tr("NPU Regions"), this);
  npuRegionsDock_->setObjectName(QStringLiteral("npuRegionsDock"));
  npuRegionsDock_->setWidget(npuRegionsView_);
  addDockWidget(Qt::BottomDockWidgetArea, npuRegionsDock_);
  tabifyDockWidget(commandStreamDock_, npuRegionsDock_);
  npuWeightsView_ = new views::NpuWeightsView(npuWeightsModel_, this);
  npuWeightsView_->setObjectName(QStringLiteral("npuWeightsView"));
  npuWeightsDock_ = new QDockWidget(tr("NPU Weights"), this);
  npuWeightsDock_->setObjectName(QStringLiteral("npuWeightsDock"));
  npuWeightsDock_->setWidget(npuWeightsView_);
  addDockWidget(Qt::BottomDockWidgetArea, npuWeightsDock_);
  tabifyDockWidget(npuRegionsDock_, npuWeightsDock_);
  problemsDock_->raise();
}

QList<MainWindow::ExportKind> MainWindow::exportKinds() {
  return {{QStringLiteral("graph-svg"), tr("Graph as &SVG\u2026"), tr("SVG images (*.svg)")},
          {QStringLiteral("graph-png"), tr("Graph as &PNG\u2026"), tr("PNG images (*.png)")},
          {QStringLiteral("graph-dot"), tr("Graph as Graphviz &DOT\u2026"),
           tr("Graphviz files (*.dot *.gv)")},
          {QStringLiteral("operators-csv"), tr("&Operators as CSV\u2026"), tr("CSV (*.csv)")},
          {QStringLiteral("memory-csv"), tr("&Memory Plan as CSV\u2026"), tr("CSV (*.csv)")},
          {QStringLiteral("memory-json"), tr("Memory Plan as &JSON\u2026"), tr("JSON (*.json)")},
          {QStringLiteral("profile-csv"), tr("P&rofile as CSV\u2026"), tr("CSV (*.csv)")},
          {QStringLiteral("profile-trace"), tr("Profile as Chrome &Trace\u2026"),
           tr("Trace JSON (*.json)")},
          {QStringLiteral("report-html"), tr("&Report (HTML)\u2026"), tr("HTML (*.html *.xhtml)")}};
}

QString MainWindow::exportTo(const QString& kind, const QString& path) {
  QByteArray bytes;
  QString what;
  const bool hasGraph = document_->isLoaded() && graphView_->nodeCount() > 0;
  const models::MemoryPlanLayout& plan = compilation_->memoryPlan();
  if (kind.startsWith(QLatin1String("graph-")) && !hasGraph) {
    return tr("nothing to export: no graph is laid out yet");
  }
  if (kind.startsWith(QLatin1String("memory-")) && plan.isEmpty()) {
    return tr("nothing to export: the model has no memory plan yet");
  }
  if (kind.startsWith(QLatin1String("profile-")) && boardRun_->profileRows().isEmpty()) {
    return tr("nothing to export: run the model on a board first (Run > Run on Board)");
  }
  if (kind == QLatin1String("graph-svg")) {
    bytes = graphView_->renderSvg();
    what = tr("the graph as SVG");
  } else if (kind == QLatin1String("graph-png")) {
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    graphView_->renderImage().save(&buffer, "PNG");
    what = tr("the graph as PNG");
  } else if (kind == QLatin1String("graph-dot")) {
    bytes =
        models::graphDot(graphLayout_->layout(), QString::fromStdString(document_->graph().name),
                         graphView_->nodeFills());
    what = tr("the graph as DOT");
  } else if (kind == QLatin1String("operators-csv")) {
    if (!document_->isLoaded()) return tr("nothing to export: no model is open");
    bytes = models::tableCsv(*operatorTableModel_, models::OperatorTableModel::SortRole);
    what = tr("the operator table as CSV");
  } else if (kind == QLatin1String("memory-csv")) {
    bytes = models::memoryPlanCsv(plan);
    what = tr("the memory plan as CSV");
  } else if (kind == QLatin1String("memory-json")) {
    bytes = models::memoryPlanJson(plan);
    what = tr("the memory plan as JSON");
  } else if (kind == QLatin1String("profile-csv")) {
    bytes = models::tableCsv(*profileTableModel_, models::ProfileTableModel::SortRole);
    what = tr("the profile as CSV");
  } else if (kind == QLatin1String("profile-trace")) {
    deploy::RunProfile profile;
    profile.unit = boardRun_->profileUnit().toStdString();
    profile.total = boardRun_->profileTotal();
    for (const models::ProfileRow& row : boardRun_->profileRows()) {
      profile.operators.push_back(row.time);
    }
    bytes = QByteArray::fromStdString(deploy::chromeTraceJson(profile, document_->graph().name));
    what = tr("the profile as a Chrome trace");
  } else if (kind == QLatin1String("report-html")) {
    if (!document_->isLoaded() || plan.isEmpty()) {
      return tr("nothing to export: the model has not compiled yet");
    }
    bytes = compilationReportHtml();
    what = tr("the report");
  } else {
    return tr("unknown export '%1'").arg(kind);
  }
  if (const QString error = models::writeFileAtomically(path, bytes); !error.isEmpty()) {
    statusBar()->showMessage(error, 10000);
    return error;
  }
  statusBar()->showMessage(
      tr("Exported %1 to %2 (%3 bytes)").arg(what, path, QLocale::system().toString(bytes.size())),
      10000);
  return {};
}

QByteArray MainWindow::compilationReportHtml() const {
  models::CompilationReport report;
  report.title = document_->modelName();
  const auto& totals = document_->graphCost();
  const models::MemoryPlanLayout& plan = compilation_->memoryPlan();
  const QString board = deployPanel_->selectedPlatform();
  report.facts = {
      {tr("Model"), fileLabel_->text()},
      {tr("Operators"), QString::number(document_->operatorCount())},
      {tr("MACs"), models::groupedNumber(totals.macs)},
      {tr("Weights (parameter bytes)"), models::groupedNumber(totals.parameterBytes)},
      {tr("Targets"), compilation_->targetString()},
      {tr("Board"), board.isEmpty() ? tr("none (portable C)") : board},
      {tr("RAM (workspace)"),
       tr("%1 bytes with %2; lower bound %3")
               .arg(models::groupedNumber(plan.totalBytes), plan.planner,
                    models::groupedNumber(plan.targetBound())) +
           (plan.overlapsAllowed ? tr(" with outputs over their dying inputs (tensor-level %1)")
                                       .arg(models::groupedNumber(plan.lowerBound))
                                 : QString())}};
  // Measured on the last run's firmware, when it was built for a board.
  for (const QString& line : boardRun_->flashFootprint()) {
    report.facts.append({tr("Flash (measured)"), line});
  }
  report.memories = plan.memories;
  report.operators = operatorTableModel_;
  report.operatorValueRole = models::OperatorTableModel::SortRole;
  // The chart as the Memory Plan view draws it, at a fixed size.
  const QImage image = memoryPlanView_->chart()->renderImage(QSize(1000, 420));
  QBuffer png(&report.memoryPlanPng);
  png.open(QIODevice::WriteOnly);
  image.save(&png, "PNG");
  if (!boardRun_->profileRows().isEmpty()) {
    report.profile = profileTableModel_;
    report.profileCaption =
        tr("Last run: %1 %2 in all")
            .arg(models::groupedNumber(static_cast<std::int64_t>(boardRun_->profileTotal())),
                 boardRun_->profileUnit());
  }
  return models::compilationReportHtml(report);
}

// Every action of the window, with its shortcut, in one place.
void MainWindow::createActions() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* open = fileMenu->addAction(tr("&Open Model\u2026"), this, &MainWindow::chooseModelFile);
  open->setShortcut(QKeySequence::Open);
  open->setStatusTip(tr("Open a TFLite model (.tflite)"));
  recentMenu_ = fileMenu->addMenu(tr("Open &Recent"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  rebuildRecentMenu();
  QAction* openBundled = fileMenu->addAction(tr("Open &Bundled Example"), this,
                                             [this] { openModel(bundledModelPath()); });
  openBundled->setStatusTip(tr("Open the keyword-spotting model that ships with Loupe"));
  QMenu* exportMenu = fileMenu->addMenu(tr("&Export"));
  for (const ExportKind& kind : exportKinds()) {
    exportMenu->addAction(kind.menuText, this, [this, kind] {
      const QString path =
          QFileDialog::getSaveFileName(this, kind.menuText, QString(), kind.filter);
      if (path.isEmpty()) return;
      const QString error = exportTo(kind.name, path);
      if (!error.isEmpty() && options_.interactive) {
        QMessageBox::warning(this, tr("Export"), error);
      }
    });
  }
  fileMenu->addSeparator();
  QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  for (int i = 0; i < tabs_->count(); ++i) {
    QAction* show =
        viewMenu->addAction(tabs_->tabText(i), this, [this, i] { tabs_->setCurrentIndex(i); });
    show->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
  }
  viewMenu->addSeparator();
  for (QDockWidget* dock : {stagesDock_, propertiesDock_, problemsDock_}) {
    viewMenu->addAction(dock->toggleViewAction());
  }

  QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
  runOnBoardAction_ =
      runMenu->addAction(tr("Run on &Board"), deployPanel_, &views::DeployPanel::runOnBoard);
  runOnBoardAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  runOnBoardAction_->setStatusTip(
      tr("Build, flash and run the model on the platform chosen in the Deploy panel"));
  cancelRunAction_ = runMenu->addAction(tr("&Cancel Run"), boardRun_, &models::BoardRun::cancel);
  cancelRunAction_->setEnabled(false);
  runMenu->addSeparator();
  QAction* tune = runMenu->addAction(tr("&Tune on Board"), this, [this] {
    showView(QStringLiteral("tune"));
    tuningPanel_->tune();
  });
  tune->setStatusTip(
      tr("Measure candidate schedules of every operator on the Deploy panel's "
         "board and keep the best (loupec tune)"));
  QAction* stopTuning =
      runMenu->addAction(tr("&Stop Tuning"), boardTuning_, &models::BoardTuning::stop);
  stopTuning->setEnabled(false);
  connect(boardTuning_, &models::BoardTuning::runningChanged, this, [tune, stopTuning](bool on) {
    tune->setEnabled(!on);
    stopTuning->setEnabled(on);
  });
  runMenu->addAction(tr("Apply Tuning &Log…"), this, &MainWindow::chooseTuningLog)
      ->setStatusTip(tr("Compile and run with a tuning log's best schedules (--tuning-log)"));
  runMenu->addAction(tr("C&lear Tuning Log"), this, [this] { applySchedules({}, {}); })
      ->setStatusTip(tr("Forget the applied tuning log: the bundled tuning logs apply again "
                        "(unless turned off), else the default schedules"));
  bundledTuningAction_ = runMenu->addAction(tr("Use &Bundled Tuning Logs"));
  bundledTuningAction_->setObjectName(QStringLiteral("bundledTuningAction"));
  bundledTuningAction_->setCheckable(true);
  bundledTuningAction_->setChecked(compilation_->bundledTuning());
  bundledTuningAction_->setStatusTip(
      tr("Compile for the chosen board with the best schedules the tuning logs kept with Loupe "
         "measured on it, where no tuning log of yours is applied (off: loupec "
         "--no-tuning-log)"));
  connect(bundledTuningAction_, &QAction::toggled, this, &MainWindow::setBundledTuning);
  runMenu->addSeparator();
  runMenu->addAction(tr("Show &Deploy Panel"), this,
                     [this] { showView(QStringLiteral("deploy")); });
  runMenu->addAction(tr("Show T&une Panel"), this, [this] { showView(QStringLiteral("tune")); });
  connect(boardRun_, &models::BoardRun::runningChanged, this, [this](bool running) {
    runOnBoardAction_->setEnabled(!running);
    cancelRunAction_->setEnabled(running);
  });
  for (QDockWidget* dock : {deployDock_, tuneDock_, profileDock_, buildLogDock_, serialConsoleDock_,
                            commandStreamDock_, npuRegionsDock_, npuWeightsDock_}) {
    viewMenu->addAction(dock->toggleViewAction());
  }

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* about = helpMenu->addAction(tr("&About Loupe"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
  helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QStringList MainWindow::viewNames() {
  return {QStringLiteral("graph"),      QStringLiteral("operators"),  QStringLiteral("ir"),
          QStringLiteral("devices"),    QStringLiteral("passes"),     QStringLiteral("tir"),
          QStringLiteral("c"),          QStringLiteral("memory"),     QStringLiteral("compare"),
          QStringLiteral("deploy"),     QStringLiteral("tune"),       QStringLiteral("profile"),
          QStringLiteral("debug"),      QStringLiteral("npu-stream"), QStringLiteral("npu-regions"),
          QStringLiteral("npu-weights")};
}

// The target choice, in a toolbar and the Compile menu: the CPU alone or the
// Ethos-U in each accelerator configuration, with the CPU beside it
// (models/target_choice).
void MainWindow::createTargetChoice() {
  QToolBar* bar = addToolBar(tr("Compile"));
  bar->setObjectName(QStringLiteral("compileToolBar"));
  bar->setMovable(false);
  auto* label = new QLabel(tr(" Target: "), bar);
  bar->addWidget(label);
  targetBox_ = new QComboBox(bar);
  targetBox_->setObjectName(QStringLiteral("targetBox"));
  targetBox_->setToolTip(
      tr("Where operators run: each goes to the first target that accepts it "
         "(loupec compile --target)"));
  targetBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  bar->addWidget(targetBox_);

  // Between View and Run: compile, then run.
  auto* compileMenu = new QMenu(tr("&Compile"), this);
  menuBar()->insertMenu(menuBar()->actions().value(2), compileMenu);
  targetActions_ = new QActionGroup(this);
  targetActions_->setExclusive(true);
  for (const models::TargetChoice& choice : models::targetChoices(registries_->targets)) {
    targetBox_->addItem(choice.label, choice.targetString);
    QAction* action = compileMenu->addAction(choice.label);
    action->setCheckable(true);
    action->setData(choice.targetString);
    action->setStatusTip(tr("Compile for --target \"%1\"").arg(choice.targetString));
    targetActions_->addAction(action);
  }
  connect(targetBox_, &QComboBox::activated, this,
          [this](int index) { setTargetString(targetBox_->itemData(index).toString()); });
  connect(targetActions_, &QActionGroup::triggered, this,
          [this](QAction* action) { setTargetString(action->data().toString()); });
  compileMenu->addSeparator();
  QAction* cancel = compileMenu->addAction(tr("C&ancel Compilation"), compilation_,
                                           &models::ModelCompilation::cancel);
  cancel->setStatusTip(tr("Stop the compilation under way"));
  compileMenu->addAction(tr("&Recompile"), compilation_, &models::ModelCompilation::recompile);
  compileMenu->addAction(tr("Show &Device Mapping"), this,
                         [this] { showView(QStringLiteral("devices")); });
  connect(compilation_, &models::ModelCompilation::overlapOutputsChanged, deployPanel_,
          &views::DeployPanel::setOverlapOutputs);
  connect(compilation_, &models::ModelCompilation::patchesChanged, deployPanel_,
          &views::DeployPanel::setPatches);
  connect(compilation_, &models::ModelCompilation::targetStringChanged, this,
          &MainWindow::showTargets);
  // Run on board is offered the bundled logs as the views were compiled.
  connect(compilation_, &models::ModelCompilation::compiled, this, [this] {
    deployPanel_->setBundledTuning(compilation_->bundledTuning(), bundledTuningStatus());
  });
  deployPanel_->setBundledTuning(compilation_->bundledTuning(), {});

  if (options_.persistSettings) {
    const QString saved = QSettings().value(kTargetKey).toString();
    // A saved list that no longer parses (a target since removed) is ignored.
    QString ignored;
    if (auto targets = models::parseTargets(saved, registries_->targets, &ignored);
        !targets.empty()) {
      compilation_->setTargets(std::move(targets));
    }
  }
  showTargets();
}

bool MainWindow::setTargetString(const QString& targetString) {
  QString error;
  target::TargetList targets = models::parseTargets(targetString, registries_->targets, &error);
  if (targets.empty()) return false;
  setTargets(std::move(targets));
  return true;
}

void MainWindow::setTargets(target::TargetList targets) {
  compilation_->setTargets(std::move(targets));
  if (options_.persistSettings) QSettings().setValue(kTargetKey, compilation_->targetString());
}

void MainWindow::showTargets() {
  const QString targetString = compilation_->targetString();
  int index = targetBox_->findData(targetString);
  if (index < 0) {
    // A target list given on the command line that no menu choice names.
    targetBox_->addItem(targetString, targetString);
    index = targetBox_->count() - 1;
  }
  targetBox_->setCurrentIndex(index);
  for (QAction* action : targetActions_->actions()) {
    action->setChecked(action->data().toString() == targetString);
  }
  deployPanel_->setTargets(compilation_->targets());  // Run on board deploys what the views show
}

void MainWindow::onPlatformChosen() {
  const models::PlatformChoice choice = deployPanel_->selectedPlatformChoice();
  compilation_->setBoard(choice.cpu, choice.platform);
  tuningPanel_->setPlatform(choice.name, !choice.name.isEmpty() && choice.buildsFirmware);
}

void MainWindow::setBundledTuning(bool on) {
  if (bundledTuningAction_->isChecked() != on) {
    bundledTuningAction_->setChecked(on);  // toggled() comes back here
    return;
  }
  compilation_->setBundledTuning(on);
  deployPanel_->setBundledTuning(on, on ? bundledTuningStatus() : QString());
  if (options_.persistSettings) QSettings().setValue(kBundledTuningKey, on);
  updateCompileStatus();
}

QString MainWindow::bundledTuningStatus() const {
  const models::ModelCompilation::TuningStatus status = compilation_->tuningStatus();
  if (!compilation_->schedulesSource().isEmpty() || status.source.isEmpty()) return {};
  return tr("%1: %2 of %n workload(s) tuned", nullptr, status.workloads)
      .arg(status.source)
      .arg(status.tuned);
}

void MainWindow::applySchedules(const lowering::ScheduleTable& schedules, const QString& source) {
  compilation_->setSchedules(schedules, source);
  deployPanel_->setSchedules(schedules, source);
  updateCompileStatus();
}

bool MainWindow::applyTuningLog(const QString& path) {
  try {
    applySchedules(models::schedulesFromTuningLog(path), QFileInfo(path).fileName());
    return true;
  } catch (const std::exception& error) {
    // The schedules applied before stay applied.
    const QString message = QString::fromUtf8(error.what());
    statusBar()->showMessage(tr("Cannot apply the tuning log: %1").arg(message), 15000);
    if (options_.interactive) {
      QMessageBox::critical(this, tr("Cannot apply tuning log"),
                            tr("Loupe could not read %1.").arg(QDir::toNativeSeparators(path)) +
                                QStringLiteral("\n\n") + message);
    }
    return false;
  }
}

void MainWindow::chooseTuningLog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Apply Tuning Log"), QString(),
                                                    tr("Tuning logs (*.json);;All files (*)"));
  if (!path.isEmpty()) applyTuningLog(path);
}

bool MainWindow::isBusy() const {
  return compilation_->isBusy() || graphLayout_->isBusy() || boardRun_->isRunning() ||
         boardTuning_->isRunning() || compareView_->isBusy() || deployPanel_->isCheckingFit();
}

bool MainWindow::waitUntilIdle(int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (isBusy() && timer.elapsed() < timeoutMs) {
    const int left = static_cast<int>(timeoutMs - timer.elapsed());
    compilation_->waitUntilIdle(left);
    graphLayout_->waitUntilIdle(std::max(0, static_cast<int>(timeoutMs - timer.elapsed())));
    boardRun_->waitUntilIdle(std::max(0, static_cast<int>(timeoutMs - timer.elapsed())));
    boardTuning_->waitUntilIdle(std::max(0, static_cast<int>(timeoutMs - timer.elapsed())));
    compareView_->waitUntilIdle(std::max(0, static_cast<int>(timeoutMs - timer.elapsed())));
    deployPanel_->waitUntilFitChecked(std::max(0, static_cast<int>(timeoutMs - timer.elapsed())));
  }
  return !isBusy();
}

void MainWindow::updateCompileStatus() {
  using State = models::ModelCompilation::State;
  cancelCompileButton_->setVisible(compilation_->state() == State::Compiling);
  switch (compilation_->state()) {
    case State::NoModel:
      compileLabel_->clear();
      return;
    case State::Compiling:
      compileLabel_->setText(tr("compiling\u2026"));
      return;
    case State::Failed:
      compileLabel_->setText(compilation_->errorMessage().contains(QLatin1String("cancelled"))
                                 ? tr("compilation cancelled")
                                 : tr("compilation failed"));
      return;
    case State::Compiled:
      break;
  }
  const auto& plan = compilation_->memoryPlan();
  QString text =
      compilation_->isBusy()
          ? tr("planning\u2026")
          : tr("workspace %1 bytes (%2)").arg(models::groupedNumber(plan.totalBytes), plan.planner);
  if (!compilation_->schedulesSource().isEmpty()) {
    text += tr(" \u00b7 %n tuned workload(s) from %1", nullptr,
               static_cast<int>(compilation_->schedules().size()))
                .arg(compilation_->schedulesSource());
  } else if (const QString bundled = bundledTuningStatus(); !bundled.isEmpty()) {
    text += QStringLiteral(" \u00b7 ") + bundled;
  }
  compileLabel_->setText(text);
}

bool MainWindow::showView(const QString& name) {
  if (name == QStringLiteral("compare")) {
    tabs_->setCurrentWidget(compareView_);
    return true;
  }
  if (name == QStringLiteral("tune")) {
    tuneDock_->show();
    tuneDock_->raise();
    resizeDocks({tuneDock_}, {std::max(420, width() / 3)}, Qt::Horizontal);
    return true;
  }
  if (name == QStringLiteral("npu-stream") || name == QStringLiteral("npu-regions") ||
      name == QStringLiteral("npu-weights")) {
    // The listing (or the regions, or the weights) under the graph whose
    // NPU operations it sets up.
    showView(QStringLiteral("graph"));
    QDockWidget* dock = name == QStringLiteral("npu-regions")   ? npuRegionsDock_
                        : name == QStringLiteral("npu-weights") ? npuWeightsDock_
                                                                : commandStreamDock_;
    dock->show();
    dock->raise();
    tallNpuDock_ = dock;
    bottomDocksRoomy_ = true;
    tallCommandStream_ = true;
    if (isVisible()) fitTallCommandStream();  // else showEvent() does, after sizing the docks
    return true;
  }
  if (name == QStringLiteral("deploy") || name == QStringLiteral("profile") ||
      name == QStringLiteral("debug") || name == QStringLiteral("console")) {
    // The Deploy panel and the Profile or the Serial Console beside the
    // graph they explain.
    showView(QStringLiteral("graph"));
    deployDock_->show();
    deployDock_->raise();
    QDockWidget* dock = name == QStringLiteral("profile")   ? profileDock_
                        : name == QStringLiteral("debug")   ? debugDock_
                        : name == QStringLiteral("console") ? serialConsoleDock_
                                                            : buildLogDock_;
    dock->show();
    dock->raise();
    resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical);
    resizeDocks({deployDock_}, {300}, Qt::Horizontal);
    return true;
  }
  for (const StageTab& tab : stageTabs_) {
    if (tab.viewName == name) {
      tabs_->setCurrentWidget(tab.widget);
      return true;
    }
  }
  return false;
}

QString MainWindow::currentViewName() const {
  if (tabs_->currentWidget() == compareView_) return QStringLiteral("compare");
  for (const StageTab& tab : stageTabs_) {
    if (tab.widget == tabs_->currentWidget()) return tab.viewName;
  }
  return {};
}

void MainWindow::showStage(CompilationStage stage) {
  if (stage == CompilationStage::Fused) passStageView_->showStage(QStringLiteral("fuse_operators"));
  // Keep the user's tab when it already belongs to the stage.
  for (const StageTab& tab : stageTabs_) {
    if (tab.widget == tabs_->currentWidget() && tab.stage == stage) return;
  }
  for (const StageTab& tab : stageTabs_) {
    if (tab.stage == stage) {
      tabs_->setCurrentWidget(tab.widget);
      return;
    }
  }
}

bool MainWindow::openModel(const QString& path) {
  const bool opened = document_->open(path);
  // The bundled model is always one menu item away; do not list it as recent.
  if (opened && !path.startsWith(u':')) recentFiles_.add(path);
  return opened;
}

void MainWindow::chooseModelFile() {
  QSettings settings;
  const QString start =
      options_.persistSettings ? settings.value(kLastDirectoryKey).toString() : QString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), start,
                                                    tr("TFLite models (*.tflite);;All files (*)"));
  if (path.isEmpty()) return;
  if (options_.persistSettings) {
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
  }
  openModel(path);
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList paths = recentFiles_.paths();
  for (int i = 0; i < paths.size(); ++i) {
    const QString& path = paths[i];
    // &1..&9 as accelerators, full path in the status tip.
    const QString label = i < 9
                              ? QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName())
                              : QFileInfo(path).fileName();
    QAction* action = recentMenu_->addAction(label, this, [this, path] { openModel(path); });
    action->setStatusTip(path);
    action->setToolTip(path);
  }
  if (paths.isEmpty()) {
    recentMenu_->addAction(tr("No recent models"))->setEnabled(false);
  } else {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear Menu"), this, [this] { recentFiles_.clear(); });
  }
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About Loupe"),
      tr("<h3>Loupe %1</h3>"
         "<p>A desktop IDE for compiling TFLite models for microcontrollers: open a model, "
         "see which operators Loupe supports, what they cost and how every compilation "
         "stage transforms them.</p>"
         "<p>The bundled example is the MLPerf Tiny keyword-spotting model "
         "(Apache-2.0).</p>")
          .arg(QStringLiteral(LOUPE_VERSION)));
}

void MainWindow::onModelLoaded() {
  memoryPlanView_->setFlashFootprint({}, {});  // another model's firmware
  const auto& totals = document_->graphCost();
  const auto unsupported = static_cast<int>(document_->supportProblems().size());
  QStringList parts;
  const int count = document_->operatorCount();
  parts << (count == 1 ? tr("1 operator") : tr("%1 operators").arg(count))
        << tr("%1 MACs").arg(models::groupedNumber(totals.macs))
        << tr("%1 parameter bytes").arg(models::groupedNumber(totals.parameterBytes));
  parts << (unsupported == 0 ? tr("all operators supported")
                             : tr("%1 unsupported").arg(unsupported));
  totalsLabel_->setText(parts.join(QStringLiteral("   \u00b7   ")));

  const QString path = document_->filePath();
  const bool bundled = path.startsWith(u':');
  fileLabel_->setText(bundled ? tr("bundled example: %1").arg(QFileInfo(path).fileName())
                              : QDir::toNativeSeparators(path));
  setWindowTitle(tr("%1 \u2014 Loupe").arg(document_->modelName()));
  // A Vela model: its command stream is what there is to read.
  if (!graphLayout_->ethosuOperators().isEmpty()) {
    commandStreamDock_->show();
    commandStreamDock_->raise();
    if (!bottomDocksRoomy_) fitBottomDocks(true);
  }
}

void MainWindow::onBoardRunStarted(const QString& platform) {
  buildLog_->clear();
  buildLog_->appendPlainText(
      tr("Run %1 on %2 with inputs: %3")
          .arg(document_->modelName(), platform, boardRun_->inputsDescription()));
  buildLogDock_->show();
  buildLogDock_->raise();
  if (!bottomDocksRoomy_) fitBottomDocks(true);
}

void MainWindow::onBoardRunFinished() {
  using State = models::BoardRun::State;
  // A run that built no board image (the host, a failed build) leaves the
  // last one's measurement.
  if (!boardRun_->flashFootprint().isEmpty()) {
    memoryPlanView_->setFlashFootprint(boardRun_->platform(), boardRun_->flashFootprint());
  }
  if (boardRun_->state() == State::Failed) {
    problemsDock_->show();
    problemsDock_->raise();
  } else if (boardRun_->state() == State::Succeeded) {
    profileDock_->show();
    profileDock_->raise();
  }
  // A debug run marks every operator exact or differs and goes to the first
  // difference; any other run clears the marks.
  const auto& findings = boardRun_->debugFindings();
  graphView_->setMarks(findings ? findings->marks : QHash<int, QString>());
  if (findings) {
    graphView_->setColourBy(views::GraphView::ColourBy::Target);
    debugDock_->show();
    debugDock_->raise();
    if (findings->firstDiffering >= 0) document_->setCurrentOperator(findings->firstDiffering);
  }
}

void MainWindow::onLoadFailed(const QString& path, const QString& message) {
  problemsDock_->show();
  problemsDock_->raise();
  if (!options_.interactive) return;
  QMessageBox::critical(
      this, tr("Cannot open model"),
      tr("Loupe could not open %1.").arg(QDir::toNativeSeparators(path)) + QStringLiteral("\n\n") +
          message +
          (document_->isLoaded() ? tr("\n\n%1 stays open.").arg(document_->modelName())
                                 : QString()));
}

void MainWindow::updateProblemsTitle() {
  const int errors = problemListModel_->count(models::ProblemListModel::Severity::Error);
  const int warnings = problemListModel_->count(models::ProblemListModel::Severity::Warning);
  QStringList counts;
  if (errors) counts << (errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors));
  if (warnings) counts << (warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
  problemsDock_->setWindowTitle(counts.isEmpty() ? tr("Problems")
                                                 : tr("Problems (%1)").arg(counts.join(u", ")));
  if (!bottomDocksRoomy_ && problemListModel_->rowCount() > 0) fitBottomDocks(true);
}

void MainWindow::updatePropertiesTitle() {
  const int op = document_->currentOperator();
  propertiesDock_->setWindowTitle(
      op < 0 ? tr("Properties")
             : tr("Properties \u2014 op %1 %2")
                   .arg(op)
                   .arg(QString::fromStdString(
                       document_->graph().operators[static_cast<std::size_t>(op)].typeName())));
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  // Dock sizes only take once the window is laid out; a saved layout wins.
  if (!event->spontaneous() && !settingsRestored_) {
    fitBottomDocks(bottomDocksRoomy_ || problemListModel_->rowCount() > 0);
  }
  if (!event->spontaneous() && tallCommandStream_) fitTallCommandStream();
}

void MainWindow::fitTallCommandStream() {
  tallCommandStream_ = false;
  layout()->activate();  // resizeDocks() needs the dock areas laid out
  // The regions' chart and the weights' heat map want height more than the listing.
  QDockWidget* dock = tallNpuDock_ != nullptr ? tallNpuDock_ : commandStreamDock_;
  resizeDocks({dock}, {dock == commandStreamDock_ ? height() * 2 / 5 : height() / 2}, Qt::Vertical);
}

void MainWindow::fitBottomDocks(bool roomy) {
  bottomDocksRoomy_ = roomy;
  if (!isVisible()) return;  // showEvent() sizes them
  constexpr int kRoomyHeight = 250;
  // The dock's title and tabs plus two lines of the list (the docks tabbed
  // with it may keep it a little higher).
  const int compact = problemsView_->fontMetrics().height() * 5 + 40;
  layout()->activate();  // resizeDocks() needs the dock areas laid out
  resizeDocks({problemsDock_}, {roomy ? kRoomyHeight : compact}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (options_.persistSettings) saveSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedModel(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = droppedModel(event->mimeData());
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  // Open after the drop returns: a failure may show a modal message box, which
  // must not run inside the drag-and-drop machinery.
  QTimer::singleShot(0, this, [this, path] { openModel(path); });
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(kGeometryKey).toByteArray());
  settingsRestored_ = restoreState(settings.value(kStateKey).toByteArray());
  setBundledTuning(settings.value(kBundledTuningKey, true).toBool());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
}

}  // namespace loupe::gui
