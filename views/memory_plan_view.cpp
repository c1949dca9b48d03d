#include "views/memory_plan_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include "models/model_compilation.h"
#include "models/model_document.h"
#include "views/memory_timeline_chart.h"

namespace loupe::views {

MemoryPlanView::MemoryPlanView(models::ModelDocument* document,
                               models::ModelCompilation* compilation, QWidget* parent)
    : QWidget(parent),
      document_(document),
      compilation_(compilation),
      planner_(new QComboBox(this)),
      summary_(new QLabel(this)),
      chart_(new MemoryTimelineChart(this)) {
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  bar->addWidget(new QLabel(tr("Algorithm:"), this));
  for (const QString& name : models::ModelCompilation::plannerNames()) {
    planner_->addItem(name);
    planner_->setItemData(planner_->count() - 1, models::ModelCompilation::plannerSummary(name),
                          Qt::ToolTipRole);
  }
  planner_->setCurrentText(compilation_->planner());
  bar->addWidget(planner_);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);  // a narrow window wraps it instead of growing
  bar->addWidget(summary_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(chart_, 1);

  connect(planner_, &QComboBox::currentTextChanged, compilation_,
          &models::ModelCompilation::setPlanner);
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

QString MemoryPlanView::summaryText() const {
  return summary_->text();
}

void MemoryPlanView::showPlan() {
  const models::MemoryPlanLayout& plan = compilation_->memoryPlan();
  chart_->setPlanLayout(plan);
  chart_->setSelectedOperator(document_->currentOperator());
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
    text =
        tr("<b>%1 bytes</b> with %2 \u00b7 lower bound %3 \u00b7 gap %4 \u00b7 %5 buffers over "
           "%6 steps \u00b7 %7 ms")
            .arg(locale.toString(plan.totalBytes), plan.planner, locale.toString(plan.lowerBound),
                 locale.toString(plan.totalBytes - plan.lowerBound))
            .arg(plan.buffers.size())
            .arg(plan.stepCount())
            .arg(plan.milliseconds, 0, 'f', 2);
    if (!plan.fits) text += tr(" \u00b7 <b>does not fit</b>");
    if (compilation_->isBusy()) text += tr(" \u00b7 planning\u2026");
  }
  summary_->setText(text);
}

}  // namespace loupe::views
