#include "views/compare_view.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "models/board_run.h"
#include "models/compilation_comparison.h"
#include "models/document_graph_layout.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/target_choice.h"
#include "views/graph_view.h"
#include "views/memory_timeline_chart.h"

namespace loupe::views {

namespace {

QString targetLabel(const QString& targetString, const target::TargetRegistry& registry) {
  for (const models::TargetChoice& choice : models::targetChoices(registry)) {
    if (choice.targetString == targetString) return choice.label;
  }
  return targetString;
}

QString ratioText(std::int64_t a, std::int64_t b) {
  if (a == 0) return b == 0 ? QStringLiteral("1.00") : QStringLiteral("-");
  return QString::number(static_cast<double>(b) / static_cast<double>(a), 'f', 2);
}

}  // namespace

CompareView::CompareView(models::ModelDocument* document, models::ModelCompilation* compilation,
                         const deploy::Registries& registries, QWidget* parent)
    : QWidget(parent),
      document_(document),
      compilation_(compilation),
      registries_(registries),
      comparison_(new models::CompilationComparison(registries, this)),
      tableModel_(new models::ComparisonTableModel(comparison_, this)),
      modelBLabel_(new QLabel(tr("this model"), this)),
      targetB_(new QComboBox(this)),
      plannerB_(new QComboBox(this)),
      measure_(new QComboBox(this)),
      compareButton_(new QPushButton(tr("Compare"), this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)),
      lowerTabs_(new QTabWidget(this)),
      chartA_(new MemoryTimelineChart(this)),
      chartB_(new MemoryTimelineChart(this)),
      graphs_(new QWidget(this)) {
  // Two short rows, so the tab never widens the window.
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 0);
  auto* options = new QHBoxLayout;
  options->setContentsMargins(8, 0, 8, 4);
  bar->addWidget(new QLabel(tr("B:"), this));
  bar->addWidget(modelBLabel_);
  auto* open = new QPushButton(tr("Other Model\u2026"), this);
  open->setToolTip(tr("Compare with another model file (a retrained or re-quantised version)"));
  bar->addWidget(open);
  auto* same = new QPushButton(tr("This Model"), this);
  bar->addWidget(same);
  bar->addStretch(1);
  options->addWidget(new QLabel(tr("Target B:"), this));
  for (const models::TargetChoice& choice : models::targetChoices(registries_.targets)) {
    targetB_->addItem(choice.label, choice.targetString);
  }
  // A typed list becomes an item once parsed (setTargetB), under its canonical name.
  targetB_->setEditable(true);
  targetB_->setInsertPolicy(QComboBox::NoInsert);
  targetB_->setToolTip(
      tr("A choice, or a target list as loupec --target takes it (\"ethos-u "
         "-accelerator_config=ethos-u55-256, c\"); Enter or Compare parses it"));
  connect(targetB_->lineEdit(), &QLineEdit::returnPressed, this, [this] {
    if (const QString error = setTargetB(typedTargetB()); !error.isEmpty()) {
      summary_->setText(error);
    }
  });
  for (QComboBox* box : {targetB_, plannerB_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  options->addWidget(targetB_, 2);
  options->addWidget(new QLabel(tr("Planner B:"), this));
  for (const QString& name : models::ModelCompilation::plannerNames()) plannerB_->addItem(name);
  plannerB_->setCurrentText(compilation_->planner());
  options->addWidget(plannerB_, 1);
  // Measuring runs both on a board the window can start by itself.
  measure_->addItem(tr("don't run"), QString());
  for (const models::PlatformChoice& choice : models::platformChoices(registries_)) {
    if (choice.available && !choice.needsPort && choice.buildsFirmware) {
      measure_->addItem(choice.name, choice.name);
    }
  }
  measure_->setToolTip(
      tr("Also run A and B on this platform (same random inputs, outputs checked against the "
         "reference interpreter) and compare the measured time of every operator"));
  options->addWidget(new QLabel(tr("Measure on:"), this));
  options->addWidget(measure_, 1);
  options->addWidget(compareButton_);

  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setContentsMargins(8, 0, 8, 4);
  summary_->setText(
      tr("Choose what B is and press Compare: A is the model as the window "
         "compiles it."));
  table_->setModel(tableModel_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  table_->setAlternatingRowColors(false);

  // Side by side, they may shrink below a lone chart's minimum rather than
  // widen the window.
  for (MemoryTimelineChart* chart : {chartA_, chartB_}) chart->setMinimumSize(200, 120);
  auto* charts = new QWidget(this);
  auto* chartLayout = new QHBoxLayout(charts);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->addWidget(chartA_);
  chartLayout->addWidget(chartB_);
  auto* graphLayout = new QHBoxLayout(graphs_);
  graphLayout->setContentsMargins(0, 0, 0, 0);
  auto* noGraphs =
      new QLabel(tr("Compare to see A's and B's graphs with their differences marked."), graphs_);
  noGraphs->setAlignment(Qt::AlignCenter);
  graphLayout->addWidget(noGraphs);
  lowerTabs_->addTab(charts, tr("Memory plans"));
  lowerTabs_->addTab(graphs_, tr("Graphs"));
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(lowerTabs_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  // The table, with its per-operator figures, gets the larger share from the start.
  split->setSizes({600, 400});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addLayout(options);
  layout->addWidget(summary_);
  layout->addWidget(split, 1);

  connect(open, &QPushButton::clicked, this, &CompareView::chooseModelB);
  connect(same, &QPushButton::clicked, this, [this] { setModelB({}); });
  connect(compareButton_, &QPushButton::clicked, this, &CompareView::compare);
  connect(comparison_, &models::CompilationComparison::started, this, [this] {
    compareButton_->setEnabled(false);
    summary_->setText(tr("compiling A and B\u2026"));
  });
  connect(comparison_, &models::CompilationComparison::progress, this,
          [this](const QString& line) { summary_->setText(tr("measuring: %1").arg(line)); });
  connect(comparison_, &models::CompilationComparison::finished, this, &CompareView::showResult);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const QList<int> operators = comparison_->modelOperatorsOfA(current.row());
            if (!operators.isEmpty()) document_->setCurrentOperator(operators.front());
            selectRowInB(current.row(), operators.value(0, -1));
          });
  connect(document_, &models::ModelDocument::currentOperatorChanged, chartA_,
          &MemoryTimelineChart::setSelectedOperator);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this, &CompareView::selectInB);
  connect(chartA_, &MemoryTimelineChart::operatorClicked, document_,
          &models::ModelDocument::setCurrentOperator);
}

CompareView::~CompareView() = default;

bool CompareView::isBusy() const {
  return comparison_->isRunning() || (layoutA_ && layoutA_->isBusy()) ||
         (layoutB_ && layoutB_->isBusy());
}

bool CompareView::waitUntilIdle(int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  auto left = [&] { return std::max(0, static_cast<int>(timeoutMs - timer.elapsed())); };
  while (isBusy() && timer.elapsed() < timeoutMs) {
    comparison_->waitUntilIdle(left());
    if (layoutA_) layoutA_->waitUntilIdle(left());
    if (layoutB_) layoutB_->waitUntilIdle(left());
  }
  return !isBusy();
}

QString CompareView::summaryText() const {
  return summary_->text();
}

QString CompareView::setModelB(const QString& path) {
  if (path.isEmpty()) {
    modelBPath_.clear();
    modelBLabel_->setText(tr("this model"));
    return {};
  }
  QString error;
  if (!models::CompilationComparison::importModel(path, &error)) return error;
  modelBPath_ = path;
  modelBLabel_->setText(QFileInfo(path).fileName());
  modelBLabel_->setToolTip(path);
  return {};
}

void CompareView::chooseModelB() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Compare with Model"), QString(),
                                                    tr("TFLite models (*.tflite);;All files (*)"));
  if (path.isEmpty()) return;
  if (const QString error = setModelB(path); !error.isEmpty()) summary_->setText(error);
}

