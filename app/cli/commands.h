// The verbs of loupec. Each returns the process exit code; errors are printed
// to stderr by the caller from the exceptions they throw.
#pragma once

#include <string>
#include <vector>

#include "deploy/registries.h"

namespace loupe::cli {

// `registries`: the targets and platforms, built once by loupec's main.
int runInfoCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runRunCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runDebugCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runCompileCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runMemplanCommand(const std::vector<std::string>& args);
int runNpuStreamCommand(const std::vector<std::string>& args);
int runGenerateCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runPlatformsCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runTuneCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runOperatorsCommand(const std::vector<std::string>& args);
int runValidateCommand(const std::vector<std::string>& args, const deploy::Registries& registries);
int runDiffCommand(const std::vector<std::string>& args, const deploy::Registries& registries);

extern const char* const kInfoUsage;
extern const char* const kRunUsage;
extern const char* const kDebugUsage;
extern const char* const kCompileUsage;
extern const char* const kMemplanUsage;
extern const char* const kNpuStreamUsage;
extern const char* const kGenerateUsage;
extern const char* const kPlatformsUsage;
extern const char* const kTuneUsage;
extern const char* const kOperatorsUsage;
extern const char* const kValidateUsage;
extern const char* const kDiffUsage;

}  // namespace loupe::cli
