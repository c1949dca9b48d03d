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

std::string planFitLine(const codegen::CompiledModel& model, PlanSavings savings) {
  std::int64_t capacity = 0;
  for (const memory::MemoryPool& pool : model.memoryPlan.pools) capacity += pool.size;
  return "fits with " + planSavingsName(savings) + ": " + ir::groupDigits(model.workspaceBytes()) +
         " of " + ir::groupDigits(capacity) + " workspace bytes";
}

std::string MemoryFit::summary(const codegen::CompiledModel& model) const {
  if (!searched) return {};
  std::string line = planFitLine(model, applied);
  if (!refused.empty() && refused.front().shortBytes > 0) {
    line += " (the plain plan is " + ir::groupDigits(refused.front().shortBytes) + " bytes short)";
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
