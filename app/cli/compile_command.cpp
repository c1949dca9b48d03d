// loupec compile: a model to C, exported as a Model Library Format tar (the
// generated sources and header, the constants, every stage's printed IR, the
// memory plan and the C runtime), with a short report on stdout; or, with
// --format tflite, a model with Ethos-U regions as a .tflite in Vela's layout.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/board_run_options.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/device_report_printer.h"
#include "cli/memory_options.h"
#include "cli/target_options.h"
#include "cli/tuning_options.h"
#include "deploy/deploy_error.h"
#include "deploy/firmware_build.h"
#include "deploy/firmware_footprint.h"
#include "driver/compile_driver.h"
#include "ethosu/vela_layout_tflite.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "mlf/compiled_model_export.h"
#include "mlf/tar_archive.h"
#include "target/target.h"
#include "tir/tir_printer.h"

namespace loupe::cli {

const char* const kCompileUsage =
    "  loupec compile MODEL -o OUT.tar [--model-name NAME] [--workspace static|external]\n"
    "                 [--format mlf|tflite] [--planner NAME] [--pools SPEC]\n"
    "                 [--target \"ethos-u, c\"]\n"
    "                 [--overlap-outputs] [--patches] [--plain-plan] [--platform NAME]\n"
    "                 [--report] [--tuning-log LOG | --no-tuning-log]\n"
    "      compiles the model to C and writes a Model Library Format tar: "
    "codegen/host/{src,include}\n"
    "      (tvmgen_<NAME>.h, NAME defaults to 'default'), parameters/, the printed IR of every\n"
    "      stage in src/, the C runtime in runtime/ and metadata.json with the memory plan.\n"
    "      --workspace external: the application passes the workspace "
    "(TVMGEN_<NAME>_WORKSPACE_SIZE\n"
    "      bytes) instead of a static array in the generated code. --overlap-outputs: outputs\n"
    "      may start inside the inputs that die with them, as far as their loops allow\n"
    "      (loupec memplan --overlaps shows how far). --patches: the first high-resolution\n"
    "      operators run strip by strip when that lowers the bound (loupec memplan says which).\n"
    "      --platform NAME (a board, see loupec platforms): compiles for the board's CPU and\n"
    "      memories as run does, builds its firmware (cached) and prints the flash each memory\n"
    "      holds: model code, model constants, runtime, board support, C library; a board's\n"
    "      plan has overlapped outputs (every board's default: they cost no work), and a model\n"
    "      that does not fit with them is planned with patches too, then patches alone (the\n"
    "      first that fits is used and printed; --plain-plan plans without either and refuses\n"
    "      instead); one that fits no plan is told each plan's shortfall (exit 1).\n"
    "      --target: targets in priority order (default \"c\"); every operator goes to the\n"
    "      first that accepts it, and metadata.json's device_mapping records it. \"ethos-u\n"
    "      -accelerator_config=ethos-u55-32|64|128|256|ethos-u65-256|512\" (as tvmc names Arm's NPU):\n"
    "      each run of operators it takes becomes one Ethos-U operator, a real command stream\n"
    "      with its weights (mlw) and scratch, run through ethosu_invoke_v3.\n"
    "      -system_config=internal-default|nxp-imx93 (Vela's --system-config: Arm's default,\n"
    "      or NXP's i.MX93) says which memories the estimates assume and which weights are\n"
    "      worth copying into the scratch by DMA before their operation.\n"
    "      Prints each device's operators, MACs and estimated cycles (metadata.json has them\n"
    "      too); --report adds every operator's estimate (compute, memory and estimated\n"
    "      cycles, utilisation, encoded weights) and the Ethos-U's cycles in each configuration.\n"
    "      Schedules: with --platform, the tuning logs bundled with Loupe (share/loupe/tuning)\n"
    "      give every workload measured on that board its best schedule, any model's operators\n"
    "      that match one (those that do not fit are left out); --tuning-log LOG uses the best\n"
    "      schedule per workload of loupec tune's LOG instead, --no-tuning-log the default\n"
    "      schedules. A line says how many of the model's workloads were tuned.\n"
    "      --format tflite -o OUT.tflite (with an ethos-u target): the model as Vela writes it\n"
    "      instead: each run of operators the Ethos-U takes becomes one custom operator\n"
    "      'ethos-u' (inputs: the driver payload with the command stream, the encoded weights,\n"
    "      the scratch and fast scratch, then the feature maps), the metadata\n"
    "      OfflineMemoryAllocation places the feature maps in the scratch where the command\n"
    "      stream addresses them, and the CPU's operators stay the model's own TFLite operators;\n"
    "      TFLite Micro with Arm's driver runs it, and loupec info, run and validate open it.\n"
    "      It needs an ethos-u target that takes at least one operator and takes none of the C\n"
    "      code's options (--model-name, --workspace, the memory plan's, --platform,\n"
    "      --tuning-log, --no-tuning-log, --report). --format mlf, the Model Library Format tar,\n"
    "      is the default";

namespace {

// --format tflite: the graph passes and partitioning only (no C), then the
// file in Vela's layout, reopened before it replaces OUT so that a file
// Loupe could not read back is never left behind.
int compileToTflite(const ParsedArguments& parsed, const std::string& output,
                    const deploy::Registries& registries) {
  for (const char* option :
       {"--model-name", "--workspace", "--platform", "--tuning-log", "--no-tuning-log", "--report",
        "--planner", "--pools", "--overlap-outputs", "--patches", "--plain-plan"}) {
    if (parsed.has(option)) {
      throw UsageError(std::string(option) +
                       " is an option of the C code; --format tflite writes TFLite operators, "
                       "which TFLite Micro plans and runs");
    }
  }
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  const bool hasRegionCompiler = std::any_of(targets.begin(), targets.end(), [](const auto& t) {
    return t->regionOperatorCompiler().has_value();
  });
  if (!hasRegionCompiler) {
    throw UsageError(
        "--format tflite writes Ethos-U operators; name the NPU in --target, e.g. "
        "--target \"ethos-u -accelerator_config=ethos-u55-128, c\"");
  }
  mlf::checkArchiveTarget(output);
  const std::filesystem::path modelPath = parsed.positional[0];
  const std::vector<std::uint8_t> source = frontend::readTfliteFile(modelPath);
  driver::PartitionedModel partitioned =
      driver::partitionModel(frontend::importTfliteFile(modelPath, source), targets);
  ethosu::VelaLayoutTflite file;
  try {
    file = ethosu::velaLayoutTflite(source, partitioned.graph);
  } catch (const ethosu::VelaLayoutError& error) {
    throw UsageError("--format tflite: " + std::string(error.what()));
  }
  try {
    frontend::importTflite(file.bytes);
  } catch (const frontend::ImportError& error) {
    throw std::logic_error("the TFLite file Loupe wrote does not import: " +
                           std::string(error.what()));
  }
  mlf::writeFileAtomically(output, file.bytes);
  std::cout << "compiled " << partitioned.graph.name
            << " to TFLite in Vela's layout: " << file.npuOperators
            << " ethos-u operator(s) (payload " << ir::groupDigits(file.payloadBytes)
            << " bytes, flash " << ir::groupDigits(file.flashBytes) << " bytes, scratch "
            << ir::groupDigits(file.scratchBytes) << " bytes), " << file.cpuOperators
            << " TFLite operator(s) for the CPU; "
            << ir::groupDigits(static_cast<std::int64_t>(file.bytes.size()))
            << " bytes (the model: " << ir::groupDigits(static_cast<std::int64_t>(source.size()))
            << ")\ntargets (" << target::targetListString(targets)
            << "): " << targetSummary(partitioned.graph, targets) << "\nwrote " << output << "\n";
  return 0;
}

}  // namespace

int runCompileCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"-o", OptionSpec::Kind::Value},
                             {"--format", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value},
                             {"--workspace", OptionSpec::Kind::Value},
                             {"--report", OptionSpec::Kind::Flag},
                             {"--platform", OptionSpec::Kind::Value},
                             targetOptionSpec()});
  const auto tuningSpecs = tuningLogOptionSpecs();
  specs.insert(specs.end(), tuningSpecs.begin(), tuningSpecs.end());
  const auto parsed = parseArguments(args, specs);
  if (parsed.positional.size() != 1) throw UsageError("compile needs exactly one MODEL file");
  const auto output = parsed.value("-o");
  const std::string format = parsed.value("--format").value_or("mlf");
  if (format != "mlf" && format != "tflite") {
    throw UsageError(
        "--format must be 'mlf' (a Model Library Format tar) or 'tflite' "
        "(Vela's layout), not '" +
        format + "'");
  }
  if (!output) {
    throw UsageError(format == "tflite" ? "compile needs -o OUT.tflite"
                                        : "compile needs -o OUT.tar");
  }
  if (format == "tflite") return compileToTflite(parsed, *output, registries);
  codegen::CompileOptions options;
  options.modelName = parsed.value("--model-name").value_or("default");
  if (!codegen::isValidModelName(options.modelName)) {
    throw UsageError("--model-name '" + options.modelName + "' must be " +
                     codegen::modelNameRule());
  }
  const std::string workspace = parsed.value("--workspace").value_or("static");
  if (workspace != "static" && workspace != "external") {
    throw UsageError("--workspace must be 'static' or 'external', not '" + workspace + "'");
  }
  options.externalWorkspace = workspace == "external";
  // The operator functions' C is printed straight into the archive, file by
  // file and a piece at a time, instead of held whole (a large model's weights
  // as C text are several times the model).
  options.printOperatorSources = false;
  options.memory = memoryOptionsFrom(parsed);
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  // A board: its firmware is built to measure the flash the model takes.
  std::shared_ptr<const deploy::Platform> platform;
  if (const auto name = parsed.value("--platform")) {
    platform = platformNamed(*name, registries.platforms);
    if (!platform->buildsFirmware() || platform->cpu().empty()) {
      throw UsageError("--platform measures a board's flash; " + platform->name() +
                       (platform->cpu().empty() ? " builds no board image"
                                                : " runs firmware flashed by hand (name the "
                                                  "board's own platform)"));
    }
    // The firmware is built from the operators' C, so it is printed whole.
    options.printOperatorSources = true;
  }
  // Before the compilation, which can take long: a device, FIFO or folder
  // given as -o, or a folder that cannot be written, fails now.
  mlf::checkArchiveTarget(*output);

  // Without a board the code is portable and gets default schedules (the
  // bundled logs are measured on boards); --tuning-log applies anyway.
  const ScheduleChoice schedules =
      scheduleChoiceFrom(parsed, platform ? platform->name() : std::string());
  driver::CompileRequest request{
      frontend::importTfliteFile(parsed.positional[0]), targets, std::move(options), {}};
  applyScheduleChoice(schedules, request);
  if (platform) {
    request.boardCpu = platform->cpu();
    request.options.boardMemories = platform->memoryRegions(request.model);
    request.fitToMemories = fitToMemoriesFrom(parsed);
  }
  driver::Compilation compilation = driver::compileModel(std::move(request));
  if (const std::string fit = compilation.fit.summary(compilation.model); !fit.empty()) {
    std::cout << fit << "\n";
  }
  const ir::Graph& graph = compilation.graph;
  codegen::CompiledModel& model = compilation.model;
  // Built before the sources move into the archive.
  std::vector<std::string> flash;
  if (platform) {
    const deploy::FirmwareBuild build = deploy::buildFirmware(*platform, model);
    if (const auto footprint = deploy::measureFirmware(build.firmware, "arm-none-eabi-objdump")) {
      flash = deploy::footprintLines(*footprint);
    } else {
      throw std::runtime_error(platform->name() + "'s firmware has no link map to measure");
    }
  }
  std::vector<mlf::StageFile> stages;
  int number = 0;
  for (const passes::Stage& stage : compilation.timeline.stages()) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%02d_", number++);
    stages.emplace_back(prefix + stage.name + ".graph.txt", stage.text);
  }
  for (const tir::PrimFunc& f : model.functions) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%02d_", number);
    stages.emplace_back(prefix + std::string("tir/") + f.name + ".tir.txt", tir::printPrimFunc(f));
  }
  // The generated C moves into the archive (a large model's is not held twice);
  // the operator functions' is printed as the archive is written.
  mlf::MlfContents contents = mlf::takeMlfContents(model, stages);
  contents.target = target::targetListString(targets);
  const std::string targetString = contents.target;
  const target::DeviceReport& devices = compilation.devices;
  addDeviceReport(contents.deviceMapping, devices);
  mlf::writeModelLibraryFormat(*output, std::move(contents));
  const memory::MemoryPlan& plan = model.memoryPlan;
  std::cout << "compiled " << graph.name << " as '" << model.modelName
            << "': " << model.functions.size() << " operator function(s), workspace "
            << ir::groupDigits(model.workspaceBytes()) << " bytes"
            << (model.externalWorkspace ? " (external)" : "") << " planned by " << plan.planner
            << " (lower bound " << ir::groupDigits(plan.lowerBound)
            << (plan.overlaps.empty() ? ""
                                      : " with outputs over their dying inputs, tensor-level " +
                                            ir::groupDigits(plan.tensorLevelBound))
            << ", gap " << ir::groupDigits(plan.gap()) << ")\ntargets (" << targetString
            << "): " << targetSummary(graph, targets) << "\n";
  printDeviceTotals(std::cout, devices);
  for (const std::string& line : flash) {
    std::cout << "flash on " << platform->name() << ": " << line << "\n";
  }
  if (const std::string coverage = tuningCoverage(schedules, compilation); !coverage.empty()) {
    std::cout << coverage << "\n";
  }
  if (parsed.has("--report")) {
    printOperatorEstimates(std::cout, graph, devices, targets, registries.targets);
  }
  std::cout << "wrote " << *output << "\n";
  return 0;
}

}  // namespace loupe::cli