void CompareView::compare() {
  if (!document_->isLoaded()) {
    summary_->setText(tr("Open a model first."));
    return;
  }
  const QString name = QString::fromStdString(document_->graph().name);
  models::ComparisonSide a{
      tr("A: %1 \u00b7 %2 \u00b7 %3")
          .arg(name, targetLabel(compilation_->targetString(), registries_.targets),
               compilation_->planner()),
      document_->graph(), compilation_->targets(), compilation_->planner()};
  if (const QString error = setTargetB(typedTargetB()); !error.isEmpty()) {
    summary_->setText(error);
    return;
  }
  QString error;
  target::TargetList targetsB = models::parseTargets(targetBString(), registries_.targets, &error);
  std::optional<ir::Graph> modelB =
      modelBPath_.isEmpty() ? std::optional<ir::Graph>(document_->graph())
                            : models::CompilationComparison::importModel(modelBPath_, &error);
  if (!modelB) {
    summary_->setText(error);
    return;
  }
  const QString nameB = modelBPath_.isEmpty() ? name : QFileInfo(modelBPath_).fileName();
  models::ComparisonSide b{
      tr("B: %1 \u00b7 %2 \u00b7 %3").arg(nameB, targetB_->currentText(), plannerB_->currentText()),
      std::move(*modelB), std::move(targetsB), plannerB_->currentText()};
  std::shared_ptr<const deploy::Platform> measureOn;
  if (const QString platform = measure_->currentData().toString(); !platform.isEmpty()) {
    measureOn = registries_.platforms.find(platform.toStdString());
  }
  comparison_->start(std::move(a), std::move(b), std::move(measureOn));
}

