// The compiled views driven as a user drives them: every shared model opens,
// compiles and lays out in the background; a click in the graph selects the
// operator in the TIR, C and Memory Plan views; another planner changes the
// plan to exactly what the memory planning API (`loupec memplan`) gives; a
// corrupt file leaves the compiled model in place.
#include <Qsci/qsciscintilla.h>
#include <QCheckBox>

#include <QComboBox>
#include <QDir>
#include <QGraphicsView>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "gui/main_window.h"
#include "gui_test_files.h"
#include "memory/memory_plan.h"
#include "models/display_text.h"
#include "models/document_graph_layout.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/problem_list_model.h"
#include "passes/pass_manager.h"
#include "quiet_main_window.h"
#include "test_data.h"
#include "views/board_memory_bars.h"
#include "views/deploy_panel.h"
#include "views/find_bar.h"
#include "views/function_listing_view.h"
#include "views/graph_node_item.h"
#include "views/graph_overview.h"
#include "views/graph_view.h"
#include "views/memory_plan_view.h"
#include "views/memory_timeline_chart.h"

using loupe::gui::MainWindow;
using loupe::models::ModelCompilation;

namespace {

QString modelPath(const char* name) {
  return QString::fromStdString((loupe::test::modelsDir() / name / "model.tflite").string());
}

// What `loupec memplan MODEL --planner NAME` reports as the plan's bytes.
qint64 memplanTotal(const QString& path, const QString& planner) {
  const loupe::ir::Graph imported = loupe::frontend::importTfliteFile(path.toStdString());
  loupe::passes::StageTimeline timeline;
  const loupe::ir::Graph graph = loupe::passes::runGraphPipeline(imported, timeline);
  loupe::memory::MemoryPlanOptions options;
  options.planner = planner.toStdString();
  options.scratchBytes = loupe::codegen::operatorScratch(graph);
  return loupe::memory::planMemoryUnchecked(graph, options).result.totalBytes;
}

// Clicks the centre of operator `op`'s node as a user would.
void clickOperatorNode(loupe::views::GraphView* view, int op) {
  loupe::views::GraphNodeItem* node = view->nodeOfOperator(op);
  QVERIFY(node);
  view->canvas()->centerOn(node);
  const QPoint at = view->canvas()->mapFromScene(node->sceneBoundingRect().center());
  QTest::mouseClick(view->canvas()->viewport(), Qt::LeftButton, {}, at);
}

}  // namespace

class CompiledViewsTest : public QObject {
  Q_OBJECT

 private:
  // TIR's line `line` is on screen and carries the current-function marker.
  static void expectShownAndMarked(loupe::views::FunctionListingView* view, int line) {
    QsciScintilla* editor = view->editor();
    const int first = editor->firstVisibleLine();
    const int shown = static_cast<int>(editor->SendScintilla(QsciScintilla::SCI_LINESONSCREEN));
    QVERIFY2(
        line >= first && line < first + shown,
        qPrintable(QString("line %1 not within %2..%3").arg(line).arg(first).arg(first + shown)));
    QVERIFY(editor->markersAtLine(line) != 0);
  }

