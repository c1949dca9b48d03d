// loupe: the desktop IDE. Opens the model named on the command line (or the
// bundled example) or, with --screenshot, renders the window to a PNG and
// exits, which works without a display.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "builtin_registries.h"
#include "deploy/interrupt_cleanup.h"
#include "gui/bundled_model.h"
#include "gui/launch_options.h"
#include "gui/main_window.h"
#include "gui/window_screenshot.h"
#include "loupe_version.h"
#include "models/board_run.h"
#include "models/document_graph_layout.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/npu_operation_selection.h"
#include "views/compare_view.h"
#include "views/deploy_panel.h"
#include "views/graph_view.h"
#include "views/memory_plan_view.h"

namespace {

bool hasArgument(int argc, char** argv, std::initializer_list<const char*> names) {
  for (int i = 1; i < argc; ++i) {
    for (const char* name : names) {
      if (std::strcmp(argv[i], name) == 0) return true;
    }
  }
  return false;
}

bool hasDisplay() {
  return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void printError(const QString& message) {
  std::fprintf(stderr, "loupe: %s\n", qPrintable(message));
}

// The offscreen platform warns that it cannot propagate size hints on every
// run; it means nothing for a screenshot, so keep scripts' output clean.
QtMessageHandler defaultMessageHandler = nullptr;
void quietOffscreenMessages(QtMsgType type, const QMessageLogContext& context,
                            const QString& message) {
  if (message.contains(QStringLiteral("does not support propagateSizeHints"))) return;
  defaultMessageHandler(type, context, message);
}

// --compare-target/-planner/-model: B of the Compare tab, compared now.
// Returns why it cannot, or empty.
QString startComparison(loupe::gui::MainWindow& window, const loupe::gui::LaunchOptions& options) {
  loupe::views::CompareView* view = window.compareView();
  if (!options.compareModel.isEmpty()) {
    if (const QString error = view->setModelB(options.compareModel); !error.isEmpty()) {
      return QStringLiteral("--compare-model %1: %2").arg(options.compareModel, error);
    }
  }
  const QString target = options.compareTarget.isEmpty() ? window.compilation()->targetString()
                                                         : options.compareTarget;
  if (const QString error = view->setTargetB(target); !error.isEmpty()) return error;
  if (!options.comparePlanner.isEmpty()) {
    if (view->plannerBSelector()->findText(options.comparePlanner) < 0) {
      return QStringLiteral("--compare-planner: no planner '%1'").arg(options.comparePlanner);
    }
    view->plannerBSelector()->setCurrentText(options.comparePlanner);
  }
  if (!options.compareMeasure.isEmpty()) {
    const int platform = view->measureSelector()->findData(options.compareMeasure);
    if (platform < 0) {
      return QStringLiteral(
                 "--compare-measure %1: no such platform, or it needs a serial port "
                 "or tools that are not installed")
          .arg(options.compareMeasure);
    }
    view->measureSelector()->setCurrentIndex(platform);
  }
  view->lowerTabs()->setCurrentIndex(options.compareGraphs ? 1 : 0);
  view->compare();
  return {};
}

// --run-on: Run on board, or with --debug Debug on board (--corrupt-operator).
void startBoardRun(loupe::gui::MainWindow& window, const loupe::gui::LaunchOptions& options) {
  if (!options.debugRun) {
    window.deployPanel()->runOnBoard();
    return;
  }
  window.deployPanel()->debugOnBoard(
      options.corruptOperator >= 0 ? std::optional<int>(options.corruptOperator) : std::nullopt);
}

// --expand-npu and --npu-operation: a Vela model's NPU operations in the
// graph, one of them selected there and in the Command Stream dock. Returns
// why it cannot, or an empty string.
QString showNpuOperations(loupe::gui::MainWindow& window,
                          const loupe::gui::LaunchOptions& options) {
  if (options.expandNpu) window.graphLayout()->setAllExpanded(true);
  if (options.npuOperation < 0) return {};
  const QList<int> ethosu = window.graphLayout()->ethosuOperators();
  if (ethosu.isEmpty()) {
    return QStringLiteral("--npu-operation: the model has no ethos-u operator (compiled by Vela)");
  }
  int op = window.document()->currentOperator();
  if (!ethosu.contains(op)) {
    op = ethosu.front();
    window.document()->setCurrentOperator(op);
  }
  window.npuOperationSelection()->select(op, options.npuOperation);
  return {};
}

int takeScreenshot(const loupe::gui::LaunchOptions& options,
                   std::shared_ptr<const loupe::deploy::Registries> registries) {
  using loupe::gui::MainWindow;
  defaultMessageHandler = qInstallMessageHandler(quietOffscreenMessages);
  MainWindow window(MainWindow::Options{
      .interactive = false, .persistSettings = false, .registries = std::move(registries)});
  window.resize(options.windowSize);
  // Before the model opens, so it compiles once, for these targets, and is
  // laid out once.
  if (!options.targets.empty()) window.setTargets(options.targets);
  window.graphView()->detailButton()->setChecked(options.fullDetail);
  window.memoryPlanView()->overlapSwitch()->setChecked(options.overlapOutputs);
  window.memoryPlanView()->patchSwitch()->setChecked(options.patches);
  const QString model =
      options.modelPath.isEmpty() ? loupe::gui::bundledModelPath() : options.modelPath;
  if (!window.openModel(model)) {
    printError(window.document()->loadFailures().back().message);
    return 1;
  }
  if (options.operatorIndex >= 0) {
    if (options.operatorIndex >= window.document()->operatorCount()) {
      printError(QStringLiteral("--select %1: the model has %2 operators")
                     .arg(options.operatorIndex)
                     .arg(window.document()->operatorCount()));
      return 2;
    }
    window.document()->setCurrentOperator(options.operatorIndex);
  }
  if (const QString error = showNpuOperations(window, options); !error.isEmpty()) {
    printError(error);
    return 2;
  }
  if (!options.runOn.isEmpty()) {
    if (!window.deployPanel()->selectPlatform(options.runOn)) {
      printError(QStringLiteral("--run-on %1: no such platform, or its tools are not installed")
                     .arg(options.runOn));
      return 2;
    }
    startBoardRun(window, options);
  }
  if (options.compare()) {
    if (const QString error = startComparison(window, options); !error.isEmpty()) {
      printError(error);
      return 2;
    }
  }
  window.showView(options.view);
  // Compilation and graph layout run in the background; the picture must
  // show their results, not "compiling...".
  if (!window.waitUntilIdle()) {
    printError(QStringLiteral("compilation or layout did not finish in time"));
    return 1;
  }
  if (!options.runOn.isEmpty() &&
      window.boardRun()->state() == loupe::models::BoardRun::State::Failed) {
    printError(QStringLiteral("run on %1 failed: %2")
                   .arg(options.runOn, window.boardRun()->errorMessage()));
  }
  for (const auto& [kind, file] : options.exports) {
    if (const QString failure = window.exportTo(kind, file); !failure.isEmpty()) {
      printError(QStringLiteral("--export %1=%2: %3").arg(kind, file, failure));
      return 1;
    }
    std::printf("loupe: exported %s to %s\n", qPrintable(kind), qPrintable(file));
  }
  QString error;
  if (!loupe::gui::saveWindowScreenshot(&window, options.screenshotPath, &error)) {
    printError(error);
    return 1;
  }
  std::printf("loupe: saved %s (%dx%d, view %s)\n", qPrintable(options.screenshotPath),
              options.windowSize.width(), options.windowSize.height(), qPrintable(options.view));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before Qt starts threads: closing the terminal or a kill mid-run must not
  // orphan QEMU, make or a temporary folder.
  loupe::deploy::installInterruptCleanup();
  // --help and --version need no display, so answer them before Qt starts.
  if (hasArgument(argc, argv, {"-h", "--help"})) {
    std::fputs(qPrintable(loupe::gui::launchUsage()), stdout);
    return 0;
  }
  if (hasArgument(argc, argv, {"--version"})) {
    std::printf("loupe %s\n", LOUPE_VERSION);
    return 0;
  }
  const bool screenshot = hasArgument(argc, argv, {"--screenshot"}) ||
                          std::any_of(argv + 1, argv + argc, [](const char* a) {
                            return std::strncmp(a, "--screenshot=", 13) == 0;
                          });
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !hasDisplay()) {
    if (!screenshot) {
      printError(QStringLiteral(
          "no display (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
          "  Use --screenshot FILE.png to render offscreen, or loupec for the command line."));
      return 1;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }

  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Loupe"));
  QApplication::setApplicationName(QStringLiteral("loupe"));
  QApplication::setApplicationVersion(QStringLiteral(LOUPE_VERSION));
  QApplication::setApplicationDisplayName(QStringLiteral("Loupe"));
  // Lets Wayland compositors match the window to the installed .desktop file
  // and its icon.
  QGuiApplication::setDesktopFileName(QStringLiteral(LOUPE_APP_ID));

  const auto registries =
      std::make_shared<const loupe::deploy::Registries>(loupe::plugins::builtinRegistries());
  const auto options = loupe::gui::parseLaunchOptions(
      QApplication::arguments(), loupe::gui::MainWindow::viewNames(), registries->targets);
  if (!options.error.isEmpty()) {
    printError(options.error + QStringLiteral("\n(try loupe --help)"));
    return 2;
  }
  if (options.screenshot()) return takeScreenshot(options, registries);

  loupe::gui::MainWindow window(loupe::gui::MainWindow::Options{.registries = registries});
  if (!options.targets.empty()) window.setTargets(options.targets);
  window.graphView()->detailButton()->setChecked(options.fullDetail);
  window.memoryPlanView()->overlapSwitch()->setChecked(options.overlapOutputs);
  window.memoryPlanView()->patchSwitch()->setChecked(options.patches);
  window.show();
  // Open once the window is up, so a failure's message box has a parent to
  // sit on.
  QTimer::singleShot(0, &window, [&window, &options] {
    window.openModel(options.modelPath.isEmpty() ? loupe::gui::bundledModelPath()
                                                 : options.modelPath);
    if (options.operatorIndex >= 0) window.document()->setCurrentOperator(options.operatorIndex);
    if (const QString error = showNpuOperations(window, options); !error.isEmpty()) {
      printError(error);
    }
    if (!options.runOn.isEmpty() && window.deployPanel()->selectPlatform(options.runOn)) {
      startBoardRun(window, options);
    }
    if (options.compare()) {
      if (const QString error = startComparison(window, options); !error.isEmpty()) {
        printError(error);
      }
    }
    window.showView(options.view);
  });
  return app.exec();
}
