#include "deploy/auto_tuner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "deploy/deploy_error.h"
#include "deploy/run_on_board.h"
#include "reference/reference_interpreter.h"

namespace loupe::deploy {

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<std::uint8_t>;

std::vector<Bytes> referenceOutputs(const ir::Graph& model, const std::vector<Bytes>& inputs) {
  checkSizes(model, model.inputs, inputs, "input");
  reference::ReferenceInterpreter interpreter(model);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  std::vector<Bytes> outputs;
  for (std::size_t i = 0; i < model.outputs.size(); ++i) {
    const auto bytes = interpreter.output(i);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

// What one trial measured: the run's profile, or why it failed.
struct TrialOutcome {
  RunProfile profile;
  std::string error;
};

// The record of one workload's candidate from its trial: the mean time of
// the workload's operator calls, or why the trial failed.
tuning::TuningRecord measuredRecord(const TuningWorkload& workload,
                                    const lowering::Schedule& schedule, const TrialOutcome& outcome,
                                    const std::string& board, const std::string& version) {
  tuning::TuningRecord record{workload.key,         workload.op, schedule, {},
                              outcome.profile.unit, board,       version,  outcome.error};
  if (!outcome.error.empty()) return record;
  double sum = 0;
  int calls = 0;
  for (const OperatorTime& time : outcome.profile.operators) {
    if (std::find(workload.operators.begin(), workload.operators.end(), time.operatorIndex) !=
        workload.operators.end()) {
      sum += time.time;
      ++calls;
    }
  }
  if (calls == 0) {
    record.error = "the profile has no time for this workload's operators";
  } else {
    record.cost = sum / calls;
  }
  return record;
}

}  // namespace

std::vector<TuningWorkload> findWorkloads(const driver::Compilation& compilation, int trials) {
  const ir::Graph& graph = compilation.graph;
  const target::CpuIsa isa = compilation.model.isa;
  std::vector<TuningWorkload> workloads;
  std::map<std::string, std::size_t> byKey;
  for (const codegen::OperatorCall& call : compilation.model.calls) {
    // Regions and device operators are compiled by their target, not by
    // the CPU's lowerings: nothing to tune here.
    if (call.device >= 0 || call.operators.size() != 1) continue;
    const ir::Operator& op = graph.operators.at(call.operatorIndex);
    const std::string key = lowering::workloadKey(graph, op, isa);
    auto [it, added] = byKey.try_emplace(key, workloads.size());
    if (added) {
      TuningWorkload workload{key, std::string(op.typeName()), {}, {}};
      workload.candidates = lowering::scheduleSpace(graph, op, isa).oneKnobAtATime();
      if (trials > 0 && static_cast<int>(workload.candidates.size()) > trials) {
        workload.candidates.resize(static_cast<std::size_t>(trials));
      }
      workloads.push_back(std::move(workload));
    }
    workloads[it->second].operators.push_back(op.index);
  }
  return workloads;
}

std::vector<WorkloadSummary> summarizeTuning(const std::vector<TuningWorkload>& workloads,
                                             const std::vector<tuning::TuningRecord>& records,
                                             const std::string& board) {
  std::vector<tuning::TuningRecord> onBoard;
  for (const tuning::TuningRecord& record : records) {
    if (record.board == board) onBoard.push_back(record);
  }
  std::map<std::string, const tuning::TuningRecord*> best;
  const std::vector<tuning::TuningRecord> bestOnBoard = tuning::bestRecords(onBoard);
  for (const tuning::TuningRecord& record : bestOnBoard) best[record.workload] = &record;
  std::vector<WorkloadSummary> summaries;
  for (const TuningWorkload& workload : workloads) {
    WorkloadSummary summary;
    summary.workload = &workload;
    const std::string defaults = lowering::scheduleToString(workload.candidates.front());
    for (const tuning::TuningRecord& record : onBoard) {
      if (record.cost && record.workload == workload.key &&
          lowering::scheduleToString(record.knobs) == defaults) {
        summary.defaultCost = *record.cost;
      }
    }
    if (const auto it = best.find(workload.key); it != best.end()) {
      summary.bestCost = it->second->cost;
      summary.best = it->second->knobs;
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

std::optional<lowering::Schedule> combinedBestSchedule(
    const TuningWorkload& workload, const std::vector<tuning::TuningRecord>& records,
    const std::string& board) {
  const lowering::Schedule base = workload.candidates.front();
  std::map<std::string, std::pair<std::string, double>> bestPerKnob;  // knob -> choice, cost
  std::optional<double> defaultCost;
  for (const tuning::TuningRecord& record : records) {
    if (record.board != board || record.workload != workload.key || !record.cost) continue;
    std::vector<std::string> changed;
    for (const auto& [knob, choice] : base) {
      const auto it = record.knobs.find(knob);
      if (it != record.knobs.end() && it->second != choice) changed.push_back(knob);
    }
    if (changed.empty()) {
      defaultCost = defaultCost ? std::min(*defaultCost, *record.cost) : *record.cost;
    } else if (changed.size() == 1) {
      auto [it, added] =
          bestPerKnob.try_emplace(changed[0], record.knobs.at(changed[0]), *record.cost);
      if (!added && *record.cost < it->second.second) {
        it->second = {record.knobs.at(changed[0]), *record.cost};
      }
    }
  }
  if (!defaultCost) return std::nullopt;
  lowering::Schedule combined = base;
  int changes = 0;
  for (const auto& [knob, best] : bestPerKnob) {
    if (best.second < *defaultCost) {
      combined[knob] = best.first;
      ++changes;
    }
  }
  if (changes < 2) return std::nullopt;
  return combined;
}

std::vector<Bytes> fixedTuningInputs(const ir::Graph& model) {
  std::mt19937 random(20261125);
  std::vector<Bytes> inputs;
  for (int index : model.inputs) {
    Bytes bytes(static_cast<std::size_t>(model.tensor(index).byteSize()));
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random() & 0xFF);
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

namespace {

// One trial: a candidate index per workload, and the workloads whose
// candidate it measures for the first time on this board.
struct Trial {
  std::vector<std::size_t> candidate;
  std::vector<std::size_t> fresh;
};

using MeasuredSet = std::set<std::pair<std::string, std::string>>;  // workload, schedule

// The first round: trial t gives every workload its t-th candidate (its
// default past the end), measuring what the log does not hold yet.
std::vector<Trial> firstRound(const std::vector<TuningWorkload>& workloads,
                              const MeasuredSet& measured) {
  std::size_t trialCount = 0;
  for (const TuningWorkload& workload : workloads) {
    trialCount = std::max(trialCount, workload.candidates.size());
  }
  std::vector<Trial> trials;
  for (std::size_t t = 0; t < trialCount; ++t) {
    Trial trial;
    for (std::size_t w = 0; w < workloads.size(); ++w) {
      const auto& candidates = workloads[w].candidates;
      trial.candidate.push_back(t < candidates.size() ? t : 0);
      if (t < candidates.size() &&
          !measured.contains({workloads[w].key, lowering::scheduleToString(candidates[t])})) {
        trial.fresh.push_back(w);
      }
    }
    if (!trial.fresh.empty()) trials.push_back(std::move(trial));
  }
  return trials;
}

}  // namespace

TuneResult tuneOnBoard(TuneRequest request) {
  if (!request.platform) throw std::invalid_argument("no platform to tune on");
  const Platform& platform = *request.platform;
  const std::vector<Bytes> expected = referenceOutputs(request.compile.model, request.inputs);
  request.compile.boardCpu = platform.cpu();
  request.compile.options.boardMemories = platform.memoryRegions(request.compile.model);
  const driver::Compilation baseline = driver::compileModel(request.compile);

  TuneResult result;
  result.workloads = findWorkloads(baseline, request.trials);
  auto& workloads = result.workloads;

  // What the log being resumed measured on this board is not measured again.
  MeasuredSet measured;
  std::vector<tuning::TuningRecord> known;  // on this board, the log's and this run's
  for (const tuning::TuningRecord& record : request.previous) {
    if (record.board == platform.name()) {
      measured.insert({record.workload, lowering::scheduleToString(record.knobs)});
      known.push_back(record);
    }
  }
  std::vector<Trial> trials = firstRound(workloads, measured);
  int trialsTotal = static_cast<int>(trials.size());
  if (request.progress) request.progress({0, trialsTotal, nullptr, &workloads});

  std::mutex mutex;  // guards result and progress calls
  std::atomic<bool> stopped{false};
  std::string defaultTrialError;
  const Clock::time_point start = Clock::now();
  const auto budgetLeft = [&] {
    if (request.timeBudgetSeconds <= 0) return true;
    return std::chrono::duration<double>(Clock::now() - start).count() < request.timeBudgetSeconds;
  };

  const auto runTrial = [&](const Trial& trial) {
    driver::CompileRequest compile = request.compile;
    for (std::size_t w = 0; w < workloads.size(); ++w) {
      compile.options.schedules[workloads[w].key] = workloads[w].candidates[trial.candidate[w]];
    }
    TrialOutcome outcome;
    try {
      const driver::Compilation compilation = driver::compileModel(std::move(compile));
      Deployment deployment(platform, compilation.model, request.deployment);
      const std::vector<Bytes> outputs = deployment.run(request.inputs);
      if (outputs != expected) {
        outcome.error = "outputs differ from the reference interpreter's";
      } else {
        outcome.profile = deployment.profile();
      }
    } catch (const DeployError& error) {
      if (error.kind() == DeployError::Kind::Cancelled) throw;
      outcome.error = error.what();
    } catch (const std::exception& error) {
      outcome.error = error.what();
    }
    return outcome;
  };

  // Runs `round` on `jobs` boards. Records go out in trial order whatever
  // order the boards finish in, so that a log (and which of equal costs
  // comes first in it) does not depend on --jobs.
  const auto runRound = [&](const std::vector<Trial>& round) {
    std::vector<std::optional<TrialOutcome>> outcomes(round.size());
    std::atomic<std::size_t> next{0};
    std::size_t emitted = 0;                     // trials [0, emitted) are in result
    const auto emitTrial = [&](std::size_t i) {  // with the mutex held
      const Trial& trial = round[i];
      const TrialOutcome& outcome = *outcomes[i];
      ++result.trialsRun;
      const bool defaults = std::all_of(trial.candidate.begin(), trial.candidate.end(),
                                        [](std::size_t c) { return c == 0; });
      if (defaults && !outcome.error.empty()) defaultTrialError = outcome.error;
      if (result.unit.empty()) result.unit = outcome.profile.unit;
      for (std::size_t w : trial.fresh) {
        result.records.push_back(measuredRecord(workloads[w],
                                                workloads[w].candidates[trial.candidate[w]],
                                                outcome, platform.name(), request.version));
        known.push_back(result.records.back());
        if (request.progress) {
          request.progress({result.trialsRun, trialsTotal, &result.records.back(), &workloads});
        }
      }
    };
    const auto worker = [&] {
      for (;;) {
        if (stopped || request.deployment.stop.stop_requested() || !budgetLeft()) return;
        const std::size_t i = next++;
        if (i >= round.size()) return;
        TrialOutcome outcome;
        try {
          outcome = runTrial(round[i]);
        } catch (const DeployError&) {  // cancelled: keep what was measured
          stopped = true;
          return;
        }
        std::lock_guard lock(mutex);
        outcomes[i] = std::move(outcome);
        for (; emitted < round.size() && outcomes[emitted]; ++emitted) emitTrial(emitted);
      }
    };
    const int jobs = std::clamp(request.jobs, 1, std::max(1, static_cast<int>(round.size())));
    std::vector<std::jthread> threads;
    for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
    worker();
    threads.clear();  // joins
    // Trials that finished behind one that never ran (a stop, the budget).
    for (std::size_t i = emitted; i < round.size(); ++i) {
      if (outcomes[i]) emitTrial(i);
    }
  };

  // The knobs act on different things (which kernel, how far the compiler
  // unrolls, how many pixels or which window kernel), so one knob's best
  // choice hardly depends on the others': the first round changes one knob
  // at a time (1 + the sum of the knobs' other choices, not their product,
  // trials), the second measures each workload's per-knob bests together,
  // one trial for all of them.
  runRound(trials);
  const bool interrupted = result.trialsRun < trialsTotal;
  if (!interrupted && defaultTrialError.empty()) {
    Trial combined;
    for (std::size_t w = 0; w < workloads.size(); ++w) {
      const auto schedule = combinedBestSchedule(workloads[w], known, platform.name());
      if (schedule &&
          !measured.contains({workloads[w].key, lowering::scheduleToString(*schedule)})) {
        workloads[w].candidates.push_back(*schedule);
        combined.candidate.push_back(workloads[w].candidates.size() - 1);
        combined.fresh.push_back(w);
      } else {
        combined.candidate.push_back(0);
      }
    }
    if (!combined.fresh.empty()) {
      ++trialsTotal;
      if (request.progress) request.progress({result.trialsRun, trialsTotal, nullptr, &workloads});
      runRound({combined});
    }
  }
  result.trialsSkipped = trialsTotal - result.trialsRun;
  if (!defaultTrialError.empty()) {
    throw DeployError(DeployError::Kind::RunFailed,
                      "the model with its default schedules fails on " + platform.name() + ": " +
                          defaultTrialError);
  }
  return result;
}

}  // namespace loupe::deploy
