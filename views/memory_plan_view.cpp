#include "views/memory_plan_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "models/model_compilation.h"
#include "models/model_document.h"
#include "views/board_memory_bars.h"
#include "views/memory_timeline_chart.h"

namespace loupe::views {

MemoryPlanView::MemoryPlanView(models::ModelDocument* document,
                               models::ModelCompilation* compilation, QWidget* parent)
    : QWidget(parent),
      document_(document),
      compilation_(compilation),
      planner_(new QComboBox(this)),
      comparison_(new QComboBox(this)),
      pools_(new QLineEdit(this)),
      overlap_(new QCheckBox(tr("Overlap outputs"), this)),
      patches_(new QCheckBox(tr("Patches"), this)),
      flash_(new QLabel(this)),
      summary_(new QLabel(this)),
      memoryBars_(new BoardMemoryBars(this)),
      chart_(new MemoryTimelineChart(this)),
      comparisonChart_(new MemoryTimelineChart(this)) {
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  bar->addWidget(new QLabel(tr("Planner:"), this));
  for (const QString& name : models::ModelCompilation::plannerNames()) {
    planner_->addItem(name);
    planner_->setItemData(planner_->count() - 1, models::ModelCompilation::plannerSummary(name),
                          Qt::ToolTipRole);
  }
  planner_->setCurrentText(compilation_->planner());
  bar->addWidget(planner_);
  bar->addWidget(new QLabel(tr("Compare:"), this));
  comparison_->addItem(tr("nothing"), QString());
  for (const QString& name : models::ModelCompilation::plannerNames()) {
    comparison_->addItem(name, name);
  }
  bar->addWidget(comparison_);
  bar->addWidget(new QLabel(tr("Pools:"), this));
  pools_->setPlaceholderText(tr("the board's memories"));
  pools_->setToolTip(
      tr("Pools fastest first, as loupec --pools takes them: "
         "\"dtcm:size=16K;sram:size=2M,memory=SRAM\"; empty: the board's memories (or one "
         "unbounded pool)"));
  pools_->setMinimumWidth(80);
  bar->addWidget(pools_, 1);
  overlap_->setChecked(compilation_->overlapOutputs());
  overlap_->setToolTip(
      tr("Let an operator's output start inside an input that dies with it, as far before it as "
         "the operator's loops allow (loupec --overlap-outputs). Recompiles: those functions "
         "drop restrict, and Run on board deploys the same plan."));
  bar->addWidget(overlap_);
  patches_->setChecked(compilation_->patches());
  patches_->setToolTip(
      tr("Run the model's first high-resolution operators strip by strip, where that lowers the "
         "bound (loupec --patches): only one strip of the tensors between them is alive at once, "
         "and the rows two strips share are computed twice. Recompiles; Run on board deploys "
         "the same code."));
  bar->addWidget(patches_);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);  // a narrow window wraps it instead of growing
  // Its own row under the controls: the plan's figures and both bounds.
  summary_->setContentsMargins(8, 0, 8, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(memoryBars_);
  flash_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  flash_->setWordWrap(true);
  flash_->setContentsMargins(8, 0, 8, 2);
  flash_->hide();
  layout->addWidget(flash_);
  auto* charts = new QSplitter(Qt::Vertical, this);
  charts->addWidget(chart_);
  charts->addWidget(comparisonChart_);
  charts->setChildrenCollapsible(false);
  comparisonChart_->hide();
  layout->addWidget(charts, 1);

  connect(planner_, &QComboBox::currentTextChanged, compilation_,
          &models::ModelCompilation::setPlanner);
  connect(overlap_, &QCheckBox::toggled, compilation_,
          &models::ModelCompilation::setOverlapOutputs);
  connect(compilation_, &models::ModelCompilation::overlapOutputsChanged, overlap_,
          &QCheckBox::setChecked);
  connect(patches_, &QCheckBox::toggled, compilation_, &models::ModelCompilation::setPatches);
  connect(compilation_, &models::ModelCompilation::patchesChanged, patches_,
          &QCheckBox::setChecked);
  connect(pools_, &QLineEdit::editingFinished, this, [this] {
    const QString error = compilation_->setPools(pools_->text());
    pools_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
    pools_->setToolTip(error.isEmpty() ? pools_->placeholderText() : error);
    if (!error.isEmpty()) summary_->setText(tr("<b>pools:</b> %1").arg(error.toHtmlEscaped()));
  });
  connect(comparison_, &QComboBox::currentIndexChanged, this,
          [this] { compilation_->setComparisonPlanner(comparison_->currentData().toString()); });
  connect(comparisonChart_, &MemoryTimelineChart::operatorClicked, document_,
          &models::ModelDocument::setCurrentOperator);
  connect(document_, &models::ModelDocument::currentOperatorChanged, comparisonChart_,
          &MemoryTimelineChart::setSelectedOperator);
  connect(compilation_, &models::ModelCompilation::memoryPlanChanged, this,
          &MemoryPlanView::showPlan);
  connect(compilation_, &models::ModelCompilation::busyChanged, this, &MemoryPlanView::showState);
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          &MemoryPlanView::showPlan);
  connect(chart_, &MemoryTimelineChart::operatorClicked, document_,
          &models::ModelDocument::setCurrentOperator);
  connect(document_, &models::ModelDocument::currentOperatorChanged, chart_,
          &MemoryTimelineChart::setSelectedOperator);
  showPlan();
}

