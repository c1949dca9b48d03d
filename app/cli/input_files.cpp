#include "cli/input_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cli/command_line.h"

namespace loupe::cli {

namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> readFile(const fs::path& path) {
  std::error_code ignored;
  if (fs::is_directory(path, ignored)) {
    throw std::runtime_error("cannot read input file " + path.string() + ": it is a folder");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read input file " + path.string() + ": " +
                             std::strerror(errno));
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

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

}  // namespace loupe::cli
