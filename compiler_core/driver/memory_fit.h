// Fit first: a board's plan has overlapped outputs (an output written over
// the inputs that die with it), which cost no work; when that does not fit
// the board's memories, patches (the first high-resolution operators run
// strip by strip, recomputing the rows two strips share) are added, then
// tried alone, and the first plan that fits is the one compiled. A choice the
// user forces (--overlap-outputs, --patches, --plain-plan) is not
// second-guessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "codegen/model_compiler.h"

namespace loupe::driver {

// The memory plans a board can be given.
enum class PlanSavings { None, OverlapOutputs, Patches, OverlapsAndPatches };

// Every board's plan unless it needs more or the user chooses:
// loupe_memory_savings_bench measured overlapped outputs at -0.32% to +0.20%
// instructions against the plain plan for the seven shared models on the M3,
// M4 and M55 boards, for up to 47% fewer workspace bytes.
inline constexpr PlanSavings kBoardDefaultPlan = PlanSavings::OverlapOutputs;

// The plans fit-first tries, cheapest first: the default, then patches with
// it (+3.5-9.5% instructions on vww and person_detect), then patches alone
// (+12-22%, and more bytes than with overlaps: tried for a refusal's account
// of every plan). The plain plan is never smaller than overlapped outputs,
// so it is not tried; --plain-plan asks for it.
inline constexpr PlanSavings kPlanSavingsInOrder[] = {
    kBoardDefaultPlan, PlanSavings::OverlapsAndPatches, PlanSavings::Patches};

// "the plain plan", "overlapped outputs", "patches", "overlapped outputs and patches"
std::string planSavingsName(PlanSavings savings);

// The savings `options` asks for (its memory.overlapOutputs and .patches).
PlanSavings planSavingsOf(const codegen::CompileOptions& options);
void applyPlanSavings(codegen::CompileOptions& options, PlanSavings savings);

// A plan that did not fit: why (the planner's words) and how many bytes
// the best plan of its kind lacked (-1 when unknown).
struct RefusedPlan {
  PlanSavings savings = PlanSavings::None;
  std::string reason;
  std::int64_t shortBytes = -1;
};

// What the compile driver did to fit the board (Compilation::fit).
struct MemoryFit {
  bool fitted = false;    // the plan was chosen for the board's memories
  bool searched = false;  // ... and the default did not fit: others were tried
  PlanSavings applied = PlanSavings::None;
  std::vector<RefusedPlan> refused;  // in the order tried, before `applied`

  // One line for the CLI and the GUI, when the plan was fitted:
  // "fits with overlapped outputs, every board's default: 8,640 of 10,912
  // workspace bytes; no extra work", or when the default did not fit "fits
  // with overlapped outputs and patches: 19,360 of 20,480 workspace bytes
  // (overlapped outputs alone are 16,448 bytes short); recomputes 3.1% of the
  // model's MACs (estimated cost)" — or "" when it was not fitted.
  std::string summary(const codegen::CompiledModel& model) const;
};

// "fits with overlapped outputs: 8,640 of 10,912 workspace bytes": the
// workspace `model` was planned in, with `savings`, against its pools.
std::string planFitLine(const codegen::CompiledModel& model, PlanSavings savings);

// The refused plan that lacked the fewest bytes, or nullptr when none says.
const RefusedPlan* closestRefusedPlan(const std::vector<RefusedPlan>& refused);

// Why no plan fits, every plan tried with its shortfall, and the closest.
std::string describeNoPlanFits(const std::vector<RefusedPlan>& refused);

}  // namespace loupe::driver