QString CompareView::typedTargetB() const {
  // The line edit holds the current item's label unless something was typed.
  const QString text = targetB_->currentText().trimmed();
  const int index = targetB_->currentIndex();
  return index >= 0 && text == targetB_->itemText(index) ? targetB_->itemData(index).toString()
                                                         : text;
}

QString CompareView::targetBString() const {
  return targetB_->currentData().toString();
}

QString CompareView::setTargetB(const QString& targetString) {
  QString error;
  const std::optional<models::TargetChoice> choice =
      models::targetChoiceOf(targetString, registries_.targets, &error);
  if (!choice) {
    return tr("Target B '%1': %2").arg(targetString, error);
  }
  int index = targetB_->findData(choice->targetString);
  if (index < 0) {
    targetB_->addItem(choice->label, choice->targetString);
    index = targetB_->count() - 1;
  }
  targetB_->setCurrentIndex(index);
  // setCurrentIndex leaves the line edit alone when the index is unchanged.
  targetB_->setEditText(targetB_->itemText(index));
  targetB_->lineEdit()->setCursorPosition(0);  // a long label shows its start
  return {};
}

void CompareView::showResult() {
  compareButton_->setEnabled(true);
  if (!comparison_->error().isEmpty()) {
    summary_->setText(tr("the comparison failed: %1").arg(comparison_->error()));
    chartA_->setPlanLayout({});
    chartB_->setPlanLayout({});
    return;
  }
  showGraphs();
  const driver::CompilationDiff& diff = comparison_->diff();
  const QLocale locale = QLocale::system();
  QString text = comparison_->labelA() + QStringLiteral("<br>") + comparison_->labelB() +
                 QStringLiteral("<br>");
  if (diff.identical()) {
    text += tr("<b>no differences</b>: %1 operators, the same totals").arg(diff.a.operators);
  } else {
    text += tr("<b>%1 changed (%2 merged into one operator), %3 added, %4 removed</b> of %5 "
               "operators in A, %6 in B")
                .arg(diff.changedCount())
                .arg(diff.mergedCount())
                .arg(diff.addedCount())
                .arg(diff.removedCount())
                .arg(diff.a.operators)
                .arg(diff.b.operators);
  }
  auto total = [&](const QString& what, std::int64_t a, std::int64_t b) {
    return tr("%1 %2 \u2192 %3 (\u00d7%4)")
        .arg(what, locale.toString(static_cast<qlonglong>(a)),
             locale.toString(static_cast<qlonglong>(b)), ratioText(a, b));
  };
  QStringList totals{total(tr("RAM (workspace)"), diff.a.workspaceBytes, diff.b.workspaceBytes),
                     total(tr("flash (constants)"), diff.a.constantBytes, diff.b.constantBytes),
                     total(tr("MACs"), diff.a.macs, diff.b.macs)};
  if (diff.a.estimatedCycles && diff.b.estimatedCycles) {
    totals << total(tr("estimated cycles"), *diff.a.estimatedCycles, *diff.b.estimatedCycles);
  }
  if (diff.a.measuredTime && diff.b.measuredTime) {
    // A side with NPU operators ran them on Loupe's functional model on the
    // board's CPU: its whole-run figure is not the NPU's time.
    bool npuA = false, npuB = false;
    for (const models::CostTotals& t : comparison_->costTotals()) {
      npuA = npuA || t.a == models::CostKind::EstimatedNpuCycles;
      npuB = npuB || t.b == models::CostKind::EstimatedNpuCycles;
    }
    QString what =
        tr("measured on %1 (%2)")
            .arg(QString::fromStdString(diff.measuredOn), QString::fromStdString(diff.timeUnit));
    if (npuA || npuB) {
      what =
          tr("measured on %1 (%2; %3 ran its NPU operators on Loupe's functional model "
             "on the CPU, not NPU time)")
              .arg(QString::fromStdString(diff.measuredOn), QString::fromStdString(diff.timeUnit),
                   npuA && npuB ? tr("each side")
                   : npuA       ? tr("A")
                                : tr("B"));
    }
    totals << total(what, std::llround(*diff.a.measuredTime), std::llround(*diff.b.measuredTime));
  }
  text += QStringLiteral("<br>") + totals.join(QStringLiteral(" \u00b7 "));
  // Per operator, each side's one figure (CPU vs NPU: measured instructions
  // against estimated NPU cycles), totalled over the rows of one pair of
  // kinds, so no sum mixes units.
  const QString unit = QString::fromStdString(diff.timeUnit);
  QStringList costs;
  for (const models::CostTotals& t : comparison_->costTotals()) {
    const bool sameUnit = t.a == t.b;
    const QString a = locale.toString(static_cast<qlonglong>(std::llround(t.totalA)));
    const QString b = locale.toString(static_cast<qlonglong>(std::llround(t.totalB)));
    const QString ratio = t.totalA > 0 ? models::costRatioText(t.totalB / t.totalA) : tr("-");
    const QString ops = t.modelOperators.size() == 1 ? tr("op %1") : tr("ops %1");
    costs << (sameUnit ? tr("%1: A %2 \u2192 B %3 %4 (\u00d7%5)")
                             .arg(ops.arg(models::operatorRangesText(t.modelOperators)), a, b,
                                  models::costKindText(t.a, unit), ratio)
                       : tr("%1: A %2 %3 \u2192 B %4 %5 (B/A \u00d7%6, not the same unit)")
                             .arg(ops.arg(models::operatorRangesText(t.modelOperators)), a,
                                  models::costKindText(t.a, unit), b,
                                  models::costKindText(t.b, unit), ratio));
  }
  if (!costs.isEmpty()) text += QStringLiteral("<br>") + costs.join(QStringLiteral(" \u00b7 "));
  summary_->setText(text);
  // Both plans on one byte scale, so the larger looks larger.
  const qint64 scale = std::max(comparison_->planA().totalBytes, comparison_->planB().totalBytes);
  chartA_->setMinimumScaleBytes(scale);
  chartB_->setMinimumScaleBytes(scale);
  chartA_->setPlanLayout(comparison_->planA());
  chartB_->setPlanLayout(comparison_->planB());
  chartA_->setTitle(tr("A: %1 bytes").arg(locale.toString(comparison_->planA().totalBytes)));
  chartB_->setTitle(tr("B: %1 bytes").arg(locale.toString(comparison_->planB().totalBytes)));
  table_->resizeColumnsToContents();
  // The tensor names are long; the numbers before them must stay in view.
  table_->setColumnWidth(models::ComparisonTableModel::TensorColumn, 200);
  // So are the per-operator figures after the types ("DEPTHWISE_CONV_2D ->
  // CUSTOM(ethos-u)"), which elide instead.
  constexpr int kTypeWidth = 180;
  if (table_->columnWidth(models::ComparisonTableModel::TypeColumn) > kTypeWidth) {
    table_->setColumnWidth(models::ComparisonTableModel::TypeColumn, kTypeWidth);
  }
}

