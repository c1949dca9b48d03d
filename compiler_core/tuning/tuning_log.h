// Tuning records (rfcs/003): what `loupec tune` measured for one schedule of
// one workload on a board, one JSON object per line:
//   {"workload": "CONV_2D int8[1,49,10,1] ... @dsp", "operator": "CONV_2D",
//    "knobs": {"kernel": "simd", "unroll": "4"}, "cost": 412345,
//    "unit": "instructions", "board": "qemu-mps2-an386", "loupe": "0.1.0"}
// A candidate that failed (did not build, or gave other bytes than the
// reference) has "error" instead of "cost". A log is appended to as trials
// finish, so an interrupted tuning keeps what it measured and a second run
// resumes from it. compile, run and generate --tuning-log apply the best
// record per workload.
#pragma once

#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lowering/schedule.h"

namespace loupe::tuning {

struct TuningRecord {
  std::string workload;  // lowering::workloadKey
  std::string op;        // the operator type, for people reading the log
  lowering::Schedule knobs;
  std::optional<double> cost;  // measured on the board, per call; none if it failed
  std::string unit;            // "instructions" (QEMU) or "ns"
  std::string board;
  std::string version;  // Loupe's
  std::string error;    // why the candidate failed, or empty
};

class TuningLogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One line of a log (no newline).
std::string tuningRecordLine(const TuningRecord& record);

// Every record of a log; `source` names it in errors. Blank lines are
// skipped; a line that is not a record throws TuningLogError with the line
// number (a log cut short by an interruption loses only its last, partial
// line: that one is skipped).
std::vector<TuningRecord> readTuningLog(std::istream& in, const std::string& source);
std::vector<TuningRecord> readTuningLogFile(const std::string& path);

// How much more than the least cost a record may measure and still count
// as a tie. The tuner measures the default first and unrolling last, and
// unrolling that saves a percent or two can cost more in flash: with ties
// within 1%, kws on the M55 took 1.34 M instructions and 75,900 bytes of
// flash tuned; within 2%, 1.35 M and 71,164 (70,980 untuned).
inline constexpr double kNearTie = 0.02;

// The measured record of least cost per workload, where ties (within
// kNearTie of the least) keep the first in the log; failed ones never win.
std::vector<TuningRecord> bestRecords(const std::vector<TuningRecord>& records);

// bestRecords as the compiler applies them.
lowering::ScheduleTable bestSchedules(const std::vector<TuningRecord>& records);

}  // namespace loupe::tuning