qint64 MemoryPlanView::shownTotalBytes() const {
  return chart_->planLayout().isEmpty() ? -1 : chart_->planLayout().totalBytes;
}

void MemoryPlanView::setFlashFootprint(const QString& platform, const QStringList& lines) {
  QStringList shown;
  for (const QString& line : lines) shown.append(line.toHtmlEscaped());
  flash_->setText(tr("<b>Flash</b> of the firmware last run on %1: %2")
                      .arg(platform.toHtmlEscaped(), shown.join(QStringLiteral("; "))));
  flash_->setVisible(!lines.isEmpty());
}

QString MemoryPlanView::flashText() const {
  return flash_->isVisibleTo(this) ? flash_->text() : QString();
}

QString MemoryPlanView::summaryText() const {
  return summary_->text();
}

void MemoryPlanView::showPlan() {
  const models::MemoryPlanLayout& plan = compilation_->memoryPlan();
  const models::MemoryPlanLayout& other = compilation_->comparisonPlan();
  // One byte scale for both, so the taller plan looks taller.
  const qint64 scale = std::max(plan.totalBytes, other.totalBytes);
  chart_->setMinimumScaleBytes(other.isEmpty() ? 0 : scale);
  chart_->setPlanLayout(plan);
  memoryBars_->setMemories(plan.memories);
  chart_->setSelectedOperator(document_->currentOperator());
  comparisonChart_->setVisible(!other.isEmpty());
  comparisonChart_->setMinimumScaleBytes(scale);
  comparisonChart_->setPlanLayout(other);
  comparisonChart_->setSelectedOperator(document_->currentOperator());
  if (!other.isEmpty()) {
    const QLocale locale = QLocale::system();
    comparisonChart_->setTitle(
        tr("compared: %1 bytes with %2 (%3 bytes %4 than %5)")
            .arg(locale.toString(other.totalBytes), other.planner,
                 locale.toString(std::abs(other.totalBytes - plan.totalBytes)),
                 other.totalBytes >= plan.totalBytes ? tr("more") : tr("fewer"), plan.planner));
  }
  showState();
}

