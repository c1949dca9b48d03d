// Reading an operator's OptionAttrs (ir/attributes.h) by name.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/graph.h"

namespace loupe::ops {

// The option `name` of `op`, or `fallback` when it does not carry it.
inline std::int64_t optionOf(const ir::Operator& op, std::string_view name,
                             std::int64_t fallback = 0) {
  const auto* attrs = std::get_if<ir::OptionAttrs>(&op.attributes);
  return attrs ? attrs->get(name, fallback) : fallback;
}

}  // namespace loupe::ops
