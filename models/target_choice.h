// The targets the window offers to compile for: the CPU alone, or the NPU
// (Ethos-U55-like) in each MAC configuration its target kind allows, with the
// CPU taking what the NPU refuses. Each choice is a target string as `loupec
// compile --target` takes it, so the GUI compiles exactly what loupec does.
#pragma once

#include <QList>
#include <QString>

namespace loupe::models {

// The target string compiled when nothing else is chosen: the CPU only.
inline constexpr const char* kDefaultTargetString = "c";

struct TargetChoice {
  QString label;         // "NPU (Ethos-U55-like) npu-128 + CPU"
  QString targetString;  // "npu -config=npu-128, c"
};

// "CPU only (c)" first, then one NPU choice per configuration, smallest first.
QList<TargetChoice> targetChoices();

// Why `targetString` is not a valid target list (the parser's message), or
// an empty string when it is.
QString targetStringError(const QString& targetString);

// The target string as the parser writes it back ("npu -config=npu-128, c"),
// so equal choices compare equal; `targetString` itself when it is invalid.
QString canonicalTargetString(const QString& targetString);

}  // namespace loupe::models
