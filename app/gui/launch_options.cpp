#include "gui/launch_options.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include "models/target_choice.h"

namespace loupe::gui {

QString launchUsage() {
  return QStringLiteral(
      "usage: loupe [options] [MODEL]\n"
      "\n"
      "Opens MODEL (a .tflite file), or the bundled keyword-spotting model when none is\n"
      "given, in the Loupe IDE.\n"
      "\n"
      "options:\n"
      "  --screenshot FILE.png   render the window (offscreen when there is no display),\n"
      "                          save it as PNG and exit; non-zero exit on failure\n"
      "  --view VIEW             the tab to show: graph, operators, ir, devices, passes,\n"
      "                          tir, c, memory or compare,\n"
      "                          or deploy / profile (the Deploy panel with the build log\n"
      "                          or the Profile dock), or npu-stream, npu-regions or\n"
      "                          npu-weights (the graph with the Command Stream, NPU\n"
      "                          Regions or NPU Weights dock of a Vela model; default:\n"
      "                          graph)\n"
      "  --run-on PLATFORM       run the model on PLATFORM (host, qemu-mps2-an385,\n"
      "                          qemu-mps3-an547) before showing it, as Run on board does;\n"
      "                          a failed run is listed in Problems\n"
      "  --debug                 with --run-on: Debug on board (every tensor read back and\n"
      "                          compared; --view debug shows the Debug dock)\n"
      "  --corrupt-operator K    with --debug: change one weight byte of operator K on the\n"
      "                          board, as loupec debug --corrupt-operator (demos)\n"
      "  --target TARGETS        compile for TARGETS in priority order, as loupec compile\n"
      "                          --target takes them: \"c\" (the default) or e.g.\n"
      "                          \"ethos-u -accelerator_config=ethos-u55-128, c\" (Arm's\n"
      "                          Ethos-U55 with 128 MACs, the CPU for what it refuses)\n"
      "  --overlap-outputs       let outputs start inside the inputs that die with them,\n"
      "                          as loupec --overlap-outputs (the Memory Plan view's\n"
      "                          Overlap outputs)\n"
      "  --patches               run the first high-resolution operators strip by strip\n"
      "                          where that lowers the memory bound, as loupec --patches\n"
      "                          (the Memory Plan view's Patches)\n"
      "  --compare-target TARGETS, --compare-planner NAME, --compare-model FILE\n"
      "                          compare (the Compare tab) with the model compiled for\n"
      "                          other targets, with another planner, or with another\n"
      "                          model file\n"
      "  --compare-measure PLATFORM  also run A and B on PLATFORM (host, a QEMU board)\n"
      "                          and compare every operator's measured time\n"
      "  --compare-tab plans|graphs  what the Compare tab shows below its table: both\n"
      "                          memory plans (the default) or both graphs, marked\n"
      "  --export KIND=FILE      with --screenshot: also write what File > Export writes\n"
      "                          (report-html, graph-svg, graph-png, graph-dot,\n"
      "                          operators-csv, memory-csv, memory-json, profile-csv,\n"
      "                          profile-trace) to FILE; repeatable\n"
      "  --detail compact|full   graph nodes with their type and output (compact, the\n"
      "                          default) or also weights, attributes, MACs, activation\n"
      "  --size WxH              window size for the screenshot (default: 1400x900)\n"
      "  --select N, --operator N  select operator N (default: the first)\n"
      "  --expand-npu            draw each ethos-u operator (a model compiled by Vela) as\n"
      "                          the NPU operations of its command stream\n"
      "  --npu-operation N       select NPU operation N (as loupec npu-stream numbers\n"
      "                          them) of the selected ethos-u operator (else the first)\n"
      "  --version               print the version and exit\n"
      "  -h, --help              print this text and exit\n");
}

LaunchOptions parseLaunchOptions(const QStringList& arguments, const QStringList& viewNames,
                                 const target::TargetRegistry& targets) {
  LaunchOptions options;
  QCommandLineParser parser;
  const QCommandLineOption screenshot(QStringLiteral("screenshot"), {}, QStringLiteral("FILE"));
  const QCommandLineOption view(QStringLiteral("view"), {}, QStringLiteral("VIEW"));
  const QCommandLineOption size(QStringLiteral("size"), {}, QStringLiteral("WxH"));
  const QCommandLineOption op(QStringList{QStringLiteral("select"), QStringLiteral("operator")}, {},
                              QStringLiteral("N"));
  const QCommandLineOption runOn(QStringLiteral("run-on"), {}, QStringLiteral("PLATFORM"));
  const QCommandLineOption debugRun(QStringLiteral("debug"));
  const QCommandLineOption corrupt(QStringLiteral("corrupt-operator"), {}, QStringLiteral("K"));
  const QCommandLineOption target(QStringLiteral("target"), {}, QStringLiteral("TARGETS"));
  const QCommandLineOption compareTarget(QStringLiteral("compare-target"), {},
                                         QStringLiteral("TARGETS"));
  const QCommandLineOption comparePlanner(QStringLiteral("compare-planner"), {},
                                          QStringLiteral("NAME"));
  const QCommandLineOption compareModel(QStringLiteral("compare-model"), {},
                                        QStringLiteral("FILE"));
  const QCommandLineOption detail(QStringLiteral("detail"), {}, QStringLiteral("LEVEL"));
  const QCommandLineOption compareMeasure(QStringLiteral("compare-measure"), {},
                                          QStringLiteral("PLATFORM"));
  const QCommandLineOption compareTab(QStringLiteral("compare-tab"), {}, QStringLiteral("TAB"));
  const QCommandLineOption exportTo(QStringLiteral("export"), {}, QStringLiteral("KIND=FILE"));
  const QCommandLineOption overlapOutputs(QStringLiteral("overlap-outputs"));
  const QCommandLineOption patches(QStringLiteral("patches"));
  const QCommandLineOption expandNpu(QStringLiteral("expand-npu"));
  const QCommandLineOption npuOperation(QStringLiteral("npu-operation"), {}, QStringLiteral("N"));
  parser.addOptions({screenshot, view, size, op, runOn, target, compareTarget, comparePlanner,
                     compareModel, detail, compareMeasure, compareTab, exportTo, overlapOutputs,
                     patches, expandNpu, npuOperation, debugRun, corrupt});
  if (!parser.parse(arguments)) {
    options.error = parser.errorText();
    return options;
  }

  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    options.error = QStringLiteral("expected at most one MODEL, got %1").arg(positional.size());
    return options;
  }
  if (!positional.isEmpty()) options.modelPath = positional.front();
  options.screenshotPath = parser.value(screenshot);
  if (parser.isSet(screenshot) && options.screenshotPath.isEmpty()) {
    options.error = QStringLiteral("--screenshot needs a file name");
    return options;
  }

