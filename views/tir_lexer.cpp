#include "views/tir_lexer.h"

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
  static constexpr std::array<std::string_view, 10> kWords = {
      "def", "for", "in", "if", "else", "not", "and", "or", "range", "return"};
  return std::find(kWords.begin(), kWords.end(), word) != kWords.end();
}

bool isType(std::string_view word) {
  static constexpr std::array<std::string_view, 11> kNames = {
      "float32", "float16", "int8",  "uint8",  "int16", "uint16",
      "int32",   "uint32",  "int64", "uint64", "bool"};
  return std::find(kNames.begin(), kNames.end(), word) != kNames.end();
}

}  // namespace

TirLexer::TirLexer(QObject* parent) : QsciLexerCustom(parent) {
  setDefaultFont(defaultFont(Default));
}

QString TirLexer::description(int style) const {
  switch (style) {
    case Default:
      return tr("Default");
    case Keyword:
      return tr("Keyword");
    case Builtin:
      return tr("TIR builtin");
    case Type:
      return tr("Element type");
    case Number:
      return tr("Number");
    case String:
      return tr("String");
    case Comment:
      return tr("Comment");
    default:
      return {};
  }
}

QColor TirLexer::defaultColor(int style) const {
  switch (style) {
    case Keyword:
      return QColor(0x7a, 0x1f, 0xa2);
    case Builtin:
      return QColor(0x0b, 0x4f, 0x9c);
    case Type:
      return QColor(0x1b, 0x6e, 0x3b);
    case Number:
      return QColor(0xa0, 0x40, 0x00);
    case String:
      return QColor(0x80, 0x50, 0x20);
    case Comment:
      return QColor(0x8a, 0x8a, 0x8a);
    default:
      return QColor(0x20, 0x20, 0x20);
  }
}

QFont TirLexer::defaultFont(int style) const {
  QFont font = codeFont();
  if (style == Keyword) font.setBold(true);
  if (style == Comment) font.setItalic(true);
  return font;
}

void TirLexer::styleText(int start, int end) {
  QsciScintilla* scintilla = editor();
  if (!scintilla) return;
  // Restart at the beginning of the line: no token spans lines.
  const long line = scintilla->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, start);
  start = static_cast<int>(scintilla->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line));
  const QByteArray bytes = scintilla->bytes(start, end);
  // bytes() includes SCI_GETTEXTRANGE's terminating NUL; style only [start, end).
  const auto length = static_cast<std::size_t>(std::clamp<qsizetype>(end - start, 0, bytes.size()));
  const std::string_view text(bytes.constData(), length);

  startStyling(start);
  std::size_t i = 0;
  auto styleNext = [&](std::size_t count, Style style) {
    setStyling(static_cast<int>(count), style);
    i += count;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      const auto eol = text.find('\n', i);
      styleNext((eol == std::string_view::npos ? text.size() : eol) - i, Comment);
    } else if (c == '"') {
      const auto close = text.find('"', i + 1);
      const std::size_t stop = close == std::string_view::npos ? text.size() : close + 1;
      // A quoted element type ("int8") reads as a type, anything else as a string.
      const bool type = stop - i > 2 && isType(text.substr(i + 1, stop - i - 2));
      styleNext(stop - i, type ? Type : String);
    } else if (c == '@' || (c == 'T' && i + 1 < text.size() && text[i + 1] == '.' &&
                            (i == 0 || !isWordChar(text[i - 1])))) {
      // "@T.prim_func", "T.Buffer", "T.int32": the builtin namespace.
      std::size_t j = i + 1;
      while (j < text.size() && (isWordChar(text[j]) || text[j] == '.')) ++j;
      const std::string_view word = text.substr(i, j - i);
      const auto dot = word.rfind('.');
      const bool type = dot != std::string_view::npos && isType(word.substr(dot + 1));
      styleNext(j - i, type ? Type : Builtin);
    } else if (std::isdigit(static_cast<unsigned char>(c)) &&
               (i == 0 || !isWordChar(text[i - 1]))) {
      std::size_t j = i;
      while (j < text.size() &&
             (isWordChar(text[j]) || text[j] == '.' ||
              ((text[j] == '-' || text[j] == '+') && (text[j - 1] == 'e' || text[j - 1] == 'E')))) {
        ++j;
      }
      styleNext(j - i, Number);
    } else if (isWordChar(c)) {
      std::size_t j = i;
      while (j < text.size() && isWordChar(text[j])) ++j;
      const std::string_view word = text.substr(i, j - i);
      styleNext(j - i, isKeyword(word) ? Keyword : isType(word) ? Type : Default);
    } else {
      styleNext(1, Default);
    }
  }
}

}  // namespace loupe::views
