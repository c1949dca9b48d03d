// A compiled model's operator functions as one text (all of its TIR, or all
// of its C) with the lines each function occupies, so a view can show the
// whole model and scroll to the function of the selected operator.
#pragma once

#include <QList>
#include <QString>

namespace loupe::models {

struct ListedFunction {
  QString name;               // the C symbol, e.g. tvmgen_default_fused_conv_2d_0
  QList<int> modelOperators;  // the imported operators it computes
  int firstLine = 0;          // 0-based, in FunctionListing::text
  int lastLine = 0;           // inclusive
};

struct FunctionListing {
  QString text;
  QList<ListedFunction> functions;

  // Index into `functions` of the function computing imported operator
  // `modelOperator`, or -1 (an operator folded away or a no-copy view has none).
  int functionOfOperator(int modelOperator) const;
  // Appends `text` as the next function (or, with an empty name, as text that
  // belongs to no operator, e.g. the AOT executor).
  void append(const QString& name, const QList<int>& modelOperators, const QString& text);
};

}  // namespace loupe::models
