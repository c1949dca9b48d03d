#include "callgrind_instructions.h"

#include <chrono>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "deploy/process_runner.h"

namespace fs = std::filesystem;

namespace loupe::bench {

long long countInstructions(const deploy::HostBuild& build, const codegen::CompiledModel& model,
                            const fs::path& modelDir, const fs::path& work) {
  // Only the inference: callgrind collects inside tvmgen_<name>_run.
  std::vector<std::string> argv = {
      "valgrind", "--tool=callgrind", "--callgrind-out-file=" + (work / "callgrind.out").string(),
      "--toggle-collect=tvmgen_" + model.modelName + "_run", build.executable.string()};
  for (std::size_t i = 0; i < model.graph.inputs.size(); ++i) {
    argv.push_back(
        (modelDir / "golden" / "seed1" / ("input" + std::to_string(i) + ".bin")).string());
  }
  for (std::size_t i = 0; i < model.graph.outputs.size(); ++i) {
    argv.push_back((work / ("output" + std::to_string(i) + ".bin")).string());
  }
  const auto result = deploy::runProcess(argv, work, std::chrono::minutes(10));
  if (result.exitCode != 0) throw std::runtime_error("callgrind run failed:\n" + result.output);
  std::ifstream out(work / "callgrind.out");
  std::string line;
  static const std::regex totals(R"(^(summary|totals):\s+(\d+))");
  std::smatch match;
  while (std::getline(out, line)) {
    if (std::regex_search(line, match, totals)) return std::stoll(match[2]);
  }
  throw std::runtime_error("no instruction total in callgrind's output");
}

}  // namespace loupe::bench
