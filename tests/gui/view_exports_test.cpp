// File > Export from the window: every export writes a file that parses as
// what it says (SVG as XML, DOT through Graphviz, CSV with a row per
// operator or buffer, the trace as JSON, the report as XHTML), atomically,
// and says so in the status bar; with nothing to export, or a folder that
// is not there, it says why and writes nothing.
#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/board_run.h"
#include "models/memory_plan_layout.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "quiet_main_window.h"
#include "views/deploy_panel.h"
#include "views/graph_view.h"

using loupe::gui::MainWindow;

namespace {

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int lineCount(const QByteArray& text) {
  return static_cast<int>(text.count("\r\n"));
}

}  // namespace

class ViewExportsTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    qputenv("XDG_CACHE_HOME", dir_.filePath("cache").toUtf8());
  }

  void everyExportWritesAFileThatParses() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    const int operators = window.document()->operatorCount();
    auto path = [this](const char* name) { return dir_.filePath(name); };

    QCOMPARE(window.exportTo("graph-svg", path("kws.svg")), QString());
    QVERIFY(window.statusBar()->currentMessage().contains(path("kws.svg")));
    QXmlStreamReader svg(readAll(path("kws.svg")));
    int texts = 0;
    while (!svg.atEnd()) {
      svg.readNext();
      if (svg.isStartElement() && svg.name() == QLatin1String("text")) ++texts;
    }
    QVERIFY2(!svg.hasError(), qPrintable(svg.errorString()));
    QVERIFY2(texts >= operators, "every node's title is text in the SVG");

    QCOMPARE(window.exportTo("graph-png", path("kws.png")), QString());
    const QImage png(path("kws.png"));
    QVERIFY(!png.isNull());
    QVERIFY(png.width() > 200 && png.height() > 200);

    QCOMPARE(window.exportTo("graph-dot", path("kws.dot")), QString());
    const QByteArray dot = readAll(path("kws.dot"));
    QCOMPARE(static_cast<int>(dot.count("shape=box")), operators);
    QProcess graphviz;
    graphviz.start("dot", {"-Tsvg", path("kws.dot"), "-o", path("kws.dot.svg")});
    QVERIFY(graphviz.waitForFinished(30000));
    QVERIFY2(graphviz.exitCode() == 0, graphviz.readAllStandardError().constData());
    QVERIFY(QFileInfo(path("kws.dot.svg")).size() > 0);

    QCOMPARE(window.exportTo("operators-csv", path("operators.csv")), QString());
    QCOMPARE(lineCount(readAll(path("operators.csv"))), 1 + operators);

    const loupe::models::MemoryPlanLayout& plan = window.compilation()->memoryPlan();
    QCOMPARE(window.exportTo("memory-csv", path("plan.csv")), QString());
    QCOMPARE(lineCount(readAll(path("plan.csv"))), 1 + static_cast<int>(plan.buffers.size()));
    QCOMPARE(window.exportTo("memory-json", path("plan.json")), QString());
    const QJsonDocument planJson = QJsonDocument::fromJson(readAll(path("plan.json")));
    QCOMPARE(planJson.object()["total_bytes"].toInteger(), plan.totalBytes);

    // No profile before a run: said, nothing written.
    const QString early = window.exportTo("profile-csv", path("early.csv"));
    QVERIFY2(early.contains("run the model"), qPrintable(early));
    QVERIFY(!QFile::exists(path("early.csv")));

    QVERIFY(window.deployPanel()->selectPlatform("host"));
    QVERIFY(window.waitUntilIdle());
    window.runOnBoardAction()->trigger();
    QVERIFY(window.waitUntilIdle(600000));
    QVERIFY2(window.boardRun()->state() == loupe::models::BoardRun::State::Succeeded,
             qPrintable(window.boardRun()->errorMessage()));
    QCOMPARE(window.exportTo("profile-csv", path("profile.csv")), QString());
    QCOMPARE(lineCount(readAll(path("profile.csv"))),
             1 + static_cast<int>(window.boardRun()->profileRows().size()));
    QCOMPARE(window.exportTo("profile-trace", path("profile.trace.json")), QString());
    QJsonParseError error;
    const QJsonDocument trace =
        QJsonDocument::fromJson(readAll(path("profile.trace.json")), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(trace.object().contains("traceEvents"));

    // The one-page report: XHTML that parses, every operator a row, the
    // memory plan's picture inline, the profile of the run.
    QCOMPARE(window.exportTo("report-html", path("report.html")), QString());
    const QByteArray report = readAll(path("report.html"));
    QXmlStreamReader html(report);
    int rows = 0, images = 0;
    QImage planPicture;
    while (!html.atEnd()) {
      html.readNext();
      if (html.isStartElement() && html.name() == QLatin1String("tr")) ++rows;
      if (html.isStartElement() && html.name() == QLatin1String("img")) {
        ++images;
        const QString src = html.attributes().value("src").toString();
        const QString prefix = QStringLiteral("data:image/png;base64,");
        QVERIFY(src.startsWith(prefix));
        planPicture.loadFromData(QByteArray::fromBase64(src.mid(prefix.size()).toLatin1()), "PNG");
      }
    }
    QVERIFY2(!html.hasError(), qPrintable(html.errorString()));
    QVERIFY(rows >= 1 + operators + 1 + static_cast<int>(window.boardRun()->profileRows().size()));
    QCOMPARE(images, 1);
    QVERIFY(report.contains("data:image/png;base64,"));
    QVERIFY(report.contains("<h2>Profile</h2>"));
    // The picture is the chart, not a blank page (the Memory Plan tab was
    // never shown): its buffers are coloured rectangles.
    QCOMPARE(planPicture.size(), QSize(1000, 420));
    int coloured = 0;
    for (int y = 0; y < planPicture.height(); y += 4) {
      for (int x = 0; x < planPicture.width(); x += 4) {
        const QColor c = planPicture.pixelColor(x, y);
        if (c.saturation() > 60) ++coloured;
      }
    }
    QVERIFY2(coloured > 2000, qPrintable(QString::number(coloured)));

    // A folder that does not exist: the reason, no file, the old file kept.
    const QString missing = dir_.filePath("no/such/folder/plan.csv");
    const QString refused = window.exportTo("memory-csv", missing);
    QVERIFY2(refused.contains(missing), qPrintable(refused));
    QVERIFY(!QFile::exists(missing));
    QVERIFY(QDir(dir_.path()).entryList({"*.csv"}).size() == 3);
  }
};

QTEST_MAIN(ViewExportsTest)
#include "view_exports_test.moc"
