// loupec tune: measures candidate schedules of a model's operators on a
// board and appends tuning records to a log (deploy/auto_tuner.h), then
// prints each workload's default and best cost.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/input_files.h"
#include "cli/memory_options.h"
#include "cli/target_options.h"
#include "deploy/auto_tuner.h"
#include "deploy/deploy_error.h"
#include "frontend/tflite_importer.h"
#include "loupe_version.h"

namespace loupe::cli {

const char* const kTuneUsage =
    "  loupec tune MODEL --platform NAME -o LOG.json [--inputs IN0.bin ...] [--trials N]\n"
    "              [--jobs J] [--time-budget SECONDS] [--target T] [--model-name NAME]\n"
    "              [--planner NAME] [--pools SPEC]\n"
    "      measures candidate schedules (kernel, unroll, channels, pixels, window) of every\n"
    "      distinct operator workload on the platform's board, one knob at a time and then\n"
    "      each workload's per-knob bests together, in the board's unit (instructions under\n"
    "      QEMU), and appends one tuning record per measurement to LOG (JSON lines). An\n"
    "      existing LOG is resumed: what it measured on this board is not measured again;\n"
    "      Ctrl-C keeps every record written. --trials: at most N first-round schedules per\n"
    "      workload (default: all); --jobs: J boards at once (default 1); --time-budget: no\n"
    "      trial starts after SECONDS. Without --inputs, seeded random inputs. compile, run\n"
    "      and generate --tuning-log LOG apply the best\n"
    "      schedule per workload";

namespace {

namespace fs = std::filesystem;

int positiveNumber(const ParsedArguments& parsed, const std::string& option, int fallback) {
  const auto text = parsed.value(option);
  if (!text) return fallback;
  try {
    std::size_t used = 0;
    const int value = std::stoi(*text, &used);
    if (used == text->size() && value > 0) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(option + " needs a positive whole number, not '" + *text + "'");
}

std::string costText(double cost) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", cost);
  return text;
}

// Each workload's default and best cost over every record of the log.
void printSummary(const deploy::TuneResult& result,
                  const std::vector<tuning::TuningRecord>& records, const std::string& board) {
  double modelDefault = 0, modelBest = 0;
  bool complete = true;
  std::cout << "\n| workload | calls | default | best | schedule | speed-up |\n"
               "| --- | --- | --- | --- | --- | --- |\n";
  for (const deploy::WorkloadSummary& summary :
       deploy::summarizeTuning(result.workloads, records, board)) {
    const std::optional<double>& defaultCost = summary.defaultCost;
    const std::optional<double>& bestCost = summary.bestCost;
    const int calls = static_cast<int>(summary.workload->operators.size());
    std::cout << "| " << summary.workload->key << " | " << calls << " | "
              << (defaultCost ? costText(*defaultCost) : "-") << " | "
              << (bestCost ? costText(*bestCost) : "-") << " | "
              << (bestCost ? lowering::scheduleToString(summary.best) : "-") << " | ";
    if (defaultCost && bestCost && *bestCost > 0) {
      char ratio[16];
      std::snprintf(ratio, sizeof ratio, "%.2fx", *defaultCost / *bestCost);
      std::cout << ratio;
      modelDefault += *defaultCost * calls;
      modelBest += *bestCost * calls;
    } else {
      std::cout << "-";
      complete = false;
    }
    std::cout << " |\n";
  }
  if (complete && modelBest > 0) {
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2fx", modelDefault / modelBest);
    std::cout << "operators in all: " << costText(modelDefault) << " -> " << costText(modelBest)
              << " " << result.unit << " (" << ratio << ")\n";
  }
}

}  // namespace

int runTuneCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"--platform", OptionSpec::Kind::Value},
                             {"-o", OptionSpec::Kind::Value},
                             {"--inputs", OptionSpec::Kind::List},
                             {"--trials", OptionSpec::Kind::Value},
                             {"--jobs", OptionSpec::Kind::Value},
                             {"--time-budget", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value},
                             targetOptionSpec()});
  const auto parsed = parseArguments(args, specs);
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  if (parsed.positional.size() != 1) throw UsageError("tune needs exactly one MODEL file");
  const auto platformName = parsed.value("--platform");
  if (!platformName) throw UsageError("tune needs --platform NAME (see loupec platforms)");
  const auto logPath = parsed.value("-o");
  if (!logPath) throw UsageError("tune needs -o LOG.json");
  const int trials = positiveNumber(parsed, "--trials", 0);
  const int jobs = positiveNumber(parsed, "--jobs", 1);
  const int budget = positiveNumber(parsed, "--time-budget", 0);

  std::shared_ptr<const deploy::Platform> platform;
  try {
    platform = registries.platforms.find(*platformName);
  } catch (const deploy::DeployError& error) {
    throw UsageError(error.what());
  }
  if (!platform->buildsFirmware()) {
    throw UsageError("tune builds a firmware per trial; platform " + platform->name() +
                     " runs one flashed by "
                     "hand");
  }
  std::vector<tuning::TuningRecord> previous;
  if (fs::exists(*logPath)) previous = tuning::readTuningLogFile(*logPath);
  std::ofstream log(*logPath, std::ios::app | std::ios::binary);
  if (!log) throw std::runtime_error("cannot open " + *logPath + " to append tuning records");

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  deploy::TuneRequest request;
  request.platform = platform;
  const std::vector<std::string> inputFiles = parsed.list("--inputs");
  request.inputs =
      inputFiles.empty() ? deploy::fixedTuningInputs(graph) : readInputs(graph, inputFiles);
  request.compile = {graph, targets, {}, {}};
  request.compile.options.modelName = parsed.value("--model-name").value_or("default");
  request.compile.options.memory = memoryOptionsFrom(parsed);
  request.compile.fitToMemories = fitToMemoriesFrom(parsed);
  request.trials = trials;
  request.jobs = jobs;
  request.timeBudgetSeconds = budget;
  request.previous = previous;
  request.version = LOUPE_VERSION;
  int written = 0;
  request.progress = [&](const deploy::TuningProgress& progress) {
    if (!progress.record) return;  // the workloads are known; no trial has run yet
    const tuning::TuningRecord& record = *progress.record;
    // Written and flushed at once: an interrupted tuning keeps it.
    log << tuning::tuningRecordLine(record) << "\n" << std::flush;
    ++written;
    std::cout << "[trial " << progress.trialsDone << "/" << progress.trialsTotal << "] "
              << record.op << " " << lowering::scheduleToString(record.knobs) << ": "
              << (record.cost ? costText(*record.cost) + " " + record.unit
                              : "failed: " + record.error)
              << std::endl;
  };
  std::cout << "tuning " << graph.name << " on " << platform->name()
            << (previous.empty() ? "" : " (resuming " + *logPath + ")") << std::endl;
  const deploy::TuneResult result = deploy::tuneOnBoard(std::move(request));
  if (!log) throw std::runtime_error("cannot write tuning records to " + *logPath);

  std::vector<tuning::TuningRecord> all = previous;
  all.insert(all.end(), result.records.begin(), result.records.end());
  std::cout << result.trialsRun << " trial(s) run, " << written << " record(s) appended to "
            << *logPath;
  if (result.trialsSkipped > 0) {
    std::cout << "; " << result.trialsSkipped
              << " trial(s) not run (time budget; run tune again to resume)";
  }
  std::cout << "\n";
  printSummary(result, all, platform->name());
  return 0;
}

}  // namespace loupe::cli
