// Tuning on the board (rfcs/003's AutoTVM, our own): every distinct workload
// of a model's C operators (lowering::workloadKey) has a space of schedules
// (lowering/schedule.h); the tuner builds firmware with candidate schedules,
// runs it on the board and keeps what the board's profiler measured for each
// operator as tuning records.
//
// One trial is one firmware: trial t lowers every workload with its t-th
// candidate (the default first), so a model's workloads are measured
// together and the number of builds is the longest candidate list, not
// their sum. The candidates are searched in two rounds: first the default
// and each knob's other choices one knob at a time
// (lowering::ScheduleSpace::oneKnobAtATime), then one trial with each
// workload's per-knob best choices together, where two or more knobs gained.
// The knobs act on different things, so their bests hardly interact, and a
// workload with kernel (2), unroll (4) and pixels (2) takes 6 + 1 trials
// instead of the 16 of every combination.
// Each trial's outputs are compared with the reference interpreter's; a
// candidate whose trial builds nothing or gives other bytes is recorded as
// failed and never applied. Trials run on `jobs` boards at once (QEMU
// instances or host processes); a stop request or the time budget ends the
// tuning after the trials under way, keeping every record measured so far.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "deploy/deployment.h"
#include "driver/compile_driver.h"
#include "lowering/schedule.h"
#include "tuning/tuning_log.h"

namespace loupe::deploy {

// One distinct workload of the model and the schedules to try for it.
struct TuningWorkload {
  std::string key;
  std::string op;                              // the operator type
  std::vector<int> operators;                  // graph operators with this workload
  std::vector<lowering::Schedule> candidates;  // the default first; the second round's last
};

struct TuningProgress {
  int trialsDone = 0;
  int trialsTotal = 0;
  const tuning::TuningRecord* record = nullptr;            // the record just measured, or null
  const std::vector<TuningWorkload>* workloads = nullptr;  // every workload being tuned
};

struct TuneRequest {
  std::shared_ptr<const Platform> platform;
  driver::CompileRequest compile;                 // the imported model, targets, options
  std::vector<std::vector<std::uint8_t>> inputs;  // model input order, checked sizes
  DeploymentOptions deployment;                   // build cache, stop token
  int trials = 0;                // at most this many first-round candidates per workload; 0: all
  int jobs = 1;                  // boards at once
  double timeBudgetSeconds = 0;  // no trial starts after this; 0: no limit
  // Records from an earlier tuning (the log being resumed): a schedule
  // measured there is not measured again.
  std::vector<tuning::TuningRecord> previous;
  std::string version;  // Loupe's, written into every record
  // Called with no record when the workloads are known, before the first
  // trial, and again before the second round (which adds a candidate to
  // some workloads); then for every record as soon as it is measured (from
  // one thread at a time), so the caller can append it to the log at once.
  std::function<void(const TuningProgress&)> progress;
};

struct TuneResult {
  std::vector<TuningWorkload> workloads;
  std::vector<tuning::TuningRecord> records;  // measured in this run
  int trialsRun = 0;
  int trialsSkipped = 0;  // left when the budget ran out or a stop came
  std::string unit;       // the board's profiler unit
};

// What the log knows of one workload on one board: the default schedule's
// cost and the best measured one (per call, in the board's unit).
struct WorkloadSummary {
  const TuningWorkload* workload = nullptr;
  std::optional<double> defaultCost;
  std::optional<double> bestCost;
  lowering::Schedule best;
};

// One summary per workload, in `workloads`' order, from the records measured
// on `board` (earlier tunings' too, when `records` holds them).
std::vector<WorkloadSummary> summarizeTuning(const std::vector<TuningWorkload>& workloads,
                                             const std::vector<tuning::TuningRecord>& records,
                                             const std::string& board);

// The second round's schedule of `workload`: for every knob, the choice
// whose one-knob change from the default measured least on `board` in
// `records` (the default where none measured less than it); nullopt where
// the default was not measured or that schedule is at most one knob away
// from the default (the first round measured it).
std::optional<lowering::Schedule> combinedBestSchedule(
    const TuningWorkload& workload, const std::vector<tuning::TuningRecord>& records,
    const std::string& board);

// The workloads of the model's C operators as `request` compiles them, with
// at most `trials` candidates each (0: every one).
std::vector<TuningWorkload> findWorkloads(const driver::Compilation& compilation, int trials);

// The inputs a tuning runs without the user's: fixed pseudo-random bytes, so
// every tuning of a model measures the same thing (the instructions a kernel
// takes hardly depend on the values).
std::vector<std::vector<std::uint8_t>> fixedTuningInputs(const ir::Graph& model);

// Throws what the driver throws for a model it cannot compile with default
// schedules, DeployError for a platform that cannot run the model at all
// (the default schedules' trial fails) and std::invalid_argument for bad
// inputs. A stop request returns what was measured.
TuneResult tuneOnBoard(TuneRequest request);

}  // namespace loupe::deploy
