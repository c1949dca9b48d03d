// loupec validate: runs a model as loupec run does and measures, per output,
// how far its values are from the expected ones (a golden set's outputs, or
// else the reference interpreter's), in the manner of X-CUBE-AI's validate;
// with --float, also layer by layer against the float model. The numbers are
// information, not a verdict: it exits 0 whenever the model ran, and run
// --platform is the command that judges bit-exactness.
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis/model_report.h"
#include "cli/board_run_options.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/input_files.h"
#include "cli/output_folder.h"
#include "cli/target_options.h"
#include "cli/tuning_options.h"
#include "deploy/float_model_comparison.h"
#include "deploy/golden_sets.h"
#include "deploy/run_on_board.h"
#include "deploy/validation_metrics.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "reference/reference_interpreter.h"

namespace loupe::cli {

const char* const kValidateUsage =
    "  loupec validate MODEL [--platform NAME] (--golden DIR | --inputs IN0.bin [IN1.bin ...])\n"
    "             [--output-dir DIR] [--json] [--port TTY] [--baud N] [--option NAME=VALUE ...]\n"
    "             [--model-name NAME] [--planner NAME] [--pools SPEC] [--target T]\n"
    "             [--float FLOAT_MODEL] [--tuning-log LOG | --no-tuning-log]\n"
    "      runs the model as run does (on the reference interpreter by default) and prints per\n"
    "      output how far its values are from the expected ones: with --golden DIR (a golden\n"
    "      set: input<i>.bin, output<i>.bin) the set's inputs and outputs, else the reference\n"
    "      interpreter's outputs on --inputs. Quantized outputs are compared on real values,\n"
    "      scale * (q - zero_point); others on raw values: element count, elements whose bytes\n"
    "      differ, max absolute error, mean absolute error, RMSE, L2 relative error\n"
    "      ||actual - expected|| / ||expected|| and cosine similarity. A metric with no finite\n"
    "      value is n/a (null with --json): L2 relative error for an all-zero expected output,\n"
    "      cosine similarity when either output is all zeros, any metric over NaN or infinity.\n"
    "      --float FLOAT_MODEL also runs the float model the quantized MODEL was converted from\n"
    "      on the real values of the inputs (both on the reference interpreter) and prints the\n"
    "      same metrics for every operator output of MODEL against the float model's tensor of\n"
    "      the same name. --output-dir writes the outputs as run does. On a platform the\n"
    "      schedules are run's (the bundled tuning logs for the board, --tuning-log LOG or\n"
    "      --no-tuning-log). Exits 0 whenever the model ran.";

namespace {

namespace fs = std::filesystem;

using Buffers = std::vector<std::vector<std::uint8_t>>;

// Where the expected outputs come from, and the inputs that go with them.
struct Expectation {
  Buffers inputs;
  Buffers outputs;
  std::optional<deploy::GoldenSet> golden;
  fs::path goldenFolder;
};

Buffers referenceOutputs(const ir::Graph& graph, const Buffers& inputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  Buffers outputs;
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    const auto bytes = interpreter.output(i);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

Expectation expectationFrom(const ParsedArguments& parsed, const ir::Graph& graph) {
  Expectation expectation;
  if (const auto folder = parsed.value("--golden")) {
    expectation.goldenFolder = *folder;
    expectation.golden = deploy::goldenSetIn(*folder, graph);
    expectation.inputs = deploy::readGoldenFiles(expectation.golden->inputs);
    expectation.outputs = deploy::readGoldenFiles(expectation.golden->outputs);
  } else {
    expectation.inputs = readInputs(graph, parsed.list("--inputs"));
    expectation.outputs = referenceOutputs(graph, expectation.inputs);
  }
  return expectation;
}

// The outputs of the model on a board platform; its build and run stages are
// reported on `progress` (stderr under --json, so that stdout stays JSON).
Buffers boardOutputs(const ParsedArguments& parsed, const ir::Graph& graph,
                     std::shared_ptr<const deploy::Platform> board, const Buffers& inputs,
                     const target::TargetList& targets, std::ostream& progress) {
  const ScheduleChoice schedules = scheduleChoiceFrom(parsed, board->name());
  deploy::BoardRunRequest request =
      boardRunRequestFrom(parsed, std::move(board), graph, targets, schedules);
  request.inputs = inputs;
  request.progress = [&progress](const std::string& stage, const std::string& detail) {
    progress << "[" << stage << "] " << detail << std::endl;
  };
  deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
  if (const std::string coverage = tuningCoverage(schedules, run.compilation); !coverage.empty()) {
    progress << coverage << std::endl;
  }
  return std::move(run.outputs);
}

void writeOutputs(const fs::path& folder, const Buffers& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    writeBinaryFile(folder / ("output" + std::to_string(i) + ".bin"), outputs[i]);
  }
}

const char* comparedOn(const ir::Tensor& tensor) {
  return tensor.quantization.isQuantized() ? "real values" : "raw values";
}

// One row per layer, the tensor name last as it can be long.
void printLayers(const deploy::FloatModelComparison& comparison, const std::string& floatFile) {
  std::cout << "layers against the float model " << floatFile << " (" << comparison.layers.size()
            << " of " << comparison.layers.size() + comparison.unmatched.size()
            << " operator outputs match by name), on real values:\n";
  const auto cell = [](const std::string& text) {
    std::ostringstream padded;
    padded << std::setw(12) << text;
    return padded.str();
  };
  std::cout << "   op type                 elements" << cell("max abs") << cell("MAE")
            << cell("RMSE") << cell("L2 relative") << cell("cosine") << "  tensor\n";
  for (const deploy::LayerComparison& layer : comparison.layers) {
    const deploy::ValidationMetrics& m = layer.metrics;
    std::cout << std::setw(5) << layer.operatorIndex << " " << std::left << std::setw(20)
              << layer.operatorType << std::right << std::setw(9) << m.elements
              << cell(deploy::metricText(m.maxAbsoluteError))
              << cell(deploy::metricText(m.meanAbsoluteError))
              << cell(deploy::metricText(m.rootMeanSquareError))
              << cell(deploy::metricText(m.l2RelativeError))
              << cell(deploy::metricText(m.cosineSimilarity)) << "  " << layer.tensorName << "\n";
  }
  for (const std::string& name : comparison.unmatched) {
    std::cout << "not in the float model: " << name << "\n";
  }
}

nlohmann::json layersJson(const deploy::FloatModelComparison& comparison,
                          const std::string& floatFile) {
  nlohmann::json layers = nlohmann::json::array();
  for (const deploy::LayerComparison& layer : comparison.layers) {
    layers.push_back({{"operator", layer.operatorIndex},
                      {"type", layer.operatorType},
                      {"tensor", layer.tensorName},
                      {"metrics", deploy::validationMetricsJson(layer.metrics)}});
  }
  return {{"file", floatFile}, {"layers", layers}, {"unmatched", comparison.unmatched}};
}

// `modelFile` as the user gave it: the graph's name is often just "model".
void printText(const std::string& modelFile, const ir::Graph& graph, const std::string& platform,
               const Expectation& expectation,
               const std::vector<deploy::ValidationMetrics>& metrics) {
  std::cout << "validated " << modelFile << " on " << platform << " against ";
  if (expectation.golden) {
    std::cout << "golden set " << expectation.golden->name << " ("
              << expectation.goldenFolder.string() << ")\n";
  } else {
    std::cout << "the reference interpreter\n";
    if (platform == "reference") {
      std::cout << "note: the reference interpreter is compared with itself, so every error is "
                   "zero; give --golden DIR or another --platform\n";
    }
  }
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const ir::Tensor& tensor = graph.tensor(graph.outputs[i]);
    const deploy::ValidationMetrics& m = metrics[i];
    std::cout << "output " << i << " '" << tensor.name << "' " << ir::tensorTypeToString(tensor)
              << ", on " << comparedOn(tensor) << ":\n"
              << "  elements             " << m.elements << "\n"
              << "  differing elements   " << *m.differingElements << "\n"
              << "  max absolute error   " << deploy::metricText(m.maxAbsoluteError) << "\n"
              << "  mean absolute error  " << deploy::metricText(m.meanAbsoluteError) << "\n"
              << "  RMSE                 " << deploy::metricText(m.rootMeanSquareError) << "\n"
              << "  L2 relative error    " << deploy::metricText(m.l2RelativeError) << "\n"
              << "  cosine similarity    " << deploy::metricText(m.cosineSimilarity) << "\n";
  }
}

void printJson(const std::string& modelFile, const ir::Graph& graph, const std::string& platform,
               const Expectation& expectation,
               const std::vector<deploy::ValidationMetrics>& metrics,
               const std::optional<nlohmann::json>& floatLayers) {
  nlohmann::json expected = {{"source", expectation.golden ? "golden" : "reference"}};
  if (expectation.golden) {
    expected["set"] = expectation.golden->name;
    expected["folder"] = expectation.goldenFolder.string();
  }
  nlohmann::json outputs = nlohmann::json::array();
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const ir::Tensor& tensor = graph.tensor(graph.outputs[i]);
    outputs.push_back({{"index", i},
                       {"tensor", analysis::tensorJson(tensor)},
                       {"compared_on", comparedOn(tensor)},
                       {"metrics", deploy::validationMetricsJson(metrics[i])}});
  }
  nlohmann::json report = {
      {"model", modelFile}, {"platform", platform}, {"expected", expected}, {"outputs", outputs}};
  if (floatLayers) report["float_model"] = *floatLayers;
  std::cout << report.dump(2) << "\n";
}

}  // namespace

int runValidateCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  auto specs = boardRunOptionSpecs();
  specs.insert(specs.end(), {{"--golden", OptionSpec::Kind::Value},
                             {"--inputs", OptionSpec::Kind::List},
                             {"--output-dir", OptionSpec::Kind::Value},
                             {"--json", OptionSpec::Kind::Flag},
                             {"--float", OptionSpec::Kind::Value}});
  const auto parsed = parseArguments(args, specs);
  const target::TargetList targets = targetsFrom(parsed, registries.targets);
  if (parsed.positional.size() != 1) throw UsageError("validate needs exactly one MODEL file");
  if (!parsed.has("--golden") && !parsed.has("--inputs")) {
    throw UsageError("validate needs --golden DIR or --inputs IN0.bin ...");
  }
  if (parsed.has("--golden") && parsed.has("--inputs")) {
    throw UsageError("--golden and --inputs exclude each other: a golden set has its own inputs");
  }
  const std::string platform = parsed.value("--platform").value_or("reference");
  std::shared_ptr<const deploy::Platform> board;
  if (platform != "reference") board = platformNamed(platform, registries.platforms);
  const bool json = parsed.has("--json");
  std::optional<fs::path> outputDir;
  if (const auto folder = parsed.value("--output-dir")) {
    outputDir = prepareOutputFolder(*folder, "the output folder");
  }

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  const Expectation expectation = expectationFrom(parsed, graph);
  // The layers come from the reference interpreter whatever the platform
  // (generated code keeps only the outputs), and before a board run so that
  // a float model that does not fit is reported at once.
  const auto floatFile = parsed.value("--float");
  std::optional<deploy::FloatModelComparison> layers;
  if (floatFile) {
    layers = deploy::compareWithFloatModel(graph, frontend::importTfliteFile(*floatFile),
                                           expectation.inputs);
  }
  const Buffers actual = board ? boardOutputs(parsed, graph, board, expectation.inputs, targets,
                                              json ? std::cerr : std::cout)
                               : referenceOutputs(graph, expectation.inputs);
  if (outputDir) writeOutputs(*outputDir, actual);

  std::vector<deploy::ValidationMetrics> metrics;
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    metrics.push_back(deploy::compareTensorValues(graph.tensor(graph.outputs[i]),
                                                  expectation.outputs[i], actual[i]));
  }
  if (json) {
    printJson(parsed.positional[0], graph, platform, expectation, metrics,
              layers ? std::optional(layersJson(*layers, *floatFile)) : std::nullopt);
  } else {
    printText(parsed.positional[0], graph, platform, expectation, metrics);
    if (layers) printLayers(*layers, *floatFile);
  }
  return 0;
}

}  // namespace loupe::cli
