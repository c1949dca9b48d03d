// The command line of `loupe`: which model to open and, for scripts and
// tests, a screenshot to save instead of staying open.
#pragma once

#include <QList>
#include <QPair>
#include <QSize>
#include <QString>
#include <QStringList>

#include "target/target_registry.h"
#include "target/target_string.h"

namespace loupe::gui {

struct LaunchOptions {
  QString modelPath;       // empty: the bundled default model
  QString screenshotPath;  // non-empty: render, save the PNG and exit
  QString view = QStringLiteral("graph");
  QSize windowSize{1400, 900};
  int operatorIndex = -1;       // the operator to select, -1 to keep the default
  QString runOn;                // non-empty: run the model on this platform first
  bool debugRun = false;        // --debug: that run is Debug on board
  int corruptOperator = -1;     // --corrupt-operator K: with --debug, operator K's weight byte
  QString target;               // non-empty: compile for these targets ("ethos-u, c")
  target::TargetList targets;   // `target` parsed; empty when not given
  bool fullDetail = false;      // --detail full: full-detail graph nodes
  bool overlapOutputs = false;  // --overlap-outputs: outputs may start inside dying inputs
  bool patches = false;         // --patches: the first operators run strip by strip
  bool expandNpu = false;       // --expand-npu: ethos-u operators drawn as their NPU operations
  int npuOperation = -1;        // --npu-operation N: the ethos-u operator's NPU operation to select
  // Compare (the Compare tab's B): with these targets, planner or model
  // file; any of them set compares once the model is open.
  QString compareTarget;
  QString comparePlanner;
  QString compareModel;
  QString compareMeasure;      // --compare-measure: the platform both run on
  bool compareGraphs = false;  // --compare-tab graphs
  // --export KIND=FILE (with --screenshot): File > Export's KIND
  // ("report-html", "graph-svg", ...) written to FILE, in order.
  QList<QPair<QString, QString>> exports;
  QString error;  // non-empty when the arguments are wrong

  bool compare() const {
    return !compareTarget.isEmpty() || !comparePlanner.isEmpty() || !compareModel.isEmpty() ||
           !compareMeasure.isEmpty();
  }

  bool screenshot() const { return !screenshotPath.isEmpty(); }
};

// The text of `loupe --help`.
QString launchUsage();

// `arguments` as QCoreApplication::arguments() gives them (program first).
// `viewNames` are the views --view accepts; --target is parsed against
// `targets`.
LaunchOptions parseLaunchOptions(const QStringList& arguments, const QStringList& viewNames,
                                 const target::TargetRegistry& targets);

}  // namespace loupe::gui
