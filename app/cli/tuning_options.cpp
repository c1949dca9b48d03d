#include "cli/tuning_options.h"

#include "deploy/auto_tuner.h"
#include "tuning/tuning_log.h"

namespace loupe::cli {

OptionSpec tuningLogOptionSpec() {
  return {"--tuning-log", OptionSpec::Kind::Value};
}

lowering::ScheduleTable schedulesFrom(const ParsedArguments& parsed) {
  const auto log = parsed.value("--tuning-log");
  if (!log) return {};
  return tuning::bestSchedules(tuning::readTuningLogFile(*log));
}

std::string tuningCoverage(const ParsedArguments& parsed, const lowering::ScheduleTable& schedules,
                           const driver::Compilation& compilation) {
  const auto log = parsed.value("--tuning-log");
  if (!log) return {};
  int tuned = 0, total = 0;
  for (const deploy::TuningWorkload& workload : deploy::findWorkloads(compilation, 1)) {
    ++total;
    if (schedules.contains(workload.key)) ++tuned;
  }
  return "tuning log " + *log + ": " + std::to_string(tuned) + " of " + std::to_string(total) +
         " workloads tuned; " + std::to_string(total - tuned) + " keep their default schedule";
}

}  // namespace loupe::cli
