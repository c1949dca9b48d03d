#include "cli/tuning_options.h"

#include <iostream>

#include "deploy/bundled_tuning.h"
#include "deploy/tuning_coverage.h"
#include "tuning/tuning_log.h"

namespace loupe::cli {

std::vector<OptionSpec> tuningLogOptionSpecs() {
  return {{"--tuning-log", OptionSpec::Kind::Value}, {"--no-tuning-log", OptionSpec::Kind::Flag}};
}

ScheduleChoice scheduleChoiceFrom(const ParsedArguments& parsed, const std::string& board) {
  const auto log = parsed.value("--tuning-log");
  if (log && parsed.has("--no-tuning-log")) {
    throw UsageError("--tuning-log applies a log and --no-tuning-log none; give one of them");
  }
  ScheduleChoice choice;
  if (log) {
    choice.schedules = tuning::bestSchedules(tuning::readTuningLogFile(*log));
    choice.source = "tuning log " + *log;
    return choice;
  }
  if (board.empty() || parsed.has("--no-tuning-log")) return choice;
  const deploy::BundledTuningLogs& bundled = deploy::bundledTuningLogs();
  for (const std::string& problem : bundled.problems) {
    std::cerr << "warning: bundled tuning log skipped: " << problem << "\n";
  }
  choice.source = "bundled tuning logs (" + board + ")";
  choice.offered = deploy::bundledSchedules(bundled.records, board);
  if (bundled.directory.empty()) {
    choice.note = "bundled tuning logs: none installed (share/loupe/tuning); default schedules";
  } else if (choice.offered.empty()) {
    choice.note = choice.source + ": none measured on this board; default schedules";
  }
  return choice;
}

void applyScheduleChoice(const ScheduleChoice& choice, driver::CompileRequest& request) {
  request.options.schedules = choice.schedules;
  request.offeredSchedules = choice.offered;
}

std::string tuningCoverage(const ScheduleChoice& choice, const driver::Compilation& compilation) {
  if (!choice.note.empty()) return choice.note;
  if (choice.source.empty()) return {};
  return choice.source + ": " + deploy::tuningCoverageText(deploy::tuningCoverage(compilation));
}

}  // namespace loupe::cli
