#include "deploy/tuning_coverage.h"

#include "deploy/auto_tuner.h"

namespace loupe::deploy {

TuningCoverage tuningCoverage(const driver::Compilation& compilation) {
  TuningCoverage coverage;
  for (const TuningWorkload& workload : findWorkloads(compilation, 1)) {
    ++coverage.workloads;
    if (compilation.schedules.contains(workload.key)) ++coverage.tuned;
  }
  return coverage;
}

std::string tuningCoverageText(const TuningCoverage& coverage) {
  return std::to_string(coverage.tuned) + " of " + std::to_string(coverage.workloads) +
         " workloads tuned; " + std::to_string(coverage.workloads - coverage.tuned) +
         " keep their default schedule";
}

}  // namespace loupe::deploy
