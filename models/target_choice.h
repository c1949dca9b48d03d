// The targets the window offers to compile for: the CPU alone, or Arm's
// Ethos-U in each accelerator configuration its target kind allows, with the
// CPU taking what the NPU refuses. Each choice is a target string as `loupec
// compile --target` takes it, so the GUI compiles exactly what loupec does;
// a string is parsed once, where the user chose or typed it.
#pragma once

#include <QList>
#include <QString>
#include <optional>

#include "target/target_registry.h"
#include "target/target_string.h"

namespace loupe::models {

// The target string compiled when nothing else is chosen: the CPU only.
inline constexpr const char* kDefaultTargetString = "c";

struct TargetChoice {
  QString label;         // "Ethos-U ethos-u55-128 + CPU"
  QString targetString;  // "ethos-u -accelerator_config=ethos-u55-128, c"
};

// "CPU only (c)" first, then one choice per configuration of `registry`'s
// ethos-u kind, in its order.
QList<TargetChoice> targetChoices(const target::TargetRegistry& registry);

// The choice `targetString` names, as the window shows it: its target
// string made canonical (`ethos-u, c` -> `ethos-u
// -accelerator_config=ethos-u55-128, c`) and the label of the choice that
// is (or that string itself); nothing, and the parser's message in `error`,
// when it is not a valid target list.
std::optional<TargetChoice> targetChoiceOf(const QString& targetString,
                                           const target::TargetRegistry& registry, QString* error);

// The targets `targetString` names in priority order; an empty list and the
// parser's message in `error` when it is not a valid target list.
target::TargetList parseTargets(const QString& targetString, const target::TargetRegistry& registry,
                                QString* error);

}  // namespace loupe::models
