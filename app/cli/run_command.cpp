// loupec run: evaluates a model on given input files and writes its outputs
// (and optionally every tensor) as raw little-endian files, the format of the
// golden data.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/board_run_options.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/input_files.h"
#include "cli/output_folder.h"
#include "cli/profile_table.h"
#include "cli/target_options.h"
#include "cli/tensor_dump.h"
#include "cli/tuning_options.h"
#include "deploy/board_tensor_check.h"
#include "deploy/run_on_board.h"
#include "deploy/run_profile.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"

namespace loupe::cli {

const char* const kRunUsage =
    "  loupec run MODEL [--platform NAME] --inputs IN0.bin [IN1.bin ...] --output-dir DIR\n"
    "             [--port TTY] [--baud N] [--option NAME=VALUE ...] [--profile FILE.json]\n"
    "             [--dump-tensors DIR]\n"
    "             [--model-name NAME] [--planner NAME] [--pools SPEC] [--target T]\n"
    "             [--overlap-outputs] [--patches] [--plain-plan]\n"
    "             [--tuning-log LOG | --no-tuning-log]\n"
    "      runs the model on raw little-endian input files and writes output<i>.bin to DIR.\n"
    "      --dump-tensors DIR writes every non-constant tensor as t<index>.bin plus index.json\n"
    "        (the format of TFLite Micro's golden dumps): on a board, a debug build sends each\n"
    "        tensor back over the session as soon as its operator wrote it (no second copy of\n"
    "        the workspace on the board); one it never holds whole (inside an Ethos-U\n"
    "        operator, a patch) is listed with file null and where it is.\n"
    "      reference (the default): Loupe's reference interpreter.\n"
    "      host, qemu-mps2-an385 (and -an386, -an500, -an505), qemu-mps3-an547 (see loupec\n"
    "        platforms): compiles the model to C with the kernels of the board's CPU\n"
    "        (unless --target \"c -mcpu=...\" names one), generates and builds the\n"
    "        platform's firmware (cached under ~/.cache/loupe), starts it, sends the inputs\n"
    "        over the RPC session, runs, receives the outputs and checks them against the\n"
    "        reference interpreter: integers byte for byte, float32 within 32 ulp per element\n"
    "        (\"agrees ... within 3 ulp (...)\" where not bit-exact; exit 3 if they differ).\n"
    "      serial: the same with a board flashed with the generated firmware, on --port at\n"
    "        --baud (default 115200).\n"
    "      nucleo-l4r5zi, stm32f746g-disco, nrf52840-dk (real boards): builds, flashes with\n"
    "        the board's programmer (--option programmer=openocd|st-flash|dfu-util\n"
    "        probe_serial=SN, see loupec platforms) and runs on --port at --baud.\n"
    "      --profile writes the per-operator profile as JSON, and as a Chrome trace next to it\n"
    "        (FILE.trace.json), and prints it: each call's time, MACs, MACs per instruction and\n"
    "        % of the core's int8 peak (M3 1, M4/M7/M33 2, M55 16 MACs per instruction) on the\n"
    "        QEMU boards; --planner and --pools choose the memory plan as for memplan;\n"
    "        --target partitions as for compile: the firmware runs Ethos-U operators on Loupe's\n"
    "        functional model of the NPU, bit for bit what the NPU computes.\n"
    "      Schedules (on a platform, as for compile): the tuning logs bundled with Loupe give\n"
    "        every workload measured on the board its best schedule; --tuning-log LOG applies\n"
    "        loupec tune's best schedules instead, --no-tuning-log the defaults; a line says\n"
    "        how many workloads were tuned.\n"
    "      Fit first: a board's plan has overlapped outputs (every board's default: they cost\n"
    "        no work); when the board's memories do not hold it, Loupe plans with patches too,\n"
    "        then patches alone, runs the first that fits and says which (\"[plan] fits with\n"
    "        ...\"); --overlap-outputs or --patches choose the plan, --plain-plan plans without\n"
    "        savings and refuses instead. A model no plan fits is refused with every plan's\n"
    "        shortfall and the smallest known board it fits";

// The usage text names the tolerance of reference_check.h.
static_assert(deploy::kMaxReferenceUlps == 32);

namespace {

namespace fs = std::filesystem;

void writeProfile(const deploy::RunProfile& profile, const std::string& modelName,
                  const fs::path& file) {
  std::ofstream(file) << deploy::runProfileJson(profile);
  fs::path trace = file;
  trace.replace_extension(".trace.json");
  std::ofstream(trace) << deploy::chromeTraceJson(profile, modelName);
  if (!fs::exists(file) || !fs::exists(trace)) {
    throw std::runtime_error("cannot write the profile to " + file.string());
  }
  std::cout << "profile written to " << file.string() << " and " << trace.string() << "\n";
}

// Compiles the model, deploys it to the platform, runs it over the RPC
// session and checks the outputs against the reference interpreter.
int runOnPlatform(const ir::Graph& graph, const ParsedArguments& parsed, const fs::path& outputDir,
                  const std::string& platformName, const deploy::PlatformRegistry& platforms,
                  const target::TargetList& targets) {
  const auto platform = platformNamed(platformName, platforms);
  // Before compiling, building and running: a folder that cannot be written
  // fails now, not after the run.
  const fs::path out = prepareOutputFolder(outputDir, "the output folder");
  std::optional<fs::path> dumpDir;
  if (const auto dump = parsed.value("--dump-tensors")) {
    dumpDir = prepareOutputFolder(*dump, "the tensor folder");
  }
  if (const auto file = parsed.value("--profile")) {
    prepareOutputFolder(fs::path(*file).parent_path(), "the profile's folder");
  }
  auto inputs = readInputs(graph, parsed.list("--inputs"));
  const ScheduleChoice schedules = scheduleChoiceFrom(parsed, platform->name());
  deploy::BoardRunRequest request =
      boardRunRequestFrom(parsed, platform, graph, targets, schedules);
  request.inputs = inputs;
  request.knownBoards = &platforms;
  // A debug build sends every tensor back as it is written.
  request.compile.options.debugTensors = dumpDir.has_value();
  request.progress = [](const std::string& stage, const std::string& detail) {
    std::cout << "[" << stage << "] " << detail << std::endl;
  };
  const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));

