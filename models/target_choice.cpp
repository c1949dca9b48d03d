#include "models/target_choice.h"

#include <exception>

namespace loupe::models {

namespace {

// The kind and option the choices vary: the NPU's MAC configuration.
constexpr const char* kNpuKind = "npu";
constexpr const char* kConfigOption = "config";

}  // namespace

QList<TargetChoice> targetChoices(const target::TargetRegistry& registry) {
  QList<TargetChoice> choices{{QStringLiteral("CPU only (c)"), QStringLiteral("c")}};
  const target::TargetKind* npu = registry.find(kNpuKind);
  if (!npu) return choices;
  for (const target::TargetOptionSpec& option : npu->options) {
    if (option.key != kConfigOption) continue;
    for (const std::string& value : option.allowedValues) {
      const QString config = QString::fromStdString(value);
      choices.append({QStringLiteral("NPU (Ethos-U55-like) %1 + CPU").arg(config),
                      QStringLiteral("npu -config=%1, c").arg(config)});
    }
  }
  return choices;
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
