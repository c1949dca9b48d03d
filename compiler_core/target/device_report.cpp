#include "target/device_report.h"

#include <algorithm>

#include "analysis/operator_cost.h"

namespace loupe::target {

namespace {

nlohmann::json estimateJson(const std::optional<OperatorEstimate>& estimate) {
  if (!estimate) return nullptr;
  return {{"compute_cycles", estimate->computeCycles},
          {"memory_cycles", estimate->memoryCycles},
          {"estimated_cycles", estimate->estimatedCycles},
          {"bytes_moved", estimate->bytesMoved},
          {"utilization", estimate->utilization},
          {"raw_weight_bytes", estimate->rawWeightBytes},
          {"encoded_weight_bytes", estimate->encodedWeightBytes}};
}

}  // namespace

std::string deviceOf(const Target& target) {
  const std::optional<codegen::ExternalLowering> lowering = target.externalLowering();
  if (lowering) return lowering->device;
  // An accelerator the host's code drives (the Ethos-U through its driver).
  if (target.regionOperatorCompiler()) return target.name();
  return kHostDeviceName;
}

DeviceReport deviceReport(const ir::Graph& partitioned, const TargetList& targets) {
  DeviceReport report;
  for (const auto& t : targets) {
    DeviceTotals totals;
    totals.device = deviceOf(*t);
    totals.target = t->toString();
    totals.displayName = t->displayName();
    report.devices.push_back(std::move(totals));
  }
  int compiledRegions = 0;
  for (const ir::Operator& op : partitioned.operators) {
    OperatorPlacementRow row;
    row.operatorIndex = op.index;
    row.name = op.outputs.empty() ? std::string() : partitioned.tensor(op.outputs[0]).name;
    row.type = op.typeName();
    row.target = op.placement.target;
    row.region = ir::regionName(partitioned, op);
    // A region compiled to one operator (the Ethos-U's) is a region still.
    if (row.region.empty() && op.type == ir::OpType::EthosU && !op.placement.target.empty()) {
      row.region = op.placement.target + "_" + std::to_string(compiledRegions++);
    }
    row.macs = analysis::operatorCost(partitioned, op).macs;
    for (const ir::TargetRejection& rejection : op.placement.rejections) {
      for (const std::string& reason : rejection.reasons) {
        row.rejections.push_back(rejection.target + ": " + reason);
      }
    }
    const auto position = std::find_if(targets.begin(), targets.end(), [&](const auto& t) {
      return t->name() == op.placement.target;
    });
    if (position != targets.end()) {
      const Target& target = **position;
      row.device = deviceOf(target);
      row.estimate = target.estimate(partitioned, op);
      DeviceTotals& totals = report.devices[static_cast<std::size_t>(position - targets.begin())];
      ++totals.operators;
      totals.macs += row.macs;
      if (row.estimate) {
        totals.estimatedCycles = totals.estimatedCycles.value_or(0) + row.estimate->estimatedCycles;
      }
    }
    report.operators.push_back(std::move(row));
  }
  return report;
}

void addDeviceReport(nlohmann::json& deviceMapping, const DeviceReport& report) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceTotals& d : report.devices) {
    devices.push_back({{"device", d.device},
                       {"target", d.target},
                       {"display_name", d.displayName},
                       {"operators", d.operators},
                       {"macs", d.macs},
                       {"estimated_cycles", d.estimatedCycles ? nlohmann::json(*d.estimatedCycles)
                                                              : nlohmann::json(nullptr)}});
  }
  deviceMapping["devices"] = std::move(devices);
  nlohmann::json& operators = deviceMapping["operators"];
  for (const OperatorPlacementRow& row : report.operators) {
    for (nlohmann::json& entry : operators) {
      if (entry.value("index", -1) != row.operatorIndex) continue;
      entry["device"] = row.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.device);
      entry["macs"] = row.macs;
      entry["estimate"] = estimateJson(row.estimate);
    }
  }
}

std::vector<ConfigurationEstimates> estimatesAcrossConfigurations(const ir::Graph& partitioned,
                                                                  const Target& target,
                                                                  const TargetRegistry& registry) {
  std::vector<ConfigurationEstimates> sweep;
  const TargetKind* kind = registry.find(target.name());
  if (kind == nullptr) return sweep;
  for (const TargetOptionSpec& option : kind->options) {
    if (!option.configuration || option.allowedValues.size() < 2) continue;
    for (const std::string& value : option.allowedValues) {
      TargetOptions options = target.options();
      options[option.key] = value;
      const std::shared_ptr<const Target> variant = kind->create(options);
      ConfigurationEstimates row{variant->toString(), value, {}};
      bool any = false;
      for (const ir::Operator& op : partitioned.operators) {
        std::optional<std::int64_t> cycles;
        if (op.placement.target == target.name()) {
          if (const auto estimate = variant->estimate(partitioned, op)) {
            cycles = estimate->estimatedCycles;
            any = true;
          }
        }
        row.cyclesByOperator.push_back(cycles);
      }
      if (!any) return {};
      sweep.push_back(std::move(row));
    }
  }
  return sweep;
}

}  // namespace loupe::target
