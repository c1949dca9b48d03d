#include "views/graph_ir_view.h"

#include <QColor>
#include <QFontMetrics>
#include <QRegularExpression>
#include <algorithm>

#include "models/model_document.h"
#include "views/graph_ir_lexer.h"

namespace loupe::views {

namespace {
constexpr int kCurrentOperatorMarker = 0;
}

GraphIrView::GraphIrView(models::ModelDocument* document, QWidget* parent)
    : QsciScintilla(parent), document_(document) {
  setLexer(new GraphIrLexer(this));
  setReadOnly(true);
  setUtf8(true);
  setWrapMode(WrapNone);
  setScrollWidthTracking(true);
  setScrollWidth(1);
  setMarginType(0, NumberMargin);
  setMarginLineNumbers(0, true);
  setMarginsForegroundColor(QColor(0x80, 0x80, 0x80));
  setMarginsBackgroundColor(QColor(0xf2, 0xf2, 0xf2));
  setFolding(NoFoldStyle);
  markerDefine(Background, kCurrentOperatorMarker);
  setMarkerBackgroundColor(QColor(0xdd, 0xea, 0xfb), kCurrentOperatorMarker);
  // Drops go to the main window, which opens .tflite files.
  setAcceptDrops(false);
  viewport()->setAcceptDrops(false);

  connect(document_, &models::ModelDocument::modelLoaded, this, &GraphIrView::showModel);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &GraphIrView::markOperator);
  connect(this, &QsciScintilla::cursorPositionChanged, this,
          [this](int line, int) { followCursor(line); });
  if (document_->isLoaded()) showModel();
}

void GraphIrView::showModel() {
  const QString& text = document_->graphIrText();
  setText(text);

  // The printer ends every operator's line with "// op N vV".
  static const QRegularExpression operatorComment(QStringLiteral("// op (\\d+) v\\d+$"));
  operatorLines_ = QList<int>(document_->operatorCount(), -1);
  const QStringList lines = text.split(u'\n');
  for (int line = 0; line < lines.size(); ++line) {
    const auto match = operatorComment.match(lines[line]);
    if (!match.hasMatch()) continue;
    const int op = match.captured(1).toInt();
    if (op >= 0 && op < operatorLines_.size()) operatorLines_[op] = line;
  }
  // Wide enough for the largest line number, plus a little air.
  setMarginWidth(0, QString::number(lines.size() * 10));
  // Scintilla only learns line widths as it paints them; tell it the longest
  // line up front so the horizontal scroll bar is right from the start.
  qsizetype longest = 0;
  for (const QString& line : lines) longest = std::max(longest, line.size());
  const QFontMetrics metrics(lexer()->defaultFont(GraphIrLexer::OperatorType));
  setScrollWidth(static_cast<int>(longest + 2) * metrics.horizontalAdvance(u'M'));
  markOperator(document_->currentOperator());
}

int GraphIrView::lineOfOperator(int operatorIndex) const {
  return operatorIndex >= 0 && operatorIndex < operatorLines_.size() ? operatorLines_[operatorIndex]
                                                                     : -1;
}

void GraphIrView::markOperator(int operatorIndex) {
  markerDeleteAll(kCurrentOperatorMarker);
  const int line = lineOfOperator(operatorIndex);
  if (line < 0) return;
  markerAdd(line, kCurrentOperatorMarker);
  ensureLineVisible(line);
}

void GraphIrView::followCursor(int line) {
  const int op = static_cast<int>(operatorLines_.indexOf(line));
  if (op >= 0) document_->setCurrentOperator(op);
}

}  // namespace loupe::views