  for (std::size_t i = 0; i < run.outputs.size(); ++i) {
    writeBinaryFile(out / ("output" + std::to_string(i) + ".bin"), run.outputs[i]);
  }
  if (dumpDir) {
    std::cout << "tensors: " << writeBoardTensorDump(graph, run, inputs, *dumpDir) << " written to "
              << dumpDir->string() << "\n";
  }
  std::cout << "targets (" << target::targetListString(targets)
            << "): " << targetSummary(run.compilation.graph, targets) << "\n";
  if (const std::string coverage = tuningCoverage(schedules, run.compilation); !coverage.empty()) {
    std::cout << coverage << "\n";
  }
  std::cout << "ran " << graph.name << " on " << platform->name() << " (" << run.boardName
            << "): " << run.outputs.size() << " output(s) written to " << out.string() << "\n";
  // Where the plan put the model in the board's memories.
  const auto& memories = run.compilation.model.memories;
  for (std::size_t m = 0; m < memories.size(); ++m) {
    const codegen::MemoryUse& use = memories[m];
    std::cout << (m == 0 ? "memory: " : ", ") << use.region.name << " "
              << ir::groupDigits(use.workspaceBytes + use.constantBytes) << "/"
              << ir::groupDigits(use.region.capacity) << " (workspace "
              << ir::groupDigits(use.workspaceBytes) << ", constants "
              << ir::groupDigits(use.constantBytes) << ")"
              << (m + 1 == memories.size() ? "\n" : "");
  }
  // What the built firmware loads into each memory, measured from its map.
  if (run.footprint) {
    for (const std::string& line : deploy::footprintLines(*run.footprint)) {
      std::cout << "flash: " << line << "\n";
    }
  }
  const auto& profile = run.profile;
  std::cout << "time: " << static_cast<std::uint64_t>(profile.total) << " " << profile.unit
            << " in all, " << static_cast<std::uint64_t>(profile.operatorSum()) << " in "
            << profile.operators.size() << " operator calls\n";
  if (const auto file = parsed.value("--profile")) {
    printProfileTable(std::cout, profile, platform->cpu());
    writeProfile(profile, graph.name, *file);
  }

  // Every output that is not bit-exact: within the float32 tolerance, or
  // where it differs.
  for (const auto& check : run.checks) {
    if (!check.bitExact) std::cout << check.message << "\n";
  }
  if (const std::string verdict = deploy::referenceVerdict(run.checks); !verdict.empty()) {
    std::cout << verdict << "\n";
    return 0;
  }
  return 3;
}

}  // namespace

int runRunCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  auto specs = boardRunOptionSpecs();
  specs.insert(specs.end(), {{"--inputs", OptionSpec::Kind::List},
                             {"--output-dir", OptionSpec::Kind::Value},
                             {"--dump-tensors", OptionSpec::Kind::Value},
                             {"--profile", OptionSpec::Kind::Value}});
  const auto parsed = parseArguments(args, specs);
  // A wrong --target is a usage error whatever the platform.
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  if (parsed.positional.size() != 1) throw UsageError("run needs exactly one MODEL file");
  const std::string platform = parsed.value("--platform").value_or("reference");
  const auto outputDir = parsed.value("--output-dir");
  if (!outputDir) throw UsageError("run needs --output-dir DIR");

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  if (platform != "reference") {
    return runOnPlatform(graph, parsed, *outputDir, platform, registries.platforms, targets);
  }
  const fs::path out = prepareOutputFolder(*outputDir, "the output folder");
  std::optional<fs::path> dumpDir;
  if (const auto dump = parsed.value("--dump-tensors")) {
    dumpDir = prepareOutputFolder(*dump, "the tensor folder");
  }
  const auto inputs = readInputs(graph, parsed.list("--inputs"));
  const deploy::TensorBytes tensors = deploy::referenceTensors(graph, inputs);
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    writeBinaryFile(out / ("output" + std::to_string(i) + ".bin"), tensors.at(graph.outputs[i]));
  }
  if (dumpDir) {
    writeTensorDump(graph, tensors, *dumpDir, [](int) { return std::string(); });
  }
  std::cout << "ran " << graph.name << " on the reference interpreter: " << graph.outputs.size()
            << " output(s) written to " << out.string() << "\n";
  return 0;
}

}  // namespace loupe::cli
