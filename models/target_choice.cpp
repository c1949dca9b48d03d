#include "models/target_choice.h"

#include <exception>

namespace loupe::models {

namespace {

// The kind and option the choices vary: the Ethos-U's accelerator configuration.
constexpr const char* kEthosUKind = "ethos-u";
constexpr const char* kAcceleratorOption = "accelerator_config";

}  // namespace

QList<TargetChoice> targetChoices(const target::TargetRegistry& registry) {
  QList<TargetChoice> choices{{QStringLiteral("CPU only (c)"), QStringLiteral("c")}};
  // One choice per value of `kind`'s option `key`, with the CPU beside it.
  const auto addEach = [&registry, &choices](const char* kind, const char* key,
                                             const QString& label, const QString& target) {
    const target::TargetKind* found = registry.find(kind);
    if (!found) return;
    for (const target::TargetOptionSpec& option : found->options) {
      if (option.key != key) continue;
      for (const std::string& value : option.allowedValues) {
        const QString config = QString::fromStdString(value);
        choices.append({label.arg(config), target.arg(config)});
      }
    }
  };
  addEach(kEthosUKind, kAcceleratorOption, QStringLiteral("Ethos-U %1 + CPU"),
          QStringLiteral("ethos-u -accelerator_config=%1, c"));
  return choices;
}

std::optional<TargetChoice> targetChoiceOf(const QString& targetString,
                                           const target::TargetRegistry& registry, QString* error) {
  const target::TargetList targets = parseTargets(targetString, registry, error);
  if (targets.empty()) return std::nullopt;
  const QString canonical = QString::fromStdString(target::targetListString(targets));
  for (const TargetChoice& choice : targetChoices(registry)) {
    if (choice.targetString == canonical) return choice;
  }
  return TargetChoice{canonical, canonical};
}

target::TargetList parseTargets(const QString& targetString, const target::TargetRegistry& registry,
                                QString* error) {
  try {
    return target::parseTargetString(targetString.toStdString(), registry);
  } catch (const std::exception& failure) {
    if (error) *error = QString::fromUtf8(failure.what());
    return {};
  }
}

}  // namespace loupe::models