void CompareView::selectInB(int modelOperatorA) {
  if (!documentB_ || !documentB_->isLoaded()) return;
  for (int row = 0; row < comparison_->rowCount(); ++row) {
    if (!comparison_->modelOperatorsOfA(row).contains(modelOperatorA)) continue;
    selectRowInB(row, modelOperatorA);
    return;
  }
}

void CompareView::selectRowInB(int row, int modelOperatorA) {
  if (!documentB_ || !documentB_->isLoaded()) return;
  const QList<int> operatorsB = comparison_->modelOperatorsOfB(row);
  if (operatorsB.contains(modelOperatorA)) {
    documentB_->setCurrentOperator(modelOperatorA);
  } else if (!operatorsB.isEmpty()) {
    documentB_->setCurrentOperator(operatorsB.front());
  }
}

void CompareView::showGraphs() {
  if (!graphA_) {
    // Made once: a second layout of the window's model, and B's model.
    delete graphs_->layout()->takeAt(0)->widget();
    documentB_ = new models::ModelDocument(this);
    layoutA_ = new models::DocumentGraphLayout(document_, this);
    layoutB_ = new models::DocumentGraphLayout(documentB_, this);
    graphA_ = new GraphView(document_, layoutA_, graphs_);
    graphB_ = new GraphView(documentB_, layoutB_, graphs_);
    graphA_->setObjectName(QStringLiteral("compareGraphA"));
    graphB_->setObjectName(QStringLiteral("compareGraphB"));
    // Side by side their tool rows are clipped rather than widen the window.
    for (GraphView* graph : {graphA_, graphB_}) graph->setMinimumWidth(200);
    graphs_->layout()->addWidget(graphA_);
    graphs_->layout()->addWidget(graphB_);
  }
  const QString pathB = modelBPath_.isEmpty() ? document_->filePath() : modelBPath_;
  if (documentB_->filePath() != pathB) documentB_->open(pathB);
  selectInB(document_->currentOperator());
  graphA_->setDeviceMapping(comparison_->mappingA());
  graphB_->setDeviceMapping(comparison_->mappingB());
  graphA_->setMarks(comparison_->marksA());
  graphB_->setMarks(comparison_->marksB());
  const QString unit = QString::fromStdString(comparison_->diff().timeUnit);
  graphA_->setOperatorTimes(comparison_->operatorTimesA(), unit);
  graphB_->setOperatorTimes(comparison_->operatorTimesB(), unit);
}

}  // namespace loupe::views
