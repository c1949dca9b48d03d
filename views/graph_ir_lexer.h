// Colours the printed graph IR (ir::printGraph) in the Graph IR view: keywords,
// operator types, tensor references (%3, %c17), dtypes, tensor names and the
// trailing "// op N" comments. Purely lexical, so it stays correct whatever
// the printer adds, as long as it keeps these token shapes.
#pragma once

#include <Qsci/qscilexercustom.h>

namespace loupe::views {

class GraphIrLexer : public QsciLexerCustom {
  Q_OBJECT

 public:
  enum Style {
    Default,
    Keyword,
    OperatorType,
    TensorReference,
    DType,
    String,
    Comment,
    StyleCount,
  };

  explicit GraphIrLexer(QObject* parent = nullptr);

  const char* language() const override { return "Loupe graph IR"; }
  QString description(int style) const override;
  QColor defaultColor(int style) const override;
  QFont defaultFont(int style) const override;
  void styleText(int start, int end) override;
};

}  // namespace loupe::views
