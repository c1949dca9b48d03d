// Whether a model fits a board before anything is built, and the way out of
// a refusal: when a model fits no memory plan on the chosen board, which of
// the known boards it would fit, trying them from the smallest workspace
// memory up, each with the plans fit-first tries (driver/memory_fit.h).
#pragma once

#include <optional>
#include <string>

#include "deploy/platform_registry.h"
#include "driver/compile_driver.h"
#include "memory/memory_plan.h"

namespace loupe::deploy {

// "qemu-netduinoplus2 (fits with overlapped outputs, every board's
// default: ...)" or "qemu-mps2-an385 (the plain plan)" (when the user chose
// it): the first board of `boards` other
// than `except`, smallest first, that `request` (the model, targets and
// options as the user chose them) compiles for; nothing when none does.
// Boards without a CPU of their own (the host) are left out.
std::optional<std::string> smallestBoardThatFits(const PlatformRegistry& boards,
                                                 const driver::CompileRequest& request,
                                                 const std::string& except);

// Prepares `request` for `platform` as Run on board compiles it: the board's
// CPU, and pools and constants in its memories (unless the request's pools,
// --pools, name others).
void compileForBoard(driver::CompileRequest& request, const Platform& platform);

// "the model does not fit qemu-microbit: <the planner's account>" and, given
// the request as the user chose it (prepared for the refusing board) and the
// known boards, the smallest of them it fits.
std::string boardRefusal(const Platform& platform, const memory::MemoryPlanError& error,
                         const driver::CompileRequest* request = nullptr,
                         const PlatformRegistry* knownBoards = nullptr);

// What the Deploy panel shows before a run: whether the model, compiled for
// `platform` as Run on board would (fit first unless the request chooses
// the plan), fits the board's memories, and with which plan.
struct BoardFit {
  bool limited = false;  // the board has memories of its own to fit (the host has none)
  bool fits = true;
  driver::PlanSavings plan = driver::PlanSavings::None;  // the plan it fits with
  std::string note;     // "fits with overlapped outputs, every board's default: ..."
  std::string refusal;  // why it does not fit (boardRefusal), when it does not
};
BoardFit checkBoardFit(const Platform& platform, driver::CompileRequest request,
                       const PlatformRegistry* knownBoards);

}  // namespace loupe::deploy
