#include "tuning/schedule_fit.h"

#include <set>
#include <stdexcept>

namespace loupe::tuning {

lowering::ScheduleTable schedulesThatFit(const lowering::ScheduleTable& offered,
                                         const ir::Graph& graph, target::CpuIsa isa) {
  lowering::ScheduleTable fitting;
  if (offered.empty()) return fitting;
  std::set<int> inRegions;
  for (const ir::ExternalFunction& region : graph.externalFunctions) {
    inRegions.insert(region.operators.begin(), region.operators.end());
  }
  // Keys whose schedule one of their operators refused: equal keys have
  // equal spaces, but one refusal is enough to leave the key out.
  std::set<std::string> refused;
  for (const ir::Operator& op : graph.operators) {
    if (inRegions.contains(op.index)) continue;
    std::string key;
    try {
      key = lowering::workloadKey(graph, op, isa);
    } catch (const std::exception&) {
      continue;  // an operator the C lowering does not key has no schedule
    }
    const auto entry = offered.find(key);
    if (entry == offered.end() || refused.contains(key)) continue;
    try {
      lowering::checkSchedule(lowering::scheduleSpace(graph, op, isa), entry->second);
      fitting.insert(*entry);
    } catch (const std::exception&) {
      refused.insert(key);
      fitting.erase(key);
    }
  }
  return fitting;
}

}  // namespace loupe::tuning
