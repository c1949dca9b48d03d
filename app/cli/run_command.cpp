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
#include "frontend/tflite_importer.h"
#include "reference/reference_interpreter.h"

namespace loupe::cli {

const char* const kRunUsage =
    "  loupec run MODEL --platform reference --inputs IN0.bin [IN1.bin ...] --output-dir DIR\n"
    "             [--dump-tensors DIR]\n"
    "      runs the model on raw little-endian input files; writes output<i>.bin to DIR and,\n"
    "      with --dump-tensors, every non-constant tensor as t<index>.bin plus index.json";

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

}  // namespace

int runRunCommand(const std::vector<std::string>& args) {
  const auto parsed = parseArguments(args, {{"--platform", OptionSpec::Kind::Value},
                                            {"--inputs", OptionSpec::Kind::List},
                                            {"--output-dir", OptionSpec::Kind::Value},
                                            {"--dump-tensors", OptionSpec::Kind::Value}});
  if (parsed.positional.size() != 1) throw UsageError("run needs exactly one MODEL file");
  const std::string platform = parsed.value("--platform").value_or("reference");
  if (platform != "reference") {
    throw UsageError("unknown platform '" + platform +
                     "'; this build of loupec runs models on: reference");
  }
  const auto outputDir = parsed.value("--output-dir");
  if (!outputDir) throw UsageError("run needs --output-dir DIR");

  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0]);
  reference::ReferenceInterpreter interpreter(graph);

  const auto inputs = parsed.list("--inputs");
  if (inputs.size() != graph.inputs.size()) {
    throw UsageError("the model has " + std::to_string(graph.inputs.size()) +
                     " input(s) but --inputs names " + std::to_string(inputs.size()) + " file(s)");
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    try {
      interpreter.setInput(i, readFile(inputs[i]));
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(inputs[i] + ": " + error.what());
    }
  }
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
