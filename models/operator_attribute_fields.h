// An operator's attributes as (name, value) pairs for the Properties view.
// The graph printer is the one place that names attributes; the fields are
// read from its text so the Properties view and the Graph IR view always agree.
#pragma once

#include <QList>
#include <QString>
#include <utility>

#include "ir/attributes.h"

namespace loupe::models {

struct AttributeField {
  QString name;
  QString value;
};

// "padding=SAME stride=2x2 time_major custom_code=\"a b\"" ->
// (padding, SAME), (stride, 2x2), (time_major, true), (custom_code, "a b").
QList<AttributeField> operatorAttributeFields(const ir::Attributes& attributes);

}  // namespace loupe::models
