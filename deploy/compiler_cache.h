// ccache in front of the C compilers Loupe runs for firmware and host builds.
// The C runtime and the board files are the same in every build for a board,
// and most operator functions survive a change of plan or options, so with
// ccache installed a build compiles only what changed. LOUPE_NO_CCACHE=1
// turns it off.
#pragma once

#include <optional>
#include <string>

namespace loupe::deploy {

// "ccache" when it is installed and not turned off, else nothing.
std::optional<std::string> compilerCache();

}  // namespace loupe::deploy
