// loupec debug: the host-driven look inside a board (rfcs/003's debug
// executor, done as a debug build that sends each tensor as it is written):
// runs the model on a platform with every tensor read back, compares each
// with the reference interpreter's or a golden set's dump, prints TVM's
// debug table and the first operator whose output differs.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/board_run_options.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/input_files.h"
#include "cli/output_folder.h"
#include "cli/target_options.h"
#include "cli/tensor_dump.h"
#include "cli/tuning_options.h"
#include "deploy/board_tensor_check.h"
#include "deploy/reference_check.h"
#include "deploy/run_on_board.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"

namespace loupe::cli {

const char* const kDebugUsage =
    "  loupec debug MODEL --platform NAME [--inputs IN0.bin ...] [--golden DIR]\n"
    "               [--dump-tensors DIR] [--corrupt-operator K] [options of run]\n"
    "      runs a debug build of the model on the platform (host, a QEMU board, serial or a\n"
    "      real board): after each operator the board sends every tensor it wrote over the\n"
    "      session, before the memory plan reuses its bytes, so nothing beyond the plain\n"
    "      build's memory is needed. Each is compared with the reference interpreter's tensor\n"
    "      (integers byte for byte, float32 within 32 ulp) or, with --golden DIR (a golden set\n"
    "      such as models/kws_ref_model/golden/real1, or its tensors/ folder), with TFLite\n"
    "      Micro's dump (float32 within 4 ulp); the inputs default to the set's. Prints one\n"
    "      row per operator as it ran: node, type, time (the platform's unit, without the\n"
    "      time spent sending tensors), % of the run, output shape and agreement (exact, or\n"
    "      the count of differing elements and the max abs difference in real units), then\n"
    "      the first operator whose output differs and how its inputs agree. Exit 1 when a\n"
    "      tensor differs. --dump-tensors DIR also writes the board's tensors as run does.\n"
    "      --corrupt-operator K (tests and demos): the board's model gets one byte of\n"
    "      operator K's weights changed, the reference does not";

namespace {

namespace fs = std::filesystem;

std::string shapeText(const ir::Shape& shape) {
  std::string text;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : "x") + std::to_string(shape[i]);
  }
  return text.empty() ? "scalar" : text;
}

// "exact", "differs: 3 of 640 elements, max abs difference 0.0078", one
// verdict for all of an operator's outputs.
std::string agreementText(const deploy::DebugOperatorRow& row) {
  for (const deploy::TensorAgreement& a : row.outputs) {
    if (a.verdict == deploy::TensorVerdict::Differs) {
      return "differs: " +
             (row.outputs.size() > 1 ? "tensor " + std::to_string(a.tensor) + ", "
                                     : std::string()) +
             a.detail;
    }
  }
  for (const deploy::TensorAgreement& a : row.outputs) {
    if (a.verdict == deploy::TensorVerdict::Within) return "within tolerance: " + a.detail;
  }
  for (const deploy::TensorAgreement& a : row.outputs) {
    if (a.verdict == deploy::TensorVerdict::NoExpected) return "nothing to compare";
  }
  return row.outputs.empty() ? "(no model tensor)" : "exact";
}

