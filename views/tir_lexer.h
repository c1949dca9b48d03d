// Colours printed TIR (tir::printPrimFunc, TVMScript style) in the TIR view:
// Python keywords (def, for, in, if), T.* builtins and element types,
// numbers, strings and # comments. Purely lexical, like GraphIrLexer.
#pragma once

#include <Qsci/qscilexercustom.h>

namespace loupe::views {

class TirLexer : public QsciLexerCustom {
  Q_OBJECT

 public:
  enum Style {
    Default,
    Keyword,
    Builtin,  // T.prim_func, T.Buffer, T.allocate, ...
    Type,     // int8, float32, T.int32(...), "uint8"
    Number,
    String,
    Comment,
    StyleCount,
  };

  explicit TirLexer(QObject* parent = nullptr);

  const char* language() const override { return "Loupe TIR"; }
  QString description(int style) const override;
  QColor defaultColor(int style) const override;
  QFont defaultFont(int style) const override;
  void styleText(int start, int end) override;
};

}  // namespace loupe::views
