// `loupe`'s command line: what each form means and what it refuses.
#include <QtTest>

#include "gui/launch_options.h"
#include "gui_test_files.h"

using loupe::gui::parseLaunchOptions;

namespace {
const QStringList kViews = {"operators", "ir"};
}

class LaunchOptionsTest : public QObject {
  Q_OBJECT

 private slots:
  void noArgumentsOpenTheBundledModel() {
    const auto options = parseLaunchOptions({"loupe"}, kViews, loupe::test::registries()->targets);
    QVERIFY(options.error.isEmpty());
    QVERIFY(options.modelPath.isEmpty());
    QVERIFY(!options.screenshot());
    QCOMPARE(options.view, "graph");
    QCOMPARE(options.windowSize, QSize(1400, 900));
  }

  void aScreenshotOfAViewOfAModel() {
    const auto options = parseLaunchOptions(
        {"loupe", "--screenshot", "out.png", "--view=ir", "--size", "800x600", "m.tflite"}, kViews,
        loupe::test::registries()->targets);
    QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
    QCOMPARE(options.screenshotPath, "out.png");
    QCOMPARE(options.view, "ir");
    QCOMPARE(options.windowSize, QSize(800, 600));
    QCOMPARE(options.modelPath, "m.tflite");
    QVERIFY(options.runOn.isEmpty());
  }

  void aRunOnAPlatformBeforeTheScreenshot() {
    const auto options = parseLaunchOptions({"loupe", "--run-on", "host", "--screenshot", "p.png"},
                                            kViews, loupe::test::registries()->targets);
    QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
    QCOMPARE(options.runOn, "host");
    QVERIFY(parseLaunchOptions({"loupe", "--run-on"}, kViews, loupe::test::registries()->targets)
                .error.contains("run-on"));
  }

  void wrongArgumentsSayWhatIsWrong() {
    QVERIFY(
        parseLaunchOptions({"loupe", "--view", "graph"}, kViews, loupe::test::registries()->targets)
            .error.contains("unknown view 'graph' (available: operators, ir)"));
    QVERIFY(
        parseLaunchOptions({"loupe", "--size", "big"}, kViews, loupe::test::registries()->targets)
            .error.contains("WxH"));
    QVERIFY(parseLaunchOptions({"loupe", "a.tflite", "b.tflite"}, kViews,
                               loupe::test::registries()->targets)
                .error.contains("at most one MODEL"));
    QVERIFY(parseLaunchOptions({"loupe", "--operator", "-3"}, kViews,
                               loupe::test::registries()->targets)
                .error.contains("--operator"));
    QVERIFY(parseLaunchOptions({"loupe", "--bogus"}, kViews, loupe::test::registries()->targets)
                .error.contains("bogus"));
    QVERIFY(
        !parseLaunchOptions({"loupe", "--screenshot"}, kViews, loupe::test::registries()->targets)
             .error.isEmpty());
  }

  void aTargetListIsCheckedAndKept() {
    const auto options =
        parseLaunchOptions({"loupe", "--target", "ethos-u -accelerator_config=ethos-u55-128, c"},
                           kViews, loupe::test::registries()->targets);
    QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
    QCOMPARE(options.target, "ethos-u -accelerator_config=ethos-u55-128, c");
    // A configuration the NPU does not have, and a target nobody registered.
    const QString badConfig =
        parseLaunchOptions({"loupe", "--target", "ethos-u -accelerator_config=ethos-u55-100, c"},
                           kViews, loupe::test::registries()->targets)
            .error;
    QVERIFY2(badConfig.contains("--target 'ethos-u -accelerator_config=ethos-u55-100, c'") &&
                 badConfig.contains("ethos-u55-128"),
             qPrintable(badConfig));
    const QString unknown = parseLaunchOptions({"loupe", "--target", "gpu, c"}, kViews,
                                               loupe::test::registries()->targets)
                                .error;
    QVERIFY2(unknown.contains("gpu"), qPrintable(unknown));
    QVERIFY(parseLaunchOptions({"loupe", "--target"}, kViews, loupe::test::registries()->targets)
                .error.contains("target"));
  }

  void exportsAndComparisonOptionsAreCheckedAndKept() {
    const auto& targets = loupe::test::registries()->targets;
    const auto options = parseLaunchOptions(
        {"loupe", "--screenshot", "s.png", "--export", "report-html=r.xhtml", "--export",
         "graph-svg=dir/g=1.svg", "--compare-measure", "host", "--compare-tab", "graphs"},
        kViews, targets);
    QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
    QCOMPARE(options.exports.size(), 2);
    QCOMPARE(options.exports[0], qMakePair(QString("report-html"), QString("r.xhtml")));
    QCOMPARE(options.exports[1], qMakePair(QString("graph-svg"), QString("dir/g=1.svg")));
    QCOMPARE(options.compareMeasure, "host");
    QVERIFY(options.compareGraphs);
    QVERIFY(options.compare());
    QVERIFY(parseLaunchOptions({"loupe", "--export", "report-html=r.xhtml"}, kViews, targets)
                .error.contains("--export needs --screenshot"));
    for (const char* bad : {"report-html", "=r.xhtml", "report-html="}) {
      const QString error =
          parseLaunchOptions({"loupe", "--screenshot", "s.png", "--export", bad}, kViews, targets)
              .error;
      QVERIFY2(error.contains("KIND=FILE"), qPrintable(error));
    }
    QVERIFY(parseLaunchOptions({"loupe", "--compare-tab", "tables"}, kViews, targets)
                .error.contains("plans or graphs"));
  }

  void theUsageNamesEveryOption() {
    const QString usage = loupe::gui::launchUsage();
    for (const char* option :
         {"--screenshot", "--view", "--size", "--operator", "--run-on", "--target", "--export",
          "--compare-measure", "--compare-tab", "--version", "--help"}) {
      QVERIFY2(usage.contains(option), option);
    }
  }
};

QTEST_GUILESS_MAIN(LaunchOptionsTest)
#include "launch_options_test.moc"
