#include "views/find_bar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace loupe::views {

FindBar::FindBar(QsciScintilla* editor, QWidget* parent)
    : QWidget(parent),
      editor_(editor),
      text_(new QLineEdit(this)),
      matchCase_(new QCheckBox(tr("Match case"), this)),
      status_(new QLabel(this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->addWidget(new QLabel(tr("Find:"), this));
  text_->setPlaceholderText(tr("text in this view"));
  text_->setClearButtonEnabled(true);
  layout->addWidget(text_, 1);
  auto* previous = new QToolButton(this);
  previous->setText(tr("Previous"));
  auto* next = new QToolButton(this);
  next->setText(tr("Next"));
  auto* close = new QToolButton(this);
  close->setText(tr("Close"));
  layout->addWidget(previous);
  layout->addWidget(next);
  layout->addWidget(matchCase_);
  layout->addWidget(status_);
  layout->addWidget(close);

  connect(text_, &QLineEdit::textEdited, this, [this] {
    // Find as you type from where the current match starts, so typing more
    // letters refines the match instead of jumping past it.
    int line = 0;
    int index = 0;
    int lineTo = 0;
    int indexTo = 0;
    editor_->getSelection(&line, &index, &lineTo, &indexTo);
    if (line >= 0) editor_->setCursorPosition(line, index);
    findNext();
  });
  connect(text_, &QLineEdit::returnPressed, this, [this] { findNext(); });
  connect(next, &QToolButton::clicked, this, [this] { findNext(); });
  connect(previous, &QToolButton::clicked, this, [this] { findNext(true); });
  connect(close, &QToolButton::clicked, this, &QWidget::hide);
  hide();
}

void FindBar::activate() {
  if (editor_->hasSelectedText() && !editor_->selectedText().contains(u'\n')) {
    text_->setText(editor_->selectedText());
  }
  show();
  text_->setFocus();
  text_->selectAll();
}

bool FindBar::findNext(bool backwards) {
  const QString text = text_->text();
  if (text.isEmpty()) {
    status_->clear();
    return false;
  }
  int line = 0;
  int index = 0;
  editor_->getCursorPosition(&line, &index);
  if (backwards && editor_->hasSelectedText()) {
    // Start before the current match, or it would be found again.
    int lineTo = 0;
    int indexTo = 0;
    editor_->getSelection(&line, &index, &lineTo, &indexTo);
  }
  const bool found = editor_->findFirst(text, /*re=*/false, matchCase_->isChecked(),
                                        /*wo=*/false, /*wrap=*/true, !backwards, line, index,
                                        /*show=*/true);
  status_->setText(found ? QString() : tr("no match"));
  return found;
}

void FindBar::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    hide();
    editor_->setFocus();
    return;
  }
  if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
      event->modifiers() & Qt::ShiftModifier) {
    findNext(true);
    return;
  }
  QWidget::keyPressEvent(event);
}

}  // namespace loupe::views