void MemoryPlanView::showState() {
  const models::MemoryPlanLayout& plan = chart_->planLayout();
  const QLocale locale = QLocale::system();
  QString text;
  if (compilation_->state() == models::ModelCompilation::State::Failed) {
    text = tr("no plan: compilation failed (see Problems)");
  } else if (plan.isEmpty()) {
    text = compilation_->isBusy() ? tr("compiling\u2026") : tr("no plan");
  } else {
    const double ratio = plan.lowerBound > 0 ? static_cast<double>(plan.overlapBound) /
                                                   static_cast<double>(plan.lowerBound)
                                             : 0.0;
    if (plan.overlapsAllowed) {
      text = tr("<b>%1 bytes</b> with %2, %3 output(s) over their dying inputs \u00b7 bound %4 "
                "(%5\u00d7 the tensor-level %6) \u00b7 gap %7 \u00b7 %8 buffers over %9 steps")
                 .arg(locale.toString(plan.totalBytes), plan.planner)
                 .arg(plan.overlaps.size())
                 .arg(locale.toString(plan.overlapBound))
                 .arg(ratio, 0, 'f', 2)
                 .arg(locale.toString(plan.lowerBound),
                      locale.toString(plan.totalBytes - plan.overlapBound))
                 .arg(plan.buffers.size())
                 .arg(plan.stepCount());
    } else {
      text =
          tr("<b>%1 bytes</b> with %2 \u00b7 lower bound %3 \u00b7 gap %4 \u00b7 %5 buffers "
             "over %6 steps \u00b7 %7 ms")
              .arg(locale.toString(plan.totalBytes), plan.planner, locale.toString(plan.lowerBound),
                   locale.toString(plan.totalBytes - plan.lowerBound))
              .arg(plan.buffers.size())
              .arg(plan.stepCount())
              .arg(plan.milliseconds, 0, 'f', 2);
    }
    if (!plan.overlapsAllowed && plan.overlapBound > 0 && plan.overlapBound < plan.lowerBound) {
      text += tr(" \u00b7 with outputs over their dying inputs the bound would be %1 "
                 "(%2\u00d7; Overlap outputs lets the planner use them)")
                  .arg(locale.toString(plan.overlapBound))
                  .arg(ratio, 0, 'f', 2);
    }
    if (plan.patchesApplied()) {
      text += tr(" \u00b7 operators %1\u2013%2 run in %3 strips (patches; the shaded bands): "
                 "bound %4, %5\u00d7 the %6 without them, recomputing %7% of the MACs")
                  .arg(plan.patchOperators.front())
                  .arg(plan.patchOperators.back())
                  .arg(plan.patchStrips)
                  .arg(locale.toString(plan.patchBound))
                  .arg(static_cast<double>(plan.patchBound) /
                           static_cast<double>(std::max<qint64>(plan.patchWholeBound, 1)),
                       0, 'f', 2)
                  .arg(locale.toString(plan.patchWholeBound))
                  .arg(plan.patchExtraMacsPercent, 0, 'f', 1);
    } else if (plan.patchBound > 0 && !plan.patchOperators.isEmpty()) {
      text += tr(" \u00b7 running operators %1\u2013%2 in %3 strips (Patches) the bound would be "
                 "%4 (%5\u00d7), recomputing %6% of the MACs")
                  .arg(plan.patchOperators.front())
                  .arg(plan.patchOperators.back())
                  .arg(plan.patchStrips)
                  .arg(locale.toString(plan.patchBound))
                  .arg(static_cast<double>(plan.patchBound) / static_cast<double>(plan.lowerBound),
                       0, 'f', 2)
                  .arg(plan.patchExtraMacsPercent, 0, 'f', 1);
    }
    if (const QString fit = compilation_->fitNote(); !fit.isEmpty()) {
      text += tr(" \u00b7 <b>for the board:</b> %1").arg(fit.toHtmlEscaped());
    }
    if (!plan.fits) text += tr(" \u00b7 <b>does not fit</b>");
    if (compilation_->isBusy()) text += tr(" \u00b7 planning\u2026");
  }
  summary_->setText(text);
}

}  // namespace loupe::views
