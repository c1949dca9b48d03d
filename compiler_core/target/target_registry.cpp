#include "target/target_registry.h"

namespace loupe::target {

void TargetRegistry::add(TargetKind kind) {
  for (TargetKind& existing : kinds_) {
    if (existing.name == kind.name) {
      existing = std::move(kind);
      return;
    }
  }
  kinds_.push_back(std::move(kind));
}

const TargetKind* TargetRegistry::find(const std::string& name) const {
  for (const TargetKind& kind : kinds_) {
    if (kind.name == name) return &kind;
  }
  return nullptr;
}

std::vector<std::string> TargetRegistry::names() const {
  std::vector<std::string> names;
  for (const TargetKind& kind : kinds_) names.push_back(kind.name);
  return names;
}

}  // namespace loupe::target
