#include "views/graph_ir_lexer.h"

#include <Qsci/qsciscintilla.h>

#include <QColor>
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "views/view_fonts.h"

namespace loupe::views {

namespace {

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool isKeyword(std::string_view word) {
  return word == "graph" || word == "input" || word == "const" || word == "output";
}

bool isDType(std::string_view word) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "float32", "float16", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "bool"};
  for (auto name : kNames) {
    if (word == name) return true;
  }
  return false;
}

// CONV_2D, SOFTMAX: upper case, digits and underscores, at least two letters.
bool isOperatorType(std::string_view word) {
  if (word.size() < 2 || !std::isupper(static_cast<unsigned char>(word[0]))) return false;
  for (char c : word) {
    if (!(std::isupper(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return true;
}

}  // namespace

GraphIrLexer::GraphIrLexer(QObject* parent) : QsciLexerCustom(parent) {
  setDefaultFont(defaultFont(Default));
}

QString GraphIrLexer::description(int style) const {
  switch (style) {
    case Default:
      return tr("Default");
    case Keyword:
      return tr("Keyword");
    case OperatorType:
      return tr("Operator type");
    case TensorReference:
      return tr("Tensor reference");
    case DType:
      return tr("Element type");
    case String:
      return tr("Tensor name");
    case Comment:
      return tr("Comment");
    default:
      return {};
  }
}

QColor GraphIrLexer::defaultColor(int style) const {
  switch (style) {
    case Keyword:
      return QColor(0x7a, 0x1f, 0xa2);
    case OperatorType:
      return QColor(0x0b, 0x4f, 0x9c);
    case TensorReference:
      return QColor(0x9a, 0x5b, 0x00);
    case DType:
      return QColor(0x1b, 0x6e, 0x3b);
    case String:
      return QColor(0x60, 0x60, 0x60);
    case Comment:
      return QColor(0x8a, 0x8a, 0x8a);
    default:
      return QColor(0x20, 0x20, 0x20);
  }
}

QFont GraphIrLexer::defaultFont(int style) const {
  QFont font = codeFont();
  if (style == OperatorType || style == Keyword) font.setBold(true);
  if (style == Comment) font.setItalic(true);
  return font;
}

void GraphIrLexer::styleText(int start, int end) {
  QsciScintilla* scintilla = editor();
  if (!scintilla) return;
  // Restart at the beginning of the line: a token never spans lines.
  const long line = scintilla->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, start);
  start = static_cast<int>(scintilla->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line));
  const QByteArray bytes = scintilla->bytes(start, end);
  // bytes() appends the terminating NUL of SCI_GETTEXTRANGE: style only the
  // range asked for, or Scintilla asserts.
  const auto length = static_cast<std::size_t>(std::clamp<qsizetype>(end - start, 0, bytes.size()));
  const std::string_view text(bytes.constData(), length);

  startStyling(start);
  std::size_t i = 0;
  auto styleNext = [&](std::size_t length, Style style) {
    setStyling(static_cast<int>(length), style);
    i += length;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      const auto eol = text.find('\n', i);
      styleNext((eol == std::string_view::npos ? text.size() : eol) - i, Comment);
    } else if (c == '"') {
      const auto close = text.find('"', i + 1);
      styleNext((close == std::string_view::npos ? text.size() : close + 1) - i, String);
    } else if (c == '%') {
      std::size_t j = i + 1;
      while (j < text.size() && isWordChar(text[j])) ++j;
      styleNext(j - i, TensorReference);
    } else if (isWordChar(c)) {
      std::size_t j = i;
      while (j < text.size() && isWordChar(text[j])) ++j;
      const std::string_view word = text.substr(i, j - i);
      styleNext(j - i, isKeyword(word)        ? Keyword
                       : isDType(word)        ? DType
                       : isOperatorType(word) ? OperatorType
                                              : Default);
    } else {
      styleNext(1, Default);
    }
  }
}

}  // namespace loupe::views
