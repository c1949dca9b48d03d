// loupec generate: writes a platform's firmware project for a model into a
// folder the user keeps, builds and flashes by hand (rfcs/003's `generate`).
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/memory_options.h"
#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "platforms/builtin_platforms.h"
#include "project/firmware_build.h"

namespace loupe::cli {

const char* const kGenerateUsage =
    "  loupec generate MODEL --platform NAME --output DIR [--model-name NAME] [--planner NAME]\n"
    "                  [--pools SPEC]\n"
    "      writes the platform's firmware project for the model to DIR (a new or empty folder):\n"
    "      the generated model, Loupe's C runtime, the board's start-up code and RPC main, and\n"
    "      a Makefile; `make -C DIR` builds it";

int runGenerateCommand(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"--platform", OptionSpec::Kind::Value},
                             {"--output", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value}});
  const auto parsed = parseArguments(args, specs);
  if (parsed.positional.size() != 1) throw UsageError("generate needs exactly one MODEL file");
  const auto platformName = parsed.value("--platform");
  if (!platformName) throw UsageError("generate needs --platform NAME (see loupec platforms)");
  const auto output = parsed.value("--output");
  if (!output) throw UsageError("generate needs --output DIR");
  // Never write over a folder the user already has things in.
  if (fs::exists(*output) && (!fs::is_directory(*output) || !fs::is_empty(*output))) {
    throw std::runtime_error(*output +
                             " already exists and is not an empty folder; choose a new one");
  }
  const auto registry = platforms::builtinPlatformRegistry();
  const auto platform = registry.find(*platformName);
  if (!platform->buildsFirmware()) {
    throw UsageError("platform " + platform->name() +
                     " runs firmware flashed by hand; generate the project for the board's own "
                     "platform instead");
  }
  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  codegen::CompileOptions options;
  options.modelName = parsed.value("--model-name").value_or("default");
  options.memory = memoryOptionsFrom(parsed);
  passes::StageTimeline timeline;
  const codegen::CompiledModel model =
      codegen::compileToC(passes::runGraphPipeline(graph, timeline), options);
  const auto files = platform->projectFiles(model);
  project::writeProject(files, *output);
  std::cout << "wrote the " << platform->name() << " project for " << graph.name << " ("
            << files.size() << " files) to " << *output << "\n"
            << "build it with: make -C " << *output << "  (produces " << *output << "/"
            << platform->firmwarePath() << ")\n";
  return 0;
}

}  // namespace loupe::cli
