#include "views/pass_stage_view.h"

#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "models/model_compilation.h"
#include "views/graph_ir_lexer.h"

namespace loupe::views {

PassStageView::PassStageView(models::ModelCompilation* compilation, QWidget* parent)
    : QWidget(parent),
      compilation_(compilation),
      stageBox_(new QComboBox(this)),
      status_(new QLabel(this)),
      editor_(new QsciScintilla(this)),
      wanted_(QStringLiteral("fuse_operators")) {
  stageBox_->setObjectName(QStringLiteral("passStageBox"));
  stageBox_->setToolTip(tr("The graph after this pass"));
  stageBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  editor_->setLexer(new GraphIrLexer(editor_));
  editor_->setReadOnly(true);
  editor_->setUtf8(true);
  editor_->setWrapMode(QsciScintilla::WrapNone);
  editor_->setMarginType(0, QsciScintilla::NumberMargin);
  editor_->setMarginLineNumbers(0, true);
  editor_->setMarginWidth(0, QStringLiteral("00000"));
  editor_->setMarginsForegroundColor(QColor(0x80, 0x80, 0x80));
  editor_->setMarginsBackgroundColor(QColor(0xf2, 0xf2, 0xf2));
  editor_->setAcceptDrops(false);
  editor_->viewport()->setAcceptDrops(false);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  bar->addWidget(new QLabel(tr("Graph after"), this));
  bar->addWidget(stageBox_);
  bar->addWidget(status_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  layout->addWidget(editor_, 1);

  connect(stageBox_, &QComboBox::currentIndexChanged, this, &PassStageView::showIndex);
  connect(compilation_, &models::ModelCompilation::compiled, this, &PassStageView::refresh);
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          &PassStageView::refresh);
  refresh();
}

void PassStageView::refresh() {
  const QString keep = wanted_;
  const QSignalBlocker block(stageBox_);
  stageBox_->clear();
  int number = 0;
  for (const models::PassStageText& stage : compilation_->passStages()) {
    stageBox_->addItem(
        QStringLiteral("%1  %2").arg(number++, 2, 10, QLatin1Char('0')).arg(stage.name),
        stage.name);
  }
  if (!showStage(keep)) showIndex(stageBox_->count() - 1);
}

bool PassStageView::showStage(const QString& name) {
  wanted_ = name;
  const int index = stageBox_->findData(name);
  if (index < 0) return false;
  {
    const QSignalBlocker block(stageBox_);
    stageBox_->setCurrentIndex(index);
  }
  showIndex(index);
  return true;
}

void PassStageView::showIndex(int index) {
  const auto& stages = compilation_->passStages();
  if (index < 0 || index >= stages.size()) {
    editor_->clear();
    status_->setText(tr("Not compiled yet."));
    return;
  }
  wanted_ = stages[index].name;
  editor_->setText(stages[index].text);
  status_->setText(tr("stage %1 of %2 \u00b7 compiled for %3")
                       .arg(index + 1)
                       .arg(stages.size())
                       .arg(compilation_->deviceMapping().targetString));
}

QString PassStageView::shownStage() const {
  return stageBox_->currentData().toString();
}

QString PassStageView::shownText() const {
  return editor_->text();
}

}  // namespace loupe::views
