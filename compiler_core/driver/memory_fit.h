// Fit first: when the plain memory plan does not fit a board's memories, the
// memory savings Loupe has are tried in order of what they cost, and the first
// that fits is the one compiled. Overlapped outputs (an output written over
// the inputs that die with it) cost no work; patches (the first
// high-resolution operators run strip by strip) recompute the rows two strips
// share; both together save the most. A choice the user forces
// (--overlap-outputs, --patches, --plain-plan) is not second-guessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"

namespace loupe::driver {

// The memory plans a board can be given.
enum class PlanSavings { None, OverlapOutputs, Patches, OverlapsAndPatches };

// Cheapest first, as loupe_memory_savings_bench measured them: overlapped
// outputs cost at most 0.2% instructions (kws, vww, ic on the M3, M4, M55);
// patches with them cost 5-7.5% on vww and need fewer bytes than patches
// alone, which cost 14-20%, so patches alone come last (tried for a
// refusal's account of every plan).
inline constexpr PlanSavings kPlanSavingsInOrder[] = {
    PlanSavings::None, PlanSavings::OverlapOutputs, PlanSavings::OverlapsAndPatches,
    PlanSavings::Patches};

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
  bool searched = false;  // the plain plan did not fit and others were tried
  PlanSavings applied = PlanSavings::None;
  std::vector<RefusedPlan> refused;  // in the order tried, before `applied`

  // One line for the CLI and the GUI, when the plan was searched:
  // "fits with overlapped outputs: 8,640 of 10,912 workspace bytes (the plain
  // plan is 5,344 bytes short); no extra work" — or "" when it was not.
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