  if (parser.isSet(view)) {
    options.view = parser.value(view);
    if (!viewNames.contains(options.view)) {
      options.error = QStringLiteral("unknown view '%1' (available: %2)")
                          .arg(options.view, viewNames.join(QStringLiteral(", ")));
      return options;
    }
  }
  options.runOn = parser.value(runOn);
  if (parser.isSet(runOn) && options.runOn.isEmpty()) {
    options.error = QStringLiteral("--run-on needs a platform name");
    return options;
  }
  options.debugRun = parser.isSet(debugRun);
  if (options.debugRun && options.runOn.isEmpty()) {
    options.error = QStringLiteral("--debug needs --run-on PLATFORM");
    return options;
  }
  if (parser.isSet(corrupt)) {
    bool ok = false;
    options.corruptOperator = parser.value(corrupt).toInt(&ok);
    if (!ok || options.corruptOperator < 0 || !options.debugRun) {
      options.error = QStringLiteral("--corrupt-operator needs --debug and an operator index");
      return options;
    }
  }
  if (parser.isSet(target)) {
    options.target = parser.value(target);
    QString error;
    options.targets = models::parseTargets(options.target, targets, &error);
    if (options.targets.empty()) {
      options.error = QStringLiteral("--target '%1': %2").arg(options.target, error);
      return options;
    }
  }
  if (parser.isSet(detail)) {
    const QString level = parser.value(detail);
    if (level != QLatin1String("compact") && level != QLatin1String("full")) {
      options.error = QStringLiteral("--detail wants compact or full, not '%1'").arg(level);
      return options;
    }
    options.fullDetail = level == QLatin1String("full");
  }
  options.overlapOutputs = parser.isSet(overlapOutputs);
  options.patches = parser.isSet(patches);
  options.expandNpu = parser.isSet(expandNpu);
  if (parser.isSet(npuOperation)) {
    bool ok = false;
    options.npuOperation = parser.value(npuOperation).toInt(&ok);
    if (!ok || options.npuOperation < 0) {
      options.error = QStringLiteral("--npu-operation wants an NPU operation index, not '%1'")
                          .arg(parser.value(npuOperation));
      return options;
    }
  }
  options.compareTarget = parser.value(compareTarget);
  options.comparePlanner = parser.value(comparePlanner);
  options.compareModel = parser.value(compareModel);
  options.compareMeasure = parser.value(compareMeasure);
  options.compareGraphs = parser.value(compareTab) == QStringLiteral("graphs");
  if (parser.isSet(compareTab) && !options.compareGraphs &&
      parser.value(compareTab) != QStringLiteral("plans")) {
    options.error =
        QStringLiteral("--compare-tab is plans or graphs, not '%1'").arg(parser.value(compareTab));
    return options;
  }
  for (const QString& item : parser.values(exportTo)) {
    const qsizetype equals = item.indexOf(QLatin1Char('='));
    if (equals <= 0 || equals == item.size() - 1) {
      options.error = QStringLiteral("--export takes KIND=FILE, not '%1'").arg(item);
      return options;
    }
    options.exports.append({item.left(equals), item.mid(equals + 1)});
  }
  if (!options.exports.isEmpty() && !options.screenshot()) {
    options.error = QStringLiteral("--export needs --screenshot (both run without staying open)");
    return options;
  }
  if (!options.compareTarget.isEmpty()) {
    QString error;
    if (models::parseTargets(options.compareTarget, targets, &error).empty()) {
      options.error = QStringLiteral("--compare-target '%1': %2").arg(options.compareTarget, error);
      return options;
    }
  }
  if (parser.isSet(size)) {
    static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const auto match = pattern.match(parser.value(size));
    if (!match.hasMatch()) {
      options.error =
          QStringLiteral("--size wants WxH, e.g. 1400x900, not '%1'").arg(parser.value(size));
      return options;
    }
    options.windowSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
  }
  if (parser.isSet(op)) {
    bool ok = false;
    options.operatorIndex = parser.value(op).toInt(&ok);
    if (!ok || options.operatorIndex < 0) {
      options.error = QStringLiteral("--select (--operator) wants an operator index, not '%1'")
                          .arg(parser.value(op));
      return options;
    }
  }
  return options;
}

}  // namespace loupe::gui
