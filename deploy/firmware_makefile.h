// The Makefile of a generated firmware project. Every platform's project has
// the same shape (model/, runtime/, platform/), so one generator writes it;
// platforms give the compiler and flags. The C runtime is built as an archive
// so that a platform's own hooks (profiler ticks, abort) replace the
// runtime's defaults instead of clashing with them.
#pragma once

#include <string>
#include <vector>

namespace loupe::deploy {

struct FirmwareMakefileSpec {
  std::string title;                      // first comment line: what the project is for
  std::string compiler;                   // CC
  std::string archiver;                   // AR
  std::vector<std::string> compileFlags;  // CFLAGS besides the strict C99 warnings
  // Flags for one object only ("build/runtime/src/profiler.o"): what differs
  // from model to model stays off the other files' command lines, so that
  // ccache finds the runtime and platform objects of any earlier model built
  // for the same board.
  struct ObjectFlags {
    std::string object;
    std::vector<std::string> flags;
  };
  std::vector<ObjectFlags> objectFlags;
  std::vector<std::string> linkFlags;  // LDFLAGS
  std::vector<std::string> libraries;  // LDLIBS, after everything else
  std::string output;                  // the program: "build/firmware.elf"
  // Images made from the program for a programmer, by extension:
  // "build/firmware.bin" (raw), "build/firmware.hex" (Intel HEX); built by
  // the default goal with `objcopy`.
  std::string objcopy;
  std::vector<std::string> images;
};

std::string firmwareMakefile(const FirmwareMakefileSpec& spec);

}  // namespace loupe::deploy
