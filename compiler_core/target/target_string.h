// The target string of `--target`, as TVM writes it: targets separated by
// commas in priority order, each a name and -key=value options, e.g.
// "ethos-u -accelerator_config=ethos-u55-128, c". An operator goes to the first target that
// accepts it. `c` is not implied: a string without it is valid, and then an
// operator no listed target accepts is an error of annotate_targets, which
// names the operator and every target's reasons.
#pragma once

#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "target/target.h"
#include "target/target_registry.h"

namespace loupe::target {

class TargetStringError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

using TargetList = std::vector<std::shared_ptr<const Target>>;

// Throws TargetStringError for an empty string or entry, an unknown target
// (listing the known ones), a target given twice, an option that is not
// -key=value, unknown or given twice, and a value outside the option's
// allowed values (listing them).
TargetList parseTargetString(std::string_view text, const TargetRegistry& registry);

// The targets as a target string again: "ethos-u -accelerator_config=ethos-u55-128, c".
std::string targetListString(const TargetList& targets);

}  // namespace loupe::target
