#include "target/target.h"

namespace loupe::target {

std::string Target::toString() const {
  std::string text = name_;
  for (const auto& [key, value] : options_) {
    if (!value.empty()) text += " -" + key + "=" + value;
  }
  return text;
}

}  // namespace loupe::target
