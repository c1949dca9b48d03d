// Tuning on the board (rfcs/003's AutoTVM, our own): every distinct workload
// of a model's C operators (lowering::workloadKey) has a space of schedules
// (lowering/schedule.h); the tuner builds firmware with candidate schedules,
// runs it on the board and keeps what the board's profiler measured for each
// operator as tuning records.
//
// One trial is one firmware: trial t lowers every workload with its t-th
// candidate (the default first), so a model's workloads are measured
// together and the number of builds is the largest space, not their sum.
// Each trial's outputs are compared with the reference interpreter's; a
// candidate whose trial builds nothing or gives other bytes is recorded as
// failed and never applied. Trials run on `jobs` boards at once (QEMU
// instances or host processes); a stop request or the time budget ends the
// tuning after the trials under way, keeping every record measured so far.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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
  std::vector<lowering::Schedule> candidates;  // the default first
};

struct TuningProgress {
  int trialsDone = 0;
  int trialsTotal = 0;
  const tuning::TuningRecord* record = nullptr;  // the record just measured, or null
};

struct TuneRequest {
  std::shared_ptr<const Platform> platform;
  driver::CompileRequest compile;                 // the imported model, targets, options
  std::vector<std::vector<std::uint8_t>> inputs;  // model input order, checked sizes
  DeploymentOptions deployment;                   // build cache, stop token
  int trials = 0;                // at most this many candidates per workload; 0: all
  int jobs = 1;                  // boards at once
  double timeBudgetSeconds = 0;  // no trial starts after this; 0: no limit
  // Records from an earlier tuning (the log being resumed): a schedule
  // measured there is not measured again.
  std::vector<tuning::TuningRecord> previous;
  std::string version;  // Loupe's, written into every record
  // Called for every record as soon as it is measured (from one thread at
  // a time), so the caller can append it to the log at once.
  std::function<void(const TuningProgress&)> progress;
};

struct TuneResult {
  std::vector<TuningWorkload> workloads;
  std::vector<tuning::TuningRecord> records;  // measured in this run
  int trialsRun = 0;
  int trialsSkipped = 0;  // left when the budget ran out or a stop came
  std::string unit;       // the board's profiler unit
};

// The workloads of the model's C operators as `request` compiles them, with
// at most `trials` candidates each (0: every one).
std::vector<TuningWorkload> findWorkloads(const driver::Compilation& compilation, int trials);

// Throws what the driver throws for a model it cannot compile with default
// schedules, DeployError for a platform that cannot run the model at all
// (the default schedules' trial fails) and std::invalid_argument for bad
// inputs. A stop request returns what was measured.
TuneResult tuneOnBoard(TuneRequest request);

}  // namespace loupe::deploy
