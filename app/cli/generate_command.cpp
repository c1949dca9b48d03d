// loupec generate: writes a platform's firmware project for a model into a
// folder the user keeps, builds and flashes by hand (rfcs/003's `generate`).
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/memory_options.h"
#include "cli/target_options.h"
#include "cli/tuning_options.h"
#include "deploy/firmware_build.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"

namespace loupe::cli {

const char* const kGenerateUsage =
    "  loupec generate MODEL --platform NAME --output DIR [--model-name NAME] [--planner NAME]\n"
    "                  [--pools SPEC] [--target \"ethos-u, c\"] [--overlap-outputs]\n"
    "                  [--patches] [--plain-plan] [--tuning-log LOG | --no-tuning-log]\n"
    "      writes the platform's firmware project for the model to DIR (a new or empty folder):\n"
    "      the generated model, Loupe's C runtime, the board's start-up code and RPC main, and\n"
    "      a Makefile; `make -C DIR` builds it. --target partitions as for compile: the Ethos-U's\n"
    "      operators run on Loupe's functional model of the NPU. Schedules as for compile: the\n"
    "      bundled tuning logs' for the board, --tuning-log LOG's (loupec tune's best) instead,\n"
    "      or --no-tuning-log for the defaults. The board's plan has overlapped outputs, and a\n"
    "      model that does not fit with them gets the first plan that fits, as run does\n"
    "      (--plain-plan plans without savings and refuses instead)";

int runGenerateCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  namespace fs = std::filesystem;
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"--platform", OptionSpec::Kind::Value},
                             {"--output", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value},
                             targetOptionSpec()});
  const auto tuningSpecs = tuningLogOptionSpecs();
  specs.insert(specs.end(), tuningSpecs.begin(), tuningSpecs.end());
  const auto parsed = parseArguments(args, specs);
  if (parsed.positional.size() != 1) throw UsageError("generate needs exactly one MODEL file");
  const auto platformName = parsed.value("--platform");
  if (!platformName) throw UsageError("generate needs --platform NAME (see loupec platforms)");
  const auto output = parsed.value("--output");
  if (!output) throw UsageError("generate needs --output DIR");
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  // Never write over a folder the user already has things in.
  if (fs::exists(*output) && (!fs::is_directory(*output) || !fs::is_empty(*output))) {
    throw std::runtime_error(*output +
                             " already exists and is not an empty folder; choose a new one");
  }
  const auto platform = registries.platforms.find(*platformName);
  if (!platform->buildsFirmware()) {
    throw UsageError("platform " + platform->name() +
                     " runs firmware flashed by hand; generate the project for the board's own "
                     "platform instead");
  }
  codegen::CompileOptions options;
  options.modelName = parsed.value("--model-name").value_or("default");
  options.memory = memoryOptionsFrom(parsed);
  const ScheduleChoice schedules = scheduleChoiceFrom(parsed, platform->name());
  ir::Graph model = frontend::importTfliteFile(parsed.positional[0]);
  options.boardMemories = platform->memoryRegions(model);
  driver::CompileRequest request{std::move(model), targets, std::move(options), platform->cpu()};
  request.fitToMemories = fitToMemoriesFrom(parsed);
  applyScheduleChoice(schedules, request);
  const driver::Compilation compilation = driver::compileModel(std::move(request));
  if (const std::string fit = compilation.fit.summary(compilation.model); !fit.empty()) {
    std::cout << fit << "\n";
  }
  const auto files = platform->projectFiles(compilation.model);
  deploy::writeProject(files, *output);
  std::cout << "wrote the " << platform->name() << " project for " << compilation.graph.name
            << " (targets " << target::targetListString(targets) << ", " << files.size()
            << " files) to " << *output << "\n"
            << "build it with: make -C " << *output << "  (produces " << *output << "/"
            << platform->firmwarePath() << ")\n";
  if (const std::string coverage = tuningCoverage(schedules, compilation); !coverage.empty()) {
    std::cout << coverage << "\n";
  }
  return 0;
}

}  // namespace loupe::cli
