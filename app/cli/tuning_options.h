// --tuning-log LOG, shared by compile, run and generate: the best record per
// workload of a tuning log (loupec tune) becomes the compiler's schedules,
// and a line says how many of the model's workloads it covered (the others
// keep their default schedule).
#pragma once

#include <string>

#include "cli/command_line.h"
#include "driver/compile_driver.h"
#include "lowering/schedule.h"

namespace loupe::cli {

OptionSpec tuningLogOptionSpec();

// The schedules of --tuning-log, or none without it. Throws
// tuning::TuningLogError for a log that cannot be read.
lowering::ScheduleTable schedulesFrom(const ParsedArguments& parsed);

// "tuning log LOG: 5 of 7 workloads tuned; 2 keep their default schedule"
// for the schedules schedulesFrom read, or empty without --tuning-log.
std::string tuningCoverage(const ParsedArguments& parsed, const lowering::ScheduleTable& schedules,
                           const driver::Compilation& compilation);

}  // namespace loupe::cli