// TVM's debug table: node, type, time, %, shape, agreement; columns as wide
// as their longest entry.
void printTable(const deploy::DebugComparison& c) {
  const std::string timeHeader = "time (" + c.unit + ")";
  std::size_t nodeWidth = 16, typeWidth = 4, timeWidth = timeHeader.size(), shapeWidth = 5;
  std::vector<std::array<std::string, 4>> cells;  // node, time, percent, shape
  for (const deploy::DebugOperatorRow& row : c.rows) {
    std::string time = "-", percent = "-";
    if (row.time) {
      time = ir::groupDigits(static_cast<std::int64_t>(*row.time));
      char text[16];
      std::snprintf(text, sizeof text, "%.1f", c.total > 0 ? 100.0 * *row.time / c.total : 0.0);
      percent = text;
    }
    cells.push_back(
        {std::to_string(row.operatorIndex) + " " + row.name, time, percent, shapeText(row.shape)});
    nodeWidth = std::max(nodeWidth, cells.back()[0].size());
    typeWidth = std::max(typeWidth, row.type.size());
    timeWidth = std::max(timeWidth, time.size());
    shapeWidth = std::max(shapeWidth, cells.back()[3].size());
  }
  std::cout << std::left << std::setw(static_cast<int>(nodeWidth + 2)) << "node (model ops)"
            << std::setw(static_cast<int>(typeWidth + 2)) << "type" << std::right
            << std::setw(static_cast<int>(timeWidth)) << timeHeader << std::setw(8) << "%"
            << "  " << std::left << std::setw(static_cast<int>(shapeWidth + 2)) << "shape"
            << "agreement\n";
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    const auto& cell = cells[r];
    std::cout << std::left << std::setw(static_cast<int>(nodeWidth + 2)) << cell[0]
              << std::setw(static_cast<int>(typeWidth + 2)) << c.rows[r].type << std::right
              << std::setw(static_cast<int>(timeWidth)) << cell[1] << std::setw(8) << cell[2]
              << "  " << std::left << std::setw(static_cast<int>(shapeWidth + 2)) << cell[3]
              << agreementText(c.rows[r]) << "\n";
  }
}

// "tensors 22, 23, 31: inside CUSTOM(ethos-u) #0-11", one line per place.
void printNotOnBoard(const deploy::DebugComparison& c) {
  std::vector<std::pair<std::string, std::vector<int>>> places;
  for (const deploy::TensorAgreement& a : c.notOnBoard) {
    auto at = std::find_if(places.begin(), places.end(),
                           [&](const auto& place) { return place.first == a.detail; });
    if (at == places.end()) at = places.insert(places.end(), {a.detail, {}});
    at->second.push_back(a.tensor);
  }
  std::cout << "not on the board (" << c.notOnBoard.size() << " tensors):\n";
  for (const auto& [place, tensors] : places) {
    std::cout << "  tensor" << (tensors.size() > 1 ? "s " : " ");
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      std::cout << (i == 0 ? "" : ", ") << tensors[i];
    }
    std::cout << ": " << place << "\n";
  }
}

std::string inputText(const deploy::TensorAgreement& a) {
  std::string text =
      "tensor " + std::to_string(a.tensor) + " " + std::string(deploy::verdictName(a.verdict));
  if (!a.detail.empty()) text += " (" + a.detail + ")";
  return text;
}

}  // namespace

int runDebugCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  auto specs = boardRunOptionSpecs();
  specs.insert(specs.end(), {{"--inputs", OptionSpec::Kind::List},
                             {"--golden", OptionSpec::Kind::Value},
                             {"--dump-tensors", OptionSpec::Kind::Value},
                             {"--corrupt-operator", OptionSpec::Kind::Value}});
  const auto parsed = parseArguments(args, specs);
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  if (parsed.positional.size() != 1) throw UsageError("debug needs exactly one MODEL file");
  const auto platformName = parsed.value("--platform");
  if (!platformName || *platformName == "reference") {
    throw UsageError("debug needs --platform NAME, a board or host (see loupec platforms)");
  }
  const auto platform = platformNamed(*platformName, registries.platforms);
  std::optional<int> corrupt;
  if (const auto k = parsed.value("--corrupt-operator")) {
    try {
      std::size_t used = 0;
      corrupt = std::stoi(*k, &used);
      if (used != k->size() || *corrupt < 0) throw std::invalid_argument(*k);
    } catch (const std::exception&) {
      throw UsageError("--corrupt-operator needs an operator index, not '" + *k + "'");
    }
  }
  // --golden: a golden set folder (inputs, tensors/) or its tensors/ folder.
  std::optional<fs::path> goldenTensorsDir;
  std::optional<fs::path> goldenSet;
  if (const auto golden = parsed.value("--golden")) {
    const fs::path dir(*golden);
    if (fs::exists(dir / "tensors" / "index.json")) {
      goldenSet = dir;
      goldenTensorsDir = dir / "tensors";
    } else if (fs::exists(dir / "index.json")) {
      goldenSet = dir.parent_path();
      goldenTensorsDir = dir;
    } else {
      throw UsageError("--golden " + dir.string() +
                       ": no per-tensor dump there (neither tensors/index.json nor index.json)");
    }
  }
  std::optional<fs::path> dumpDir;
  if (const auto dump = parsed.value("--dump-tensors")) {
    dumpDir = prepareOutputFolder(*dump, "the tensor folder");
  }

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  std::vector<std::string> inputFiles = parsed.list("--inputs");
  if (inputFiles.empty() && goldenSet) {
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      inputFiles.push_back((*goldenSet / ("input" + std::to_string(i) + ".bin")).string());
    }
  }
  if (inputFiles.empty()) throw UsageError("debug needs --inputs IN0.bin ... or --golden DIR");
  const auto inputs = readInputs(graph, inputFiles);
  // The expected tensors first: a broken golden folder fails before the build.
  const deploy::TensorBytes expected = goldenTensorsDir
                                           ? deploy::goldenTensors(graph, *goldenTensorsDir)
                                           : deploy::referenceTensors(graph, inputs);

  const ScheduleChoice schedules = scheduleChoiceFrom(parsed, platform->name());
  deploy::BoardRunRequest request =
      boardRunRequestFrom(parsed, platform, graph, targets, schedules);
  request.inputs = inputs;
  request.knownBoards = &registries.platforms;
  request.compile.options.debugTensors = true;
  request.corruptOperator = corrupt;
  request.progress = [](const std::string& stage, const std::string& detail) {
    std::cout << "[" << stage << "] " << detail << std::endl;
  };
  const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
  const codegen::CompiledModel& compiled = run.compilation.model;
  const std::string expectedName = goldenTensorsDir
                                       ? "TFLite Micro's dump in " + goldenTensorsDir->string()
                                       : std::string("the reference interpreter");
  deploy::DebugComparison comparison = deploy::compareBoardTensors(
      graph, compiled, run.deviceTensors, inputs, expected, run.profile,
      goldenTensorsDir ? deploy::kMaxFloatUlps : deploy::kMaxReferenceUlps);
  comparison.expectedName = expectedName;
  if (dumpDir) writeBoardTensorDump(graph, run, inputs, *dumpDir);

  std::cout << "debug run of " << graph.name << " on " << platform->name() << " (" << run.boardName
            << "): " << run.deviceTensors.size() << " tensors read back, compared with "
            << comparison.expectedName << "\n";
  if (const std::string coverage = tuningCoverage(schedules, run.compilation); !coverage.empty()) {
    std::cout << coverage << "\n";
  }
  printTable(comparison);
  if (!comparison.notOnBoard.empty()) printNotOnBoard(comparison);
  if (run.fault) std::cout << "fault: " << run.fault->describe(graph) << "\n";
  if (!comparison.firstDiffering) {
    std::cout << "every tensor agrees: " << comparison.agreeingTensors() << " compared with "
              << comparison.expectedName << "\n";
    return 0;
  }
  const deploy::DebugOperatorRow& first = comparison.rows[*comparison.firstDiffering];
  std::cout << "first difference: operator " << first.operatorIndex << " " << first.type
            << " (model operator" << (first.modelOperators.size() > 1 ? "s " : " ") << first.name
            << "): " << agreementText(first) << "\n";
  std::cout << "  its inputs:";
  if (comparison.firstDifferingInputs.empty()) std::cout << " none the board sent";
  for (const deploy::TensorAgreement& a : comparison.firstDifferingInputs) {
    std::cout << "\n    " << inputText(a);
  }
  std::cout << "\n";
  return 1;
}

}  // namespace loupe::cli
