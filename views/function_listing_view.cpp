#include "views/function_listing_view.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <QColor>
#include <QLabel>
#include <QShortcut>
#include <QVBoxLayout>

#include "models/model_compilation.h"
#include "models/model_document.h"
#include "views/find_bar.h"
#include "views/tir_lexer.h"
#include "views/view_fonts.h"

namespace loupe::views {

namespace {

constexpr int kCurrentFunctionMarker = 0;

// The C lexer with the fixed-width font and colours close to the TIR view's.
QsciLexerCPP* makeCLexer(QObject* parent) {
  auto* lexer = new QsciLexerCPP(parent);
  const QFont font = codeFont();
  lexer->setDefaultFont(font);
  for (int style = 0; style <= QsciLexerCPP::PreProcessorCommentLineDoc; ++style) {
    QFont styled = font;
    if (style == QsciLexerCPP::Keyword) styled.setBold(true);
    lexer->setFont(styled, style);
  }
  lexer->setFoldCompact(false);
  return lexer;
}

}  // namespace

FunctionListingView::FunctionListingView(Language language, models::ModelDocument* document,
                                         models::ModelCompilation* compilation, QWidget* parent)
    : QWidget(parent),
      language_(language),
      document_(document),
      compilation_(compilation),
      header_(new QLabel(this)),
      editor_(new QsciScintilla(this)) {
  findBar_ = new FindBar(editor_, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  header_->setContentsMargins(8, 4, 8, 4);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the window
  layout->addWidget(header_);
  layout->addWidget(editor_, 1);
  layout->addWidget(findBar_);

  if (language_ == Language::Tir) {
    editor_->setLexer(new TirLexer(editor_));
  } else {
    editor_->setLexer(makeCLexer(editor_));
  }
  editor_->setReadOnly(true);
  editor_->setUtf8(true);
  editor_->setWrapMode(QsciScintilla::WrapNone);
  editor_->setMarginType(0, QsciScintilla::NumberMargin);
  editor_->setMarginLineNumbers(0, true);
  editor_->setMarginsForegroundColor(QColor(0x80, 0x80, 0x80));
  editor_->setMarginsBackgroundColor(QColor(0xf2, 0xf2, 0xf2));
  editor_->setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
  editor_->markerDefine(QsciScintilla::Background, kCurrentFunctionMarker);
  editor_->setMarkerBackgroundColor(QColor(0xe8, 0xf0, 0xfb), kCurrentFunctionMarker);
  // Drops go to the main window, which opens .tflite files.
  editor_->setAcceptDrops(false);
  editor_->viewport()->setAcceptDrops(false);

  auto* find = new QShortcut(QKeySequence::Find, this);
  find->setContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QShortcut::activated, findBar_, &FindBar::activate);

  connect(compilation_, &models::ModelCompilation::compilationStarted, this,
          &FunctionListingView::showListing);
  connect(compilation_, &models::ModelCompilation::compiled, this,
          &FunctionListingView::showListing);
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          &FunctionListingView::showListing);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &FunctionListingView::showOperator);
  showListing();
}

const models::FunctionListing& FunctionListingView::listing() const {
  return language_ == Language::Tir ? compilation_->tirListing() : compilation_->cListing();
}

void FunctionListingView::showListing() {
  editor_->setText(listing().text);
  const int lines = editor_->lines();
  editor_->setMarginWidth(0, QString::number(std::max(lines, 1) * 10));
  if (language_ == Language::Tir) applyIndentationFolding();
  showOperator(document_->currentOperator());
}

// TIR is indentation-structured like Python: a line opens a fold when the next
// non-blank line is indented deeper.
void FunctionListingView::applyIndentationFolding() {
  const int lines = editor_->lines();
  auto indentOf = [this](int line) {
    return static_cast<int>(editor_->SendScintilla(QsciScintilla::SCI_GETLINEINDENTATION,
                                                   static_cast<unsigned long>(line)));
  };
  auto isBlank = [this](int line) { return editor_->text(line).trimmed().isEmpty(); };
  for (int line = 0; line < lines; ++line) {
    int level = QsciScintilla::SC_FOLDLEVELBASE;
    if (isBlank(line)) {
      level |= QsciScintilla::SC_FOLDLEVELWHITEFLAG;
    } else {
      const int indent = indentOf(line);
      level += indent / 4;
      int next = line + 1;
      while (next < lines && isBlank(next)) ++next;
      if (next < lines && indentOf(next) > indent) level |= QsciScintilla::SC_FOLDLEVELHEADERFLAG;
    }
    editor_->SendScintilla(QsciScintilla::SCI_SETFOLDLEVEL, static_cast<unsigned long>(line),
                           static_cast<long>(level));
  }
}

void FunctionListingView::showOperator(int operatorIndex) {
  editor_->markerDeleteAll(kCurrentFunctionMarker);
  currentFunction_.clear();
  currentFirstLine_ = currentLastLine_ = -1;
  const QString kind = language_ == Language::Tir ? tr("TIR") : tr("C");
  switch (compilation_->state()) {
    case models::ModelCompilation::State::NoModel:
      header_->setText(tr("No model open"));
      return;
    case models::ModelCompilation::State::Compiling:
      header_->setText(tr("Compiling %1\u2026").arg(document_->modelName()));
      return;
    case models::ModelCompilation::State::Failed:
      header_->setText(tr("No %1: compilation failed (see Problems)").arg(kind));
      return;
    case models::ModelCompilation::State::Compiled:
      break;
  }
  const models::FunctionListing& functions = listing();
  const QString summary = tr("%1 operator functions").arg(functions.functions.size());
  if (operatorIndex < 0) {
    header_->setText(summary);
    return;
  }
  const QString opName =
      tr("op %1 %2")
          .arg(operatorIndex)
          .arg(QString::fromStdString(
              document_->graph().operators.at(static_cast<std::size_t>(operatorIndex)).typeName()));
  const int index = functions.functionOfOperator(operatorIndex);
  if (index < 0) {
    header_->setText(tr("%1 has no function of its own (folded into a neighbour or a no-copy "
                        "view) \u00b7 %2")
                         .arg(opName, summary));
    return;
  }
  const models::ListedFunction& f = functions.functions[index];
  currentFunction_ = f.name;
  currentFirstLine_ = f.firstLine;
  currentLastLine_ = f.lastLine;
  header_->setText(tr("<b>%1</b> \u2192 <code>%2</code> (lines %3\u2013%4) \u00b7 %5")
                       .arg(opName, f.name)
                       .arg(f.firstLine + 1)
                       .arg(f.lastLine + 1)
                       .arg(summary));
  for (int line = f.firstLine; line <= f.lastLine; ++line) {
    editor_->markerAdd(line, kCurrentFunctionMarker);
  }
  // The function's first line at the top of the view. The cursor goes
  // there first: moving it scrolls by itself, as far as the editor's height
  // (its font, whether its tab is showing) says, and must not undo this.
  editor_->setCursorPosition(f.firstLine, 0);
  editor_->setFirstVisibleLine(f.firstLine);
}

QString FunctionListingView::currentFunctionText() const {
  if (currentFirstLine_ < 0) return {};
  QString text;
  for (int line = currentFirstLine_; line <= currentLastLine_; ++line) text += editor_->text(line);
  return text;
}

QString FunctionListingView::headerText() const {
  return header_->text();
}

}  // namespace loupe::views
