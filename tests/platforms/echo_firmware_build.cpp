#include "echo_firmware_build.h"

namespace loupe::test {

std::vector<std::string> echoFirmwareBuildCommand(const BoardDescription& board,
                                                  const std::filesystem::path& platformsDirectory,
                                                  const std::filesystem::path& elf) {
  const std::filesystem::path common = platformsDirectory / "common";
  const std::filesystem::path echo = platformsDirectory / "templates" / "echo";
  std::vector<std::string> command = {
      "arm-none-eabi-gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2", "-g",
      "-mcpu=" + board.cpu, "-mthumb", "-mfloat-abi=" + board.floatAbi,
      // No C library: the start-up code's copy loops must stay loops.
      "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-nostdlib", "-L" + common.string(),
      "-T", (board.directory / "linker.ld").string(), "-I" + common.string(),
      "-I" + board.directory.string(), "-I" + echo.string()};
  if (!board.fpu.empty()) command.push_back("-mfpu=" + board.fpu);
  command.insert(command.end(),
                 {(common / "cortex_m_vectors.c").string(),
                  (common / "cortex_m_startup.c").string(), (common / "semihosting.c").string(),
                  (platformsDirectory / "uarts" / (board.uartDriver + ".c")).string(),
                  (echo / "echo_main.c").string()});
  if (std::filesystem::exists(board.directory / "board_init.c")) {
    command.push_back((board.directory / "board_init.c").string());
  }
  command.insert(command.end(), {"-lgcc", "-o", elf.string()});
  return command;
}

}  // namespace loupe::test
