#include "models/operator_attribute_fields.h"

#include "ir/graph_printer.h"

namespace loupe::models {

QList<AttributeField> operatorAttributeFields(const ir::Attributes& attributes) {
  const QString text = QString::fromStdString(ir::attributesToString(attributes));
  // Split on spaces outside double quotes: custom codes may contain spaces.
  QStringList tokens;
  QString token;
  bool quoted = false;
  for (const QChar c : text) {
    if (c == u'"') quoted = !quoted;
    if (c == u' ' && !quoted) {
      if (!token.isEmpty()) tokens << token;
      token.clear();
    } else {
      token += c;
    }
  }
  if (!token.isEmpty()) tokens << token;

  QList<AttributeField> fields;
  for (const QString& t : tokens) {
    const auto equals = t.indexOf(u'=');
    if (equals < 0) {
      fields.append({t, QStringLiteral("true")});  // a flag the printer writes only when set
    } else {
      fields.append({t.left(equals), t.mid(equals + 1)});
    }
  }
  return fields;
}

}  // namespace loupe::models
