// The per-operator table `loupec run --profile` prints: each call's time,
// MACs, MACs per instruction and how much of its core's peak that is.
#pragma once

#include <ostream>
#include <string>

#include "deploy/run_profile.h"

namespace loupe::cli {

// `cpu` names the core for the peak line ("cortex-m55").
void printProfileTable(std::ostream& out, const deploy::RunProfile& profile,
                       const std::string& cpu);

}  // namespace loupe::cli
