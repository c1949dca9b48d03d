#include "deploy/golden_sets.h"

#include <algorithm>
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
    GoldenSet set{candidate.filename().string(), {}, {}};
    std::string problem;
    for (std::size_t i = 0; i < graph.inputs.size() && problem.empty(); ++i) {
      set.inputs.push_back(candidate / ("input" + std::to_string(i) + ".bin"));
      problem = sizeProblem(set.inputs.back(), graph.tensor(graph.inputs[i]), "input", i);
    }
    for (std::size_t i = 0; i < graph.outputs.size() && problem.empty(); ++i) {
      set.outputs.push_back(candidate / ("output" + std::to_string(i) + ".bin"));
      problem = sizeProblem(set.outputs.back(), graph.tensor(graph.outputs[i]), "output", i);
    }
    if (problem.empty()) {
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

}  // namespace loupe::deploy
