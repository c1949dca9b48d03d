// The kinds of target by name, with the options each takes. Plugins register
// theirs at start-up (plugins/targets: registerBuiltinTargets), so the target
// string parser, the CLI and the GUI can check and list them without knowing
// any of them.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "target/target.h"

namespace loupe::target {

struct TargetOptionSpec {
  std::string key;  // "accelerator_config", written -accelerator_config=VALUE
  std::vector<std::string> allowedValues;
  std::string defaultValue;
  // The hardware's configuration (an NPU's size, a CPU): estimates are set
  // side by side across its values (estimatesAcrossConfigurations).
  bool configuration = true;
};

struct TargetKind {
  std::string name;  // "ethos-u"
  std::vector<TargetOptionSpec> options;
  // Makes the target from options that are checked against `options` and
  // have every default filled in.
  std::function<std::shared_ptr<const Target>(const TargetOptions&)> create;
};

class TargetRegistry {
 public:
  // Replaces a kind of the same name.
  void add(TargetKind kind);
  // The kind of that name, or nullptr.
  const TargetKind* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<TargetKind> kinds_;
};

}  // namespace loupe::target