  void clickSelectsEverywhere() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("graph"));

    clickOperatorNode(window.graphView(), 3);  // DEPTHWISE_CONV_2D
    QCOMPARE(window.document()->currentOperator(), 3);
    QVERIFY(window.graphView()->nodeOfOperator(3)->isCurrent());
    QVERIFY(!window.graphView()->nodeOfOperator(2)->isCurrent());

    auto* tir = window.tirView();
    QVERIFY2(tir->currentFunctionName().contains("depthwise_conv_2d"),
             qPrintable(tir->currentFunctionName()));
    QVERIFY(tir->currentFunctionText().startsWith("@T.prim_func"));
    QVERIFY2(tir->currentFunctionText().contains("\"operator\": \"#3 DEPTHWISE_CONV_2D\""),
             qPrintable(tir->currentFunctionText().left(400)));
    // Scrolled to it: its first line is on screen and marked as the current
    // function's (what a user sees, whatever the fonts' line height).
    const int tirLine =
        window.compilation()
            ->tirListing()
            .functions.value(window.compilation()->tirListing().functionOfOperator(3))
            .firstLine;
    QVERIFY(window.showView("tir"));
    expectShownAndMarked(tir, tirLine);
    QVERIFY(window.showView("graph"));

    auto* c = window.cView();
    QCOMPARE(c->currentFunctionName(), tir->currentFunctionName());
    QVERIFY(c->currentFunctionText().contains(c->currentFunctionName() + "("));
    QVERIFY(!c->currentFunctionText().contains("@T.prim_func"));

    // The memory view highlights exactly the buffers operator 3 reads or writes:
    // its input (op 2's output), its output, and its scratch if it has one.
    const auto* chart = window.memoryPlanView()->chart();
    const auto& plan = chart->planLayout();
    QVERIFY(!chart->highlightedBuffers().isEmpty());
    const auto& graph = window.document()->graph();
    const QString input = QString::fromStdString(graph.tensor(graph.operators[3].inputs[0]).name);
    const QString output = QString::fromStdString(graph.tensor(graph.operators[3].outputs[0]).name);
    bool hasInput = false;
    bool hasOutput = false;
    for (int i : chart->highlightedBuffers()) {
      QVERIFY(plan.buffers[i].modelOperators.contains(3));
      hasInput = hasInput || plan.buffers[i].tensors.contains(input);
      hasOutput = hasOutput || plan.buffers[i].tensors.contains(output);
    }
    QVERIFY(hasInput);
    QVERIFY(hasOutput);
    for (int i = 0; i < plan.buffers.size(); ++i) {
      if (!chart->highlightedBuffers().contains(i)) {
        QVERIFY(!plan.buffers[i].modelOperators.contains(3));
      }
    }

    // A no-copy RESHAPE has no function of its own; the views say so.
    window.document()->setCurrentOperator(10);
    QVERIFY(tir->currentFunctionName().isEmpty());
    QVERIFY2(tir->headerText().contains("no function"), qPrintable(tir->headerText()));
  }
 private slots:
  void everySharedModelCompilesAndLaysOut_data() {
    QTest::addColumn<QString>("path");
    const QDir models(QString::fromStdString(loupe::test::modelsDir().string()));
    for (const QString& name : models.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      const QString path = models.filePath(name + "/model.tflite");
      if (QFileInfo::exists(path)) QTest::newRow(qPrintable(name)) << path;
    }
    QTest::newRow("vela") << loupe::test::velaModelPath();
  }

  void everySharedModelCompilesAndLaysOut() {
    QFETCH(QString, path);
    MainWindow window(quietOptions());
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.openModel(path));
    QVERIFY(window.waitUntilIdle());
    auto* document = window.document();
    // One node per operator plus the model's inputs and outputs, all placed.
    const auto& layout = window.graphLayout()->layout();
    QVERIFY2(layout.error.isEmpty(), qPrintable(layout.error));
    QCOMPARE(window.graphView()->nodeCount(),
             document->operatorCount() + static_cast<int>(document->graph().inputs.size()) +
                 static_cast<int>(document->graph().outputs.size()));
    for (const auto& node : layout.nodes) QVERIFY(node.rect.width() > 0);

    // Every shared model compiles, the Vela model (its ethos-u operator a
    // call of the Ethos-U driver) too.
    auto* compilation = window.compilation();
    QVERIFY2(compilation->state() != ModelCompilation::State::Failed,
             qPrintable(compilation->errorMessage()));
    QCOMPARE(compilation->state(), ModelCompilation::State::Compiled);
    QVERIFY(!compilation->tirListing().functions.isEmpty());
    QCOMPARE(compilation->cListing().functions.size(), compilation->tirListing().functions.size());
    QCOMPARE(window.memoryPlanView()->shownTotalBytes(),
             memplanTotal(path, compilation->planner()));
  }

  void theOverviewShowsWhereTheGraphIsAndJumpsThere() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openModel(loupe::test::vwwModelPath()));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("graph"));
    auto* graph = window.graphView();
    auto* canvas = graph->canvas();
    auto* overview = graph->overview();
    // vww's 31 operators do not fit at a legible zoom: the overview is there.
    QVERIFY(overview->isVisible());
    // The outline is the part the canvas shows; the last operator is outside it.
    const int last = window.document()->operatorCount() - 1;
    const QPointF lastCentre = graph->nodeOfOperator(last)->sceneBoundingRect().center();
    QVERIFY(!overview->visibleSceneRect().contains(lastCentre));
    // A click on it in the miniature brings it into the canvas.
    QTest::mouseClick(overview->viewport(), Qt::LeftButton, {}, overview->mapFromScene(lastCentre));
    QVERIFY(overview->visibleSceneRect().contains(lastCentre));
    const QRectF shown = canvas->mapToScene(canvas->viewport()->rect()).boundingRect();
    QVERIFY(shown.contains(lastCentre));
    // When the canvas shows everything, the overview steps aside.
    canvas->zoomBy(0.05 / canvas->zoom());
    QVERIFY(!overview->isVisible());
  }

  void aClickInTheGraphSelectsTheOperatorInTirCAndMemory() { clickSelectsEverywhere(); }

  void theSameWithAnotherDefaultFont() {
    // A desktop whose default font is nothing like the bare machine's: the
    // views draw their code and nodes in the project's font, and what the
    // user sees is the same.
    const QFont original = QApplication::font();
    QFont other(QStringLiteral("Serif"), 17);
    other.setStyleHint(QFont::Serif);
    QApplication::setFont(other);
    clickSelectsEverywhere();
    QApplication::setFont(original);
  }

  void anotherPlannerChangesTheTotalToWhatMemplanGives() {
    const QString path = modelPath("ad01_int8");
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(path));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("memory"));
    auto* view = window.memoryPlanView();
    QComboBox* selector = view->plannerSelector();
    QCOMPARE(selector->count(), ModelCompilation::plannerNames().size());
    QSet<qint64> totals;
    for (int i = 0; i < selector->count(); ++i) {
      const QString planner = selector->itemText(i);
      selector->setCurrentIndex(i);
      QVERIFY(window.waitUntilIdle());
      QCOMPARE(view->chart()->planLayout().planner, planner);
      QCOMPARE(view->shownTotalBytes(), memplanTotal(path, planner));
      QVERIFY2(view->summaryText().contains(QLocale::system().toString(view->shownTotalBytes())),
               qPrintable(view->summaryText()));
      totals.insert(view->shownTotalBytes());
    }
    // ad01's greedy plans are bigger than the searches': the total did change.
    QVERIFY(totals.size() > 1);

    // Two algorithms side by side, on the same buffers and one scale.
    QVERIFY(view->comparisonChart()->isHidden());
    selector->setCurrentText("branch_and_bound");
    view->comparisonSelector()->setCurrentText("greedy_by_size");
    QVERIFY(window.waitUntilIdle());
    QVERIFY(view->comparisonChart()->isVisible());
    const auto& other = view->comparisonChart()->planLayout();
    QCOMPARE(other.planner, "greedy_by_size");
    QCOMPARE(other.totalBytes, memplanTotal(path, "greedy_by_size"));
    QCOMPARE(view->shownTotalBytes(), memplanTotal(path, "branch_and_bound"));
    QCOMPARE(other.buffers.size(), view->chart()->planLayout().buffers.size());
    view->comparisonSelector()->setCurrentIndex(0);
    QVERIFY(window.waitUntilIdle());
    QVERIFY(view->comparisonChart()->isHidden());
  }

  // Choosing the AN547 in the Deploy panel plans in its memories: one lane
  // per pool, the four memories with their fill above the chart; another
  // planner keeps the board's pools; the host has one pool again.
  void aBoardsMemoriesAreThePlansPools() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("memory"));
    auto* view = window.memoryPlanView();
    QVERIFY(view->memoryBars()->isHidden());
    QCOMPARE(view->chart()->planLayout().pools.size(), 1);
    QVERIFY(window.deployPanel()->selectPlatform("qemu-mps3-an547"));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(view->memoryBars()->isVisible());
    QStringList memories;
    for (const auto& memory : view->memoryBars()->memories()) memories << memory.name;
    QCOMPARE(memories, QStringList({"ITCM", "DTCM", "SRAM", "ISRAM"}));
    const auto& plan = view->chart()->planLayout();
    QStringList pools;
    for (const auto& pool : plan.pools) pools << pool.name + " " + pool.memory;
    QCOMPARE(pools, QStringList({"dtcm DTCM", "sram SRAM", "isram ISRAM"}));
    // kws fits the TCMs: its workspace in DTCM, its weights beside the code.
    const auto& bars = view->memoryBars()->memories();
    QCOMPARE(bars[1].workspaceBytes, plan.totalBytes);
    QVERIFY(bars[0].constantBytes > 0);
    QCOMPARE(bars[2].workspaceBytes + bars[2].constantBytes, 0);
    QVERIFY2(loupe::views::BoardMemoryBars::describe(bars[1]).startsWith("DTCM: workspace "),
             qPrintable(loupe::views::BoardMemoryBars::describe(bars[1])));
    view->plannerSelector()->setCurrentText("greedy_by_size");
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(view->chart()->planLayout().pools.size(), 3);
    // The user's pools override the board's, as --pools does; a wrong
    // specification is said and changes nothing.
    view->poolsEditor()->setText("fast:size=8K;big:size=1M,memory=ISRAM");
    emit view->poolsEditor()->editingFinished();
    QVERIFY(window.waitUntilIdle());
    QStringList userPools;
    for (const auto& pool : view->chart()->planLayout().pools)
      userPools << pool.name + " " + pool.memory;
    QCOMPARE(userPools, QStringList({"fast ", "big ISRAM"}));
    view->poolsEditor()->setText("fast:size=0");
    emit view->poolsEditor()->editingFinished();
    QVERIFY(window.waitUntilIdle());
    QVERIFY2(view->summaryText().contains("positive number of bytes"),
             qPrintable(view->summaryText()));
    QCOMPARE(view->chart()->planLayout().pools.size(), 2);
    view->poolsEditor()->clear();
    emit view->poolsEditor()->editingFinished();
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(view->chart()->planLayout().pools.size(), 3);
    QVERIFY(window.deployPanel()->selectPlatform("host"));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(view->memoryBars()->isHidden());
    QCOMPARE(view->chart()->planLayout().pools.size(), 1);
  }

  // Full detail, as Netron draws a node and more: kws's first convolution
  // lists its weights and bias shapes, stride and padding, its MACs, and its
  // fused RELU as a band; the node grows to hold them; compact again shrinks it.
  void fullDetailNodesListWeightsAttributesAndMacs() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    auto* graph = window.graphView();
    const qreal compactHeight = graph->nodeOfOperator(0)->node().rect.height();
    QVERIFY(graph->nodeOfOperator(0)->node().facts.isEmpty());
    graph->detailButton()->setChecked(true);
    QVERIFY(window.waitUntilIdle());
    const loupe::models::LaidOutNode& conv = graph->nodeOfOperator(0)->node();
    const QString facts = conv.facts.join('\n');
    QVERIFY2(facts.contains("weights int8[64,10,4,1]"), qPrintable(facts));
    QVERIFY2(facts.contains("bias int32[64]"), qPrintable(facts));
    QVERIFY2(facts.contains("stride 2x2"), qPrintable(facts));
    QVERIFY2(facts.contains("padding SAME"), qPrintable(facts));
    QVERIFY2(facts.contains("320,000 MACs \u00b7 out 8,000 B"), qPrintable(facts));
    QCOMPARE(conv.activation, "RELU");
    // The bytes of workspace alive at its step: at least its 8,000 B output
    // (the input is the caller's buffer); the most alive at any step is the
    // plan's lower bound, which the compiler computes on its own.
    QVERIFY(conv.runLine);
    const QString live = graph->nodeOfOperator(0)->runFact();
    const auto& plan = window.compilation()->memoryPlan();
    const QList<qint64> perOperator = plan.liveBytesByModelOperator(13);
    const qint64 liveBytes = perOperator.value(0);
    QVERIFY2(liveBytes >= 8000, qPrintable(live));
    QCOMPARE(*std::max_element(perOperator.begin(), perOperator.end()), plan.lowerBound);
    QCOMPARE(live, QString("live %1 B").arg(loupe::models::groupedNumber(liveBytes)));
    QVERIFY(conv.rect.height() > compactHeight + 4 * 10);
    QCOMPARE(graph->nodeCount(), window.graphLayout()->layout().nodes.size());
    graph->detailButton()->setChecked(false);
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(graph->nodeOfOperator(0)->node().rect.height(), compactHeight);
  }

  // The Memory Plan view gives both bounds: kws's tensor-level one and the
  // one if outputs are written over their dying inputs (loupec memplan's).
  void theMemoryPlanViewGivesTheBoundWithOverlaps() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    const auto& plan = window.compilation()->memoryPlan();
    QCOMPARE(plan.lowerBound, 16256);
    QCOMPARE(plan.overlapBound, 8640);
    QVERIFY(window.showView("memory"));
    const QString summary = window.memoryPlanView()->summaryText();
    QVERIFY2(summary.contains(QLocale::system().toString(8640)), qPrintable(summary));
    QVERIFY2(summary.contains("Overlap outputs lets the planner use them"), qPrintable(summary));
    QVERIFY(plan.overlaps.isEmpty());
    QCOMPARE(plan.patchBound, 0);  // every kws tensor is the same size: patches gain nothing
  }

  // vww's first four operators in strips (memplan's patch bound): the view
  // says which, in how many strips, and the bound with them.
  void theMemoryPlanViewGivesTheBoundWithPatches() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("vww_96_int8")));
    QVERIFY(window.waitUntilIdle());
    const auto& plan = window.compilation()->memoryPlan();
    QCOMPARE(plan.patchOperators, (QList<int>{0, 1, 2, 3}));
    QCOMPARE(plan.patchStrips, 8);
    QVERIFY(plan.patchBound > 0 && plan.patchBound <= plan.lowerBound / 2);
    QVERIFY(plan.patchBound <= plan.overlapBound);
    QVERIFY(window.showView("memory"));
    const QString summary = window.memoryPlanView()->summaryText();
    QVERIFY2(summary.contains("running operators 0\u20133 in 8 strips (Patches)"),
             qPrintable(summary));
    QVERIFY2(summary.contains(QLocale::system().toString(plan.patchBound)), qPrintable(summary));
  }

  // Patches recompiles vww with its first four operators strip by strip: the
  // plan is the patch bound, each strip's steps are a band of the chart,
  // selecting an operator of the stage selects its step in every strip, and
  // the middle strips' shared functions are listed once. Run on board
  // deploys the same code.
  void patchesRunTheFirstOperatorsInStrips() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("vww_96_int8")));
    QVERIFY(window.waitUntilIdle());
    const qint64 predicted = window.compilation()->memoryPlan().patchBound;
    const int wholeFunctions =
        static_cast<int>(window.compilation()->tirListing().functions.size());
    QVERIFY(window.showView("memory"));
    window.memoryPlanView()->overlapSwitch()->setChecked(true);
    window.memoryPlanView()->patchSwitch()->setChecked(true);
    QVERIFY(window.compilation()->patches());
    QVERIFY(window.waitUntilIdle());
    const auto& plan = window.compilation()->memoryPlan();
    QVERIFY(plan.patchesApplied());
    QCOMPARE(plan.patchStripSteps.size(), 8);
    QCOMPARE(plan.patchOperators, (QList<int>{0, 1, 2, 3}));
    QCOMPARE(plan.totalBytes, predicted);
    QCOMPARE(plan.patchBound, predicted);
    // The strips run one after another: consecutive bands of five steps (a
    // slice and the four operators).
    for (int s = 0; s < plan.patchStripSteps.size(); ++s) {
      QCOMPARE(plan.patchStripSteps[s].second - plan.patchStripSteps[s].first, 4);
      if (s > 0) QVERIFY(plan.patchStripSteps[s].first > plan.patchStripSteps[s - 1].second);
    }
    // Imported operator 2 runs once per strip.
    int stepsOfOperator2 = 0;
    for (const auto& operators : plan.stepOperators) stepsOfOperator2 += operators.contains(2);
    QCOMPARE(stepsOfOperator2, 8);
    QVERIFY(!plan.buffersOfOperator(2).isEmpty());
    // Top, middle and bottom strips: three functions each for four operators.
    const auto& tir = window.compilation()->tirListing();
    QVERIFY(tir.functions.size() > wholeFunctions);
    QVERIFY(tir.functions.size() <= wholeFunctions + 2 * 4 + 4);
    QVERIFY(tir.functionOfOperator(2) >= 0);
    const QString summary = window.memoryPlanView()->summaryText();
    QVERIFY2(summary.contains("operators 0\u20133 run in 8 strips"), qPrintable(summary));
    QVERIFY(window.deployPanel()->patches());
    window.memoryPlanView()->patchSwitch()->setChecked(false);
    QVERIFY(window.waitUntilIdle());
    QVERIFY(!window.compilation()->memoryPlan().patchesApplied());
    QVERIFY(!window.deployPanel()->patches());
  }

  // Overlap outputs recompiles with outputs over their dying inputs: the
  // plan goes below the tensor-level bound, each overlap starts the output
  // at or below the safe start the traced loops allow, and a buffer in one
  // still selects its operator.
  void overlapOutputsPlansAndDrawsOutputsOverInputs() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("memory"));
    window.memoryPlanView()->overlapSwitch()->setChecked(true);
    QVERIFY(window.compilation()->overlapOutputs());
    QVERIFY(window.waitUntilIdle());
    const auto& plan = window.compilation()->memoryPlan();
    QVERIFY(plan.overlapsAllowed);
    QCOMPARE(plan.lowerBound, 16256);
    QCOMPARE(plan.overlapBound, 8640);
    QCOMPARE(plan.targetBound(), 8640);
    // At the bound: the pointwise layers climb back what the depthwise ones
    // descend, running backwards.
    QCOMPARE(plan.totalBytes, 8640);
    QVERIFY(std::any_of(plan.overlaps.begin(), plan.overlaps.end(),
                        [](const auto& o) { return o.backwards; }));
    QVERIFY(plan.overlaps.size() >= 4);
    for (const auto& o : plan.overlaps) {
      const auto& out = plan.buffers[o.output];
      const auto& in = plan.buffers[o.input];
      QCOMPARE(out.firstStep, o.step);
      QCOMPARE(in.lastStep, o.step);
      // At or beyond the safe start, on the side the loops run.
      if (o.backwards) {
        QVERIFY(out.offset >= o.safeOffset(plan.buffers));
        QVERIFY(out.offset > in.offset);
      } else {
        QVERIFY(out.offset <= o.safeOffset(plan.buffers));
      }
      QVERIFY(o.sharedBytes > 0);
      QCOMPARE(o.sharedBytes, std::min(in.offset + in.size, out.offset + out.size) -
                                  std::max(in.offset, out.offset));
    }
    const QString summary = window.memoryPlanView()->summaryText();
    QVERIFY2(summary.contains("over their dying inputs"), qPrintable(summary));
    QVERIFY2(summary.contains(QLocale::system().toString(8640)), qPrintable(summary));
    // Run on board deploys the same plan; the report says what it is measured against.
    QVERIFY(window.deployPanel()->overlapOutputs());
    const QString report = QString::fromUtf8(window.compilationReportHtml());
    using loupe::models::groupedNumber;
    QVERIFY2(report.contains(QString("%1 bytes with branch_and_bound; lower bound %1 with outputs "
                                     "over their dying inputs (tensor-level %2)")
                                 .arg(groupedNumber(8640), groupedNumber(16256))),
             qPrintable(report.left(2000)));
    // Another algorithm re-plans the same buffers with the same allowances.
    window.memoryPlanView()->plannerSelector()->setCurrentText("greedy_by_size");
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.compilation()->memoryPlan().overlapsAllowed);
    QVERIFY(!window.compilation()->memoryPlan().overlaps.isEmpty());
    window.memoryPlanView()->overlapSwitch()->setChecked(false);
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.compilation()->memoryPlan().overlaps.isEmpty());
    QVERIFY(!window.deployPanel()->overlapOutputs());
  }

  // Long work visible: the status bar names each stage and a Cancel button
  // stops the compilation; Recompile starts it again.
  void compilationShowsItsStagesAndCanBeCancelled() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("vww_96_int8")));
    QCOMPARE(window.compilation()->state(), ModelCompilation::State::Compiling);
    QVERIFY(!window.cancelCompileButton()->isHidden());
    window.cancelCompileButton()->click();
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(window.compilation()->state(), ModelCompilation::State::Failed);
    QVERIFY2(window.compilation()->errorMessage().contains("cancelled"),
             qPrintable(window.compilation()->errorMessage()));
    QVERIFY(window.cancelCompileButton()->isHidden());

    QStringList stages;
    connect(window.compilation(), &ModelCompilation::progressChanged, this,
            [&stages](const QString& stage) { stages << stage; });
    window.compilation()->recompile();
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(window.compilation()->state(), ModelCompilation::State::Compiled);
    QVERIFY2(stages.value(0) == "graph passes and partitioning", qPrintable(stages.join('|')));
    QVERIFY(stages.filter("lowering operator").size() >= 10);
    QVERIFY(stages.filter("planning memory").size() == 1);
    QCOMPARE(stages.constLast(), "printing C");
  }

  void aCorruptFileLeavesTheCompiledModelOpen() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    const QString tirBefore = window.tirView()->editor()->text();
    const qint64 totalBefore = window.memoryPlanView()->shownTotalBytes();
    QVERIFY(!tirBefore.isEmpty());

    QTemporaryDir dir;
    QVERIFY(!window.openModel(loupe::test::writeCorruptModel(dir)));
    QVERIFY(window.waitUntilIdle());
    const auto& problems = window.findChild<loupe::models::ProblemListModel*>()->problems();
    QVERIFY(!problems.isEmpty());
    QCOMPARE(problems.front().severity, loupe::models::ProblemListModel::Severity::Error);
    QVERIFY2(problems.front().description.startsWith("corrupt.tflite: "),
             qPrintable(problems.front().description));
    QCOMPARE(window.document()->modelName(), "model");
    QCOMPARE(window.document()->operatorCount(), 13);
    QCOMPARE(window.compilation()->state(), ModelCompilation::State::Compiled);
    QCOMPARE(window.tirView()->editor()->text(), tirBefore);
    QCOMPARE(window.memoryPlanView()->shownTotalBytes(), totalBefore);
  }

  void findWorksInTheCodeViewsAndTheGraph() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.showView("tir"));
    auto* find = window.tirView()->findBar();
    QVERIFY(find->isHidden());
    window.tirView()->editor()->setFocus();
    QTest::keyClick(window.tirView()->editor(), Qt::Key_F, Qt::ControlModifier);
    QVERIFY(find->isVisible());
    find->lineEdit()->setText("requantize_i32");
    QVERIFY(find->findNext());
    QCOMPARE(window.tirView()->editor()->selectedText(), "requantize_i32");
    find->lineEdit()->setText("no such text anywhere");
    QVERIFY(!find->findNext());

    QVERIFY(window.showView("graph"));
    window.graphView()->searchBox()->setText("SOFTMAX");
    QVERIFY(window.graphView()->findNext());
    QCOMPARE(window.document()->currentOperator(), 12);
    window.graphView()->searchBox()->setText("op 5");
    QVERIFY(window.graphView()->findNext());
    QCOMPARE(window.document()->currentOperator(), 5);
    window.graphView()->searchBox()->setText("no such tensor");
    QVERIFY(!window.graphView()->findNext());
    QCOMPARE(window.document()->currentOperator(), 5);
  }
};

QTEST_MAIN(CompiledViewsTest)
#include "compiled_views_test.moc"
