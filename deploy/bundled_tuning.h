// The tuning logs kept with Loupe (issue #44): bench/tuning in the source
// tree, one `<model>.<board>.jsonl` per shared model and board as
// loupe_board_speed_bench writes them, installed to share/loupe/tuning. A
// compilation for a board is offered the best record per workload measured
// on that board (driver::CompileRequest::offeredSchedules), so any model
// whose operators match a tuned workload (its key has the shapes,
// attributes and instruction set) gets tuned code without tuning; what does
// not fit the model's operators is left out, never an error. --tuning-log
// replaces them, --no-tuning-log (and the GUI's Run menu) turns them off.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lowering/schedule.h"
#include "tuning/tuning_log.h"

namespace loupe::deploy {

// $LOUPE_TUNING_DIR when set (a folder of logs of one's own instead);
// else share/loupe/tuning in the nearest folder above the running
// executable that has one: <prefix>/share/loupe/tuning of an installation
// (found from the executable, so an unpacked tree works wherever it is),
// or the build tree's link to bench/tuning for any binary built there.
// Empty when there is none.
std::filesystem::path bundledTuningDirectory();

struct BundledTuningLogs {
  std::filesystem::path directory;            // where they were read, or empty
  std::vector<tuning::TuningRecord> records;  // every readable log's, in file-name order
  // Why each log skipped as unreadable was ("DIR/kws.qemu-mps2-an385.jsonl:3:
  // not a tuning record (...)").
  std::vector<std::string> problems;
};

// The records of every *.jsonl in `directory` (none when it does not exist).
// A log that cannot be read is skipped and named in problems: a damaged
// bundled file costs its tuned schedules, never a compilation.
BundledTuningLogs readBundledTuningLogs(const std::filesystem::path& directory);

// readBundledTuningLogs(bundledTuningDirectory()), read once per process.
const BundledTuningLogs& bundledTuningLogs();

// The best measured schedule per workload (tuning::bestSchedules) among the
// records measured on `board` (TuningRecord::board): what a compilation for
// that board is offered.
lowering::ScheduleTable bundledSchedules(const std::vector<tuning::TuningRecord>& records,
                                         const std::string& board);

}  // namespace loupe::deploy
