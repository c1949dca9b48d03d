#include "echo_firmware_build.h"

namespace loupe::test {

std::vector<std::string> echoFirmwareBuildCommand(const BoardDescription& board,
                                                  const std::filesystem::path& platformsDirectory,
                                                  const std::filesystem::path& elf) {
  const std::filesystem::path common = platformsDirectory / "common";
  const std::filesystem::path echo = platformsDirectory / "templates" / "echo";
  return {"arm-none-eabi-gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2", "-g",
          "-mcpu=" + board.cpu, "-mthumb", "-mfloat-abi=" + board.floatAbi,
          // No C library: the start-up code's copy loops must stay loops.
          "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-nostdlib", "-T",
          (board.directory / "linker.ld").string(), "-I" + common.string(),
          "-I" + board.directory.string(), "-I" + echo.string(),
          (common / "cortex_m_vectors.c").string(), (common / "cortex_m_startup.c").string(),
          (common / "cmsdk_uart.c").string(), (common / "semihosting.c").string(),
          (echo / "echo_main.c").string(), "-lgcc", "-o", elf.string()};
}

}  // namespace loupe::test
