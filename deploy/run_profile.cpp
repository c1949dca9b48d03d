#include "deploy/run_profile.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/operator_cost.h"
#include "deploy/mac_peak.h"

namespace loupe::deploy {

double RunProfile::operatorSum() const {
  double sum = 0;
  for (const auto& op : operators) sum += op.time;
  return sum;
}

std::optional<double> percentOfPeak(const OperatorTime& call, double peakMacsPerUnit) {
  if (peakMacsPerUnit <= 0 || call.macs <= 0 || call.time <= 0 || call.npu ||
      !isMacKernelOperator(call.type)) {
    return std::nullopt;
  }
  return 100.0 * static_cast<double>(call.macs) / (call.time * peakMacsPerUnit);
}

std::optional<double> RunProfile::percentOfPeak(const OperatorTime& call) const {
  return deploy::percentOfPeak(call, peakMacsPerUnit);
}

std::vector<double> RunProfile::timePerOperator(std::size_t operatorCount) const {
  std::vector<double> times(operatorCount, 0.0);
  for (const OperatorTime& call : operators) {
    for (int op : call.operators) {
      if (op >= 0 && static_cast<std::size_t>(op) < operatorCount) {
        times[static_cast<std::size_t>(op)] +=
            call.time / static_cast<double>(call.operators.size());
      }
    }
  }
  return times;
}

RunProfile makeRunProfile(const codegen::CompiledModel& model,
                          const std::vector<ProfilerEntry>& entries, std::uint64_t totalTicks,
                          const std::string& unit, double unitsPerTick) {
  RunProfile profile;
  profile.unit = unit;
  profile.total = static_cast<double>(totalTicks) * unitsPerTick;
  for (const codegen::OperatorCall& call : model.calls) {
    const auto index = static_cast<std::size_t>(call.operatorIndex);
    if (index >= entries.size() || entries[index].calls != 1) {
      throw std::runtime_error(
          "the board's profile has " +
          (index >= entries.size() ? std::string("no entry")
                                   : std::to_string(entries[index].calls) + " calls") +
          " for operator " + std::to_string(call.operatorIndex) + " (expected one call per run)");
    }
    const ir::Operator& op = model.graph.operators.at(index);
    OperatorTime time;
    time.operatorIndex = call.operatorIndex;
    time.operators = call.operators.empty() ? std::vector<int>{call.operatorIndex} : call.operators;
    time.name = model.functions.at(call.function).name;
    // A region call (one NPU function) is one row: its type lists the
    // operators it ran, its MACs are theirs together.
    for (int member : time.operators) {
      const ir::Operator& memberOp = model.graph.operators.at(static_cast<std::size_t>(member));
      time.macs += analysis::operatorCost(model.graph, memberOp).macs;
      if (time.operators.size() > 1) {
        time.type += (time.type.empty() ? "" : "+") + memberOp.typeName();
      }
    }
    if (time.operators.size() <= 1) time.type = op.typeName();
    time.npu = op.type == ir::OpType::EthosU;
    time.time = static_cast<double>(entries[index].ticks) * unitsPerTick;
    profile.operators.push_back(std::move(time));
  }
  return profile;
}

std::string runProfileJson(const RunProfile& profile) {
  nlohmann::ordered_json root;
  root["unit"] = profile.unit;
  root["total"] = profile.total;
  // What the operators do not account for: the call into the model and back,
  // before its first and after its last profiler mark (the glue between
  // operators is charged to the operator that follows it).
  root["unattributed"] = profile.total - profile.operatorSum();
  if (profile.peakMacsPerUnit > 0) root["peak_macs_per_instruction"] = profile.peakMacsPerUnit;
  root["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : profile.operators) {
    nlohmann::ordered_json entry = {{"name", op.name},
                                    {"type", op.type},
                                    {"time", op.time},
                                    {"macs", op.macs},
                                    {"index", op.operatorIndex}};
    if (const auto percent = profile.percentOfPeak(op)) entry["percent_of_peak"] = *percent;
    root["operators"].push_back(std::move(entry));
  }
  return root.dump(2) + "\n";
}

std::string chromeTraceJson(const RunProfile& profile, const std::string& modelName) {
  // Trace timestamps are microseconds: nanoseconds are scaled; instructions
  // are shown one per microsecond (the unit is named in the metadata).
  const double scale = profile.unit == "ns" ? 1e-3 : 1.0;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 1},
                    {"args", {{"name", modelName + " (" + profile.unit + ")"}}}});
  double start = 0;
  for (const auto& op : profile.operators) {
    events.push_back(
        {{"name", op.name},
         {"cat", op.type},
         {"ph", "X"},
         {"ts", start * scale},
         {"dur", op.time * scale},
         {"pid", 1},
         {"tid", 1},
         {"args", {{"type", op.type}, {"macs", op.macs}, {"index", op.operatorIndex}}}});
    start += op.time;
  }
  nlohmann::ordered_json root;
  root["traceEvents"] = std::move(events);
  root["displayTimeUnit"] = "ns";
  root["otherData"] = {{"unit", profile.unit}, {"total", profile.total}};
  return root.dump(1) + "\n";
}

}  // namespace loupe::deploy
