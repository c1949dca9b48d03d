#include "models/function_listing.h"

namespace loupe::models {

int FunctionListing::functionOfOperator(int modelOperator) const {
  for (int i = 0; i < functions.size(); ++i) {
    if (functions[i].modelOperators.contains(modelOperator)) return i;
  }
  return -1;
}

void FunctionListing::append(const QString& name, const QList<int>& modelOperators,
                             const QString& functionText) {
  // One blank line between pieces keeps them apart for the reader.
  if (!text.isEmpty()) text += QStringLiteral("\n");
  const int firstLine = static_cast<int>(text.count(u'\n'));
  QString body = functionText;
  if (!body.endsWith(u'\n')) body += u'\n';
  text += body;
  if (name.isEmpty()) return;
  const int lastLine = static_cast<int>(text.count(u'\n')) - 1;
  functions.append({name, modelOperators, firstLine, lastLine});
}

}  // namespace loupe::models
