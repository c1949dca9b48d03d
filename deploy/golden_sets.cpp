#include "deploy/golden_sets.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace loupe::deploy {

namespace {

namespace fs = std::filesystem;

// Empty when `file` exists with the tensor's size, else why not.
std::string sizeProblem(const fs::path& file, const ir::Tensor& tensor, const char* role,
                        std::size_t index) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  const std::string what =
      std::string(role) + " " + std::to_string(index) + " '" + tensor.name + "'";
  if (error) return file.filename().string() + " is missing (for " + what + ")";
  if (static_cast<std::int64_t>(size) != tensor.byteSize()) {
    return file.filename().string() + " has " + std::to_string(size) + " bytes, " + what +
           " needs " + std::to_string(tensor.byteSize());
  }
  return {};
}

bool isRealSet(const std::string& name) {
  return name.rfind("real", 0) == 0;
}

// Fills `set` with the files of `folder`; empty when they all fit `graph`,
// else the first problem.
std::string describeSet(const fs::path& folder, const ir::Graph& graph, GoldenSet& set) {
  set = {folder.filename().string(), {}, {}};
  std::string problem;
  for (std::size_t i = 0; i < graph.inputs.size() && problem.empty(); ++i) {
    set.inputs.push_back(folder / ("input" + std::to_string(i) + ".bin"));
    problem = sizeProblem(set.inputs.back(), graph.tensor(graph.inputs[i]), "input", i);
  }
  for (std::size_t i = 0; i < graph.outputs.size() && problem.empty(); ++i) {
    set.outputs.push_back(folder / ("output" + std::to_string(i) + ".bin"));
    problem = sizeProblem(set.outputs.back(), graph.tensor(graph.outputs[i]), "output", i);
  }
  return problem;
}

}  // namespace

GoldenSets findGoldenSets(const fs::path& modelFile, const ir::Graph& graph) {
  GoldenSets found;
  const fs::path folder = modelFile.parent_path() / "golden";
  std::error_code error;
  if (!fs::is_directory(folder, error)) return found;
  std::vector<fs::path> candidates;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.is_directory(error)) candidates.push_back(entry.path());
  }
  for (const fs::path& candidate : candidates) {
    GoldenSet set;
    if (const std::string problem = describeSet(candidate, graph, set); problem.empty()) {
      found.sets.push_back(std::move(set));
    } else {
      found.skipped.push_back(set.name + ": " + problem);
    }
  }
  std::sort(found.sets.begin(), found.sets.end(), [](const GoldenSet& a, const GoldenSet& b) {
    if (isRealSet(a.name) != isRealSet(b.name)) return isRealSet(a.name);
    return a.name < b.name;
  });
  std::sort(found.skipped.begin(), found.skipped.end());
  return found;
}

GoldenSet goldenSetIn(const fs::path& folder, const ir::Graph& graph) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) {
    throw std::invalid_argument(
        "the golden set " + folder.string() +
        (fs::exists(folder, error) ? " is not a folder" : " does not exist"));
  }
  GoldenSet set;
  // "golden/seed1/" names the set seed1 too.
  const fs::path named = folder.has_filename() ? folder : folder.parent_path();
  if (const std::string problem = describeSet(named, graph, set); !problem.empty()) {
    throw std::invalid_argument("the golden set " + folder.string() +
                                " does not fit the model: " + problem);
  }
  return set;
}

std::vector<std::vector<std::uint8_t>> readGoldenFiles(const std::vector<fs::path>& files) {
  std::vector<std::vector<std::uint8_t>> contents;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string() + ": " + std::strerror(errno));
    contents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return contents;
}

}  // namespace loupe::deploy
