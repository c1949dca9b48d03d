// --tuning-log LOG and --no-tuning-log, shared by compile, run, generate,
// validate and debug: which schedules the code is lowered with. Compiled
// for a board, the tuning logs bundled with Loupe offer their best records
// measured on that board (deploy/bundled_tuning.h; those the model's
// operators take are applied); --tuning-log replaces them with the best
// record per workload of the user's log (loupec tune), all applied;
// --no-tuning-log keeps every default schedule. A line says how many of the
// model's workloads the schedules covered.
#pragma once

#include <string>
#include <vector>

#include "cli/command_line.h"
#include "driver/compile_driver.h"
#include "lowering/schedule.h"

namespace loupe::cli {

std::vector<OptionSpec> tuningLogOptionSpecs();

struct ScheduleChoice {
  lowering::ScheduleTable schedules;  // --tuning-log's: CompileOptions::schedules
  lowering::ScheduleTable offered;    // the bundled logs': CompileRequest::offeredSchedules
  // "tuning log LOG", "bundled tuning logs (BOARD)"; empty: default schedules.
  std::string source;
  std::string note;  // why the bundled logs offer nothing, or empty
};

// The schedules for a compilation for `board` (a platform's name; empty:
// none, as compile without --platform, which gets default schedules).
// Throws UsageError for --tuning-log with --no-tuning-log and
// tuning::TuningLogError for a --tuning-log that cannot be read; a bundled
// log that cannot be read is skipped with a warning on stderr.
ScheduleChoice scheduleChoiceFrom(const ParsedArguments& parsed, const std::string& board);

// Puts `choice` into `request`.
void applyScheduleChoice(const ScheduleChoice& choice, driver::CompileRequest& request);

// "tuning log LOG: 5 of 7 workloads tuned; 2 keep their default schedule",
// "bundled tuning logs (qemu-mps3-an547): ..." or the note, for the
// compilation made with `choice`; empty with default schedules asked for.
std::string tuningCoverage(const ScheduleChoice& choice, const driver::Compilation& compilation);

}  // namespace loupe::cli
