// loupec: the headless face of Loupe's compiler and runtime, for scripts, CI
// and tests.
#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "builtin_registries.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "deploy/interrupt_cleanup.h"
#include "loupe_version.h"

namespace {

void printHelp() {
  std::cout << "loupec " << LOUPE_VERSION
            << " - compile and run TFLite models for microcontrollers\n\n"
               "usage: loupec <command> [arguments]\n\n"
               "commands:\n"
            << loupe::cli::kInfoUsage << "\n"
            << loupe::cli::kCompileUsage << "\n"
            << loupe::cli::kRunUsage << "\n"
            << loupe::cli::kDebugUsage << "\n"
            << loupe::cli::kValidateUsage << "\n"
            << loupe::cli::kMemplanUsage << "\n"
            << loupe::cli::kNpuStreamUsage << "\n"
            << loupe::cli::kDiffUsage << "\n"
            << loupe::cli::kGenerateUsage << "\n"
            << loupe::cli::kTuneUsage << "\n"
            << loupe::cli::kPlatformsUsage << "\n"
            << loupe::cli::kOperatorsUsage << "\n"
            << "  loupec --help       this text\n"
               "  loupec --version    the version\n";
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread: an interrupt must not orphan QEMU, make or a folder.
  loupe::deploy::installInterruptCleanup();
  // Output piped into a program that stops reading (| head) must not kill
  // loupec halfway with its boards and servers still running: the writes
  // fail instead, and the run ends and cleans up as usual.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    printHelp();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "loupec " << LOUPE_VERSION << "\n";
    return 0;
  }
  const std::string verb = args[0];
  args.erase(args.begin());
  try {
    if (verb == "memplan") return loupe::cli::runMemplanCommand(args);
    if (verb == "npu-stream") return loupe::cli::runNpuStreamCommand(args);
    if (verb == "operators") return loupe::cli::runOperatorsCommand(args);
    const loupe::deploy::Registries registries = loupe::plugins::builtinRegistries();
    if (verb == "info") return loupe::cli::runInfoCommand(args, registries);
    if (verb == "compile") return loupe::cli::runCompileCommand(args, registries);
    if (verb == "run") return loupe::cli::runRunCommand(args, registries);
    if (verb == "debug") return loupe::cli::runDebugCommand(args, registries);
    if (verb == "validate") return loupe::cli::runValidateCommand(args, registries);
    if (verb == "generate") return loupe::cli::runGenerateCommand(args, registries);
    if (verb == "tune") return loupe::cli::runTuneCommand(args, registries);
    if (verb == "diff") return loupe::cli::runDiffCommand(args, registries);
    if (verb == "platforms") return loupe::cli::runPlatformsCommand(args, registries);
    std::cerr << "loupec: unknown command '" << verb << "' (try loupec --help)\n";
    return 2;
  } catch (const loupe::cli::UsageError& error) {
    std::cerr << "loupec " << verb << ": " << error.what() << "\n(try loupec --help)\n";
    return 2;
  } catch (const std::exception& error) {
    // A failure caused by an interrupt's cleanup (make or QEMU killed) is
    // not reported; the signal ends the process once the cleanup is done.
    if (!loupe::deploy::interruptReceived()) {
      std::cerr << "loupec " << verb << ": error: " << error.what() << "\n";
    }
    return 1;
  }
}
