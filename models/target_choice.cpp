#include "models/target_choice.h"

#include <exception>

#include "target/target_string.h"
#include "targets/builtin_targets.h"

namespace loupe::models {

namespace {

// The kind and option the choices vary: the NPU's MAC configuration.
constexpr const char* kNpuKind = "npu";
constexpr const char* kConfigOption = "config";

}  // namespace

QList<TargetChoice> targetChoices() {
  QList<TargetChoice> choices{{QStringLiteral("CPU only (c)"), QStringLiteral("c")}};
  const target::TargetRegistry registry = targets::builtinTargetRegistry();
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

QString targetStringError(const QString& targetString) {
  try {
    target::parseTargetString(targetString.toStdString(), targets::builtinTargetRegistry());
    return {};
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
}

QString canonicalTargetString(const QString& targetString) {
  try {
    return QString::fromStdString(target::targetListString(
        target::parseTargetString(targetString.toStdString(), targets::builtinTargetRegistry())));
  } catch (const std::exception&) {
    return targetString;
  }
}

}  // namespace loupe::models
