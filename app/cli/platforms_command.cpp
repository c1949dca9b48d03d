// loupec platforms: where models can run, and what each needs installed.
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "deploy/platform_registry.h"

namespace loupe::cli {

const char* const kPlatformsUsage =
    "  loupec platforms\n"
    "      lists the platforms models can run on, whether each is usable here, and the Debian\n"
    "      packages to install for those that are not; QEMU boards include the folders of\n"
    "      share/loupe/boards beside the installed loupec (board.json, board.h, linker.ld)";

int runPlatformsCommand(const std::vector<std::string>& args,
                        const deploy::Registries& registries) {
  const auto parsed = parseArguments(args, {});
  if (!parsed.positional.empty()) throw UsageError("platforms takes no arguments");
  std::cout << "reference\n    ready: Loupe's reference interpreter (no code generation)\n";
  for (const auto& platform : registries.platforms.all()) {
    std::cout << platform->name() << "\n    ";
    const auto missing = deploy::missingTools(*platform);
    const std::string problem = platform->problem();
    if (!problem.empty()) {
      std::cout << "unavailable (" << problem << "): ";
    } else if (missing.empty()) {
      std::cout << "ready: ";
    } else {
      std::cout << "unavailable (install";
      for (const auto& tool : missing) std::cout << " " << tool.debianPackage;
      std::cout << "): ";
    }
    std::cout << platform->description() << "\n";
    for (const deploy::ProjectOption& option : platform->projectOptions()) {
      std::cout << "    --option " << option.name << "=";
      if (option.choices.empty()) {
        std::cout << "VALUE";
      } else {
        for (std::size_t i = 0; i < option.choices.size(); ++i) {
          std::cout << (i == 0 ? "" : "|") << option.choices[i];
        }
      }
      std::cout << ": " << option.help;
      if (!option.defaultValue.empty()) std::cout << " (default " << option.defaultValue << ")";
      std::cout << "\n";
    }
  }
  for (const auto& skipped : registries.skippedBoards)
    std::cout << "board folder " << skipped << "\n";
  return 0;
}

}  // namespace loupe::cli
