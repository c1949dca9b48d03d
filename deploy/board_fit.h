// The way out of a refusal: when a model fits no memory plan on the chosen
// board, which of the known boards it would fit, trying them from the
// smallest workspace memory up, each with the plans fit-first tries
// (driver/memory_fit.h).
#pragma once

#include <optional>
#include <string>

#include "deploy/platform_registry.h"
#include "driver/compile_driver.h"

namespace loupe::deploy {

// "qemu-netduinoplus2 (fits with overlapped outputs: ...)" or
// "qemu-mps2-an385 (the plain plan)": the first board of `boards` other
// than `except`, smallest first, that `request` (the model, targets and
// options as the user chose them) compiles for; nothing when none does.
// Boards without a CPU of their own (the host) are left out.
std::optional<std::string> smallestBoardThatFits(const PlatformRegistry& boards,
                                                 const driver::CompileRequest& request,
                                                 const std::string& except);

}  // namespace loupe::deploy
