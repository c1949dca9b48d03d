#include "driver/memory_fit.h"

#include <cstdio>

#include "ir/graph_printer.h"

namespace loupe::driver {

std::string planSavingsName(PlanSavings savings) {
  switch (savings) {
    case PlanSavings::None:
      return "the plain plan";
    case PlanSavings::OverlapOutputs:
      return "overlapped outputs";
    case PlanSavings::Patches:
      return "patches";
    case PlanSavings::OverlapsAndPatches:
      return "overlapped outputs and patches";
  }
  return "?";
}

PlanSavings planSavingsOf(const codegen::CompileOptions& options) {
  const bool overlaps = options.memory.overlapOutputs, patches = options.memory.patches;
  if (overlaps && patches) return PlanSavings::OverlapsAndPatches;
  if (patches) return PlanSavings::Patches;
  return overlaps ? PlanSavings::OverlapOutputs : PlanSavings::None;
}

void applyPlanSavings(codegen::CompileOptions& options, PlanSavings savings) {
  options.memory.overlapOutputs =
      savings == PlanSavings::OverlapOutputs || savings == PlanSavings::OverlapsAndPatches;
  options.memory.patches =
      savings == PlanSavings::Patches || savings == PlanSavings::OverlapsAndPatches;
}

namespace {

std::string fitLine(const codegen::CompiledModel& model, PlanSavings savings,
                    const std::string& which) {
  std::int64_t capacity = 0;
  for (const memory::MemoryPool& pool : model.memoryPlan.pools) capacity += pool.size;
  return "fits with " + planSavingsName(savings) + which + ": " +
         ir::groupDigits(model.workspaceBytes()) + " of " + ir::groupDigits(capacity) +
         " workspace bytes";
}

}  // namespace

std::string planFitLine(const codegen::CompiledModel& model, PlanSavings savings) {
  return fitLine(model, savings, "");
}

std::string MemoryFit::summary(const codegen::CompiledModel& model) const {
  if (!fitted) return {};
  std::string line =
      fitLine(model, applied, searched ? std::string() : std::string(", every board's default"));
  if (searched && !refused.empty() && refused.front().shortBytes > 0) {
    line += " (" + planSavingsName(refused.front().savings) + " alone " +
            (refused.front().savings == PlanSavings::OverlapOutputs ? "are " : "is ") +
            ir::groupDigits(refused.front().shortBytes) + " bytes short)";
  }
  if (model.patches) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", model.patches->analysis.extraMacsPercent());
    line += "; recomputes " + std::string(percent) + " of the model's MACs (estimated cost)";
  } else {
    line += "; no extra work";
  }
  return line;
}

const RefusedPlan* closestRefusedPlan(const std::vector<RefusedPlan>& refused) {
  const RefusedPlan* closest = nullptr;
  for (const RefusedPlan& plan : refused) {
    if (plan.shortBytes >= 0 && (closest == nullptr || plan.shortBytes < closest->shortBytes)) {
      closest = &plan;
    }
  }
  return closest;
}

std::string describeNoPlanFits(const std::vector<RefusedPlan>& refused) {
  std::string text = "no memory plan Loupe has fits:";
  for (const RefusedPlan& plan : refused) {
    text += "\n  " + planSavingsName(plan.savings) + ": ";
    text += plan.shortBytes >= 0 ? ir::groupDigits(plan.shortBytes) + " bytes short" : "refused";
    text += " (" + plan.reason + ")";
  }
  if (const RefusedPlan* closest = closestRefusedPlan(refused)) {
    text += "\nThe closest is " + planSavingsName(closest->savings) + ", " +
            ir::groupDigits(closest->shortBytes) + " bytes short.";
  }
  return text;
}

}  // namespace loupe::driver
