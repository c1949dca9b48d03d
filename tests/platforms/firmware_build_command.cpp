#include "firmware_build_command.h"

namespace loupe::test {

std::vector<std::string> boardFirmwareCommand(const BoardDescription& board,
                                              const std::filesystem::path& platformsDirectory,
                                              const std::string& optimisation) {
  const std::filesystem::path common = platformsDirectory / "common";
  std::vector<std::string> command = {
      "arm-none-eabi-gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", optimisation,
      "-g", "-mcpu=" + board.cpu, "-mthumb", "-mfloat-abi=" + board.floatAbi,
      // No C library: the start-up code's copy loops must stay loops.
      "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-nostdlib",
      // The linker scripts INCLUDE common/cortex_m_sections.ld.
      "-L" + common.string(), "-T", (board.directory / "linker.ld").string(),
      "-I" + common.string(), "-I" + board.directory.string()};
  if (!board.fpu.empty()) command.push_back("-mfpu=" + board.fpu);
  for (const char* file : {"cortex_m_vectors.c", "cortex_m_startup.c", "semihosting.c"}) {
    command.push_back((common / file).string());
  }
  command.push_back((platformsDirectory / "uarts" / (board.uartDriver + ".c")).string());
  if (std::filesystem::exists(board.directory / "board_init.c")) {
    command.push_back((board.directory / "board_init.c").string());
  }
  return command;
}

std::vector<std::string> echoFirmwareBuildCommand(const BoardDescription& board,
                                                  const std::filesystem::path& platformsDirectory,
                                                  const std::filesystem::path& elf) {
  const std::filesystem::path echo = platformsDirectory / "templates" / "echo";
  std::vector<std::string> command = boardFirmwareCommand(board, platformsDirectory, "-O2");
  command.insert(command.end(), {"-I" + echo.string(), (echo / "echo_main.c").string(), "-lgcc",
                                 "-o", elf.string()});
  return command;
}

}  // namespace loupe::test
