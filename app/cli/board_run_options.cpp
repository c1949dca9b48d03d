#include "cli/board_run_options.h"

#include <algorithm>
#include <map>

#include "cli/memory_options.h"
#include "cli/target_options.h"
#include "cli/tuning_options.h"
#include "deploy/deploy_error.h"

namespace loupe::cli {

namespace {

// --option NAME=VALUE ...: the platform's project options (loupec platforms
// lists them), each checked against what the platform offers.
std::map<std::string, std::string> projectOptionsFrom(const ParsedArguments& parsed,
                                                      const deploy::Platform& platform) {
  std::map<std::string, std::string> values;
  const auto offered = platform.projectOptions();
  for (const std::string& item : parsed.list("--option")) {
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw UsageError("--option takes NAME=VALUE, not '" + item + "'");
    }
    const std::string name = item.substr(0, equals);
    const std::string value = item.substr(equals + 1);
    const auto option = std::find_if(offered.begin(), offered.end(),
                                     [&](const auto& entry) { return entry.name == name; });
    if (option == offered.end()) {
      std::string known;
      for (const auto& entry : offered) known += (known.empty() ? "" : ", ") + entry.name;
      throw UsageError(platform.name() + " has no option '" + name + "'" +
                       (known.empty() ? std::string(" (it has none)") : " (it has " + known + ")"));
    }
    if (!option->choices.empty() &&
        std::find(option->choices.begin(), option->choices.end(), value) == option->choices.end()) {
      std::string choices;
      for (const auto& choice : option->choices) choices += (choices.empty() ? "" : ", ") + choice;
      throw UsageError("--option " + name + " of " + platform.name() + " is one of " + choices +
                       ", not '" + value + "'");
    }
    values[name] = value;
  }
  return values;
}

}  // namespace

std::vector<OptionSpec> boardRunOptionSpecs() {
  auto specs = memoryOptionSpecs();
  specs.insert(specs.end(), {{"--platform", OptionSpec::Kind::Value},
                             {"--model-name", OptionSpec::Kind::Value},
                             {"--port", OptionSpec::Kind::Value},
                             {"--baud", OptionSpec::Kind::Value},
                             {"--option", OptionSpec::Kind::List},
                             targetOptionSpec()});
  const auto tuning = tuningLogOptionSpecs();
  specs.insert(specs.end(), tuning.begin(), tuning.end());
  return specs;
}

std::shared_ptr<const deploy::Platform> platformNamed(const std::string& name,
                                                      const deploy::PlatformRegistry& platforms) {
  try {
    return platforms.find(name);
  } catch (const deploy::DeployError& error) {
    // The registry lists the board platforms; the reference is the verbs' own.
    throw UsageError(std::string(error.what()) + " reference");
  }
}

deploy::BoardRunRequest boardRunRequestFrom(const ParsedArguments& parsed,
                                            std::shared_ptr<const deploy::Platform> platform,
                                            const ir::Graph& graph,
                                            const target::TargetList& targets,
                                            const ScheduleChoice& schedules) {
  deploy::BoardRunRequest request;
  request.deployment.start.port = parsed.value("--port").value_or("");
  if (const auto baud = parsed.value("--baud")) {
    try {
      request.deployment.start.baud = static_cast<std::uint32_t>(std::stoul(*baud));
    } catch (const std::exception&) {
      throw UsageError("--baud needs a number, not '" + *baud + "'");
    }
  }
  request.deployment.start.options = projectOptionsFrom(parsed, *platform);
  request.platform = std::move(platform);
  request.compile.model = graph;
  request.compile.targets = targets;
  request.compile.options.modelName = parsed.value("--model-name").value_or("default");
  request.compile.options.memory = memoryOptionsFrom(parsed);
  request.compile.fitToMemories = fitToMemoriesFrom(parsed);
  applyScheduleChoice(schedules, request.compile);
  return request;
}

}  // namespace loupe::cli
