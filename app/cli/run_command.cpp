// loupec run: evaluates a model on given input files and writes its outputs
// (and optionally every tensor) as raw little-endian files, the format of the
// golden data.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "analysis/model_report.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/memory_options.h"
#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "project/host_build.h"
#include "reference/reference_interpreter.h"

namespace loupe::cli {

const char* const kRunUsage =
    "  loupec run MODEL [--platform reference|host] --inputs IN0.bin [IN1.bin ...] --output-dir "
    "DIR\n"
    "             [--dump-tensors DIR] [--model-name NAME] [--planner NAME] [--pools SPEC]\n"
    "      runs the model on raw little-endian input files and writes output<i>.bin to DIR.\n"
    "      reference: Loupe's reference interpreter (the default); --dump-tensors writes every\n"
    "        non-constant tensor as t<index>.bin plus index.json.\n"
    "      host: compiles the model to C, builds it natively with the host's C compiler (cached\n"
    "        per generated code under ~/.cache/loupe) and runs it as a child process; --planner "
    "and\n"
    "        --pools choose its memory plan as for memplan";

namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read input file " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

fs::path makeDirectory(const std::string& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    throw std::runtime_error("cannot create directory " + dir + ": " + error.message());
  }
  return dir;
}

void dumpTensors(const ir::Graph& graph, const reference::ReferenceInterpreter& interpreter,
                 const fs::path& dir) {
  nlohmann::json index = nlohmann::json::array();
  for (const auto& tensor : graph.tensors) {
    if (tensor.isConstant || tensor.byteSize() == 0) continue;
    const std::string file = "t" + std::to_string(tensor.index) + ".bin";
    writeFile(dir / file, interpreter.tensorBytes(tensor.index));
    auto entry = analysis::tensorJson(tensor);
    entry["file"] = file;
    index.push_back(entry);
  }
  std::ofstream(dir / "index.json") << index.dump(2) << "\n";
}

std::vector<std::vector<std::uint8_t>> readInputs(const ir::Graph& graph,
                                                  const std::vector<std::string>& files) {
  if (files.size() != graph.inputs.size()) {
    throw UsageError("the model has " + std::to_string(graph.inputs.size()) +
                     " input(s) but --inputs names " + std::to_string(files.size()) + " file(s)");
  }
  std::vector<std::vector<std::uint8_t>> inputs;
  for (std::size_t i = 0; i < files.size(); ++i) {
    inputs.push_back(readFile(files[i]));
    const ir::Tensor& tensor = graph.tensor(graph.inputs[i]);
    if (static_cast<std::int64_t>(inputs.back().size()) != tensor.byteSize()) {
      throw std::runtime_error(files[i] + ": " + std::to_string(inputs.back().size()) +
                               " bytes, but input " + std::to_string(i) + " '" + tensor.name +
                               "' needs " + std::to_string(tensor.byteSize()));
    }
  }
  return inputs;
}

// Compiles, builds (or reuses the cached build) and runs the model natively.
int runOnHost(const ir::Graph& graph, const ParsedArguments& parsed, const fs::path& outputDir) {
  if (parsed.value("--dump-tensors")) {
    throw UsageError(
        "--dump-tensors needs --platform reference (generated code keeps only outputs)");
  }
  const auto inputs = readInputs(graph, parsed.list("--inputs"));
  codegen::CompileOptions options;
  options.modelName = parsed.value("--model-name").value_or("default");
  options.memory = memoryOptionsFrom(parsed);
  passes::StageTimeline timeline;
  const codegen::CompiledModel model =
      codegen::compileToC(passes::runGraphPipeline(graph, timeline), options);
  const project::HostBuild build = project::buildHostExecutable(model, {});
  const auto outputs = project::runHostExecutable(build, model, inputs);
  const fs::path out = makeDirectory(outputDir.string());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    writeFile(out / ("output" + std::to_string(i) + ".bin"), outputs[i]);
  }
  std::cout << "ran " << graph.name << " on host (" << (build.reused ? "cached build " : "built ")
            << build.directory.string() << "): " << outputs.size() << " output(s) written to "
            << out.string() << "\n";
  return 0;
}

}  // namespace

int runRunCommand(const std::vector<std::string>& args) {
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"--platform", OptionSpec::Kind::Value},
                             {"--inputs", OptionSpec::Kind::List},
                             {"--output-dir", OptionSpec::Kind::Value},
                             {"--dump-tensors", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value}});
  const auto parsed = parseArguments(args, specs);
  if (parsed.positional.size() != 1) throw UsageError("run needs exactly one MODEL file");
  const std::string platform = parsed.value("--platform").value_or("reference");
  if (platform != "reference" && platform != "host") {
    throw UsageError("unknown platform '" + platform +
                     "'; this build of loupec runs models on: reference, host");
  }
  const auto outputDir = parsed.value("--output-dir");
  if (!outputDir) throw UsageError("run needs --output-dir DIR");

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  if (platform == "host") return runOnHost(graph, parsed, *outputDir);
  reference::ReferenceInterpreter interpreter(graph);
  const auto inputs = readInputs(graph, parsed.list("--inputs"));
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();

  const fs::path out = makeDirectory(*outputDir);
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    writeFile(out / ("output" + std::to_string(i) + ".bin"), interpreter.output(i));
  }
  if (const auto dumpDir = parsed.value("--dump-tensors")) {
    dumpTensors(graph, interpreter, makeDirectory(*dumpDir));
  }
  std::cout << "ran " << graph.name << " on the reference interpreter: " << graph.outputs.size()
            << " output(s) written to " << out.string() << "\n";
  return 0;
}

}  // namespace loupe::cli
