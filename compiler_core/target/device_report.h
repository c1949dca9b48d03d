// Which device runs each operator of a partitioned graph and what it costs
// there: the operator's target, its device (the member of the generated
// `struct tvmgen_<name>_devices` its call gets; "host" for the CPU), its MACs
// and its target's estimate, and per device the totals. `loupec compile`
// prints it (per operator with --report), metadata.json carries it under
// device_mapping, and the GUI's Device Mapping view shows it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/graph.h"
#include "target/operator_estimate.h"
#include "target/target_registry.h"
#include "target/target_string.h"

namespace loupe::target {

// The device of operators on the CPU target: the application's own processor.
inline constexpr const char* kHostDeviceName = "host";

struct OperatorPlacementRow {
  int operatorIndex = 0;
  std::string name;    // the operator's output tensor, as the graph names it
  std::string type;    // "CONV_2D"
  std::string target;  // "ethos-u", "c"; empty when no target took it
  std::string device;  // "ethos-u", "host"; empty when no target took it
  // "npu_0", "ethos-u_0" (a region compiled to one operator); empty for
  // operators in main.
  std::string region;
  std::int64_t macs = 0;
  std::optional<OperatorEstimate> estimate;  // none on a target without a model
  std::vector<std::string> rejections;       // "npu: stride 4 exceeds 3", one per reason
};

struct DeviceTotals {
  std::string device;       // "ethos-u"
  std::string target;       // "ethos-u -accelerator_config=ethos-u55-128"
  std::string displayName;  // "Ethos-U ethos-u55-128"
  int operators = 0;
  std::int64_t macs = 0;
  // The sum of the estimates; none when the target has no cycle model.
  std::optional<std::int64_t> estimatedCycles;
};

struct DeviceReport {
  std::vector<OperatorPlacementRow> operators;  // in the graph's order
  std::vector<DeviceTotals> devices;            // in the target list's order
};

DeviceReport deviceReport(const ir::Graph& partitioned, const TargetList& targets);

// The device an operator on `target` runs on: its external lowering's device,
// the target itself for one whose regions become operators the host's code
// hands to it ("ethos-u"), else the host.
std::string deviceOf(const Target& target);

// Adds the report to a device mapping (analysis::deviceMappingJson of the
// same graph): "devices" with each device's totals, and to each operator its
// "device", "macs" and "estimate" (null without a cycle model).
void addDeviceReport(nlohmann::json& deviceMapping, const DeviceReport& report);

// The estimated cycles of every operator `target` accepts, for each value of
// each of its kind's options that has a choice ("ethos-u55-32" ... "ethos-u65-256"), so a
// report can show how the configuration changes them. Empty for a target
// whose kind has no such option or no performance model.
struct ConfigurationEstimates {
  std::string configuration;  // "ethos-u -accelerator_config=ethos-u55-32"
  std::string label;          // the option's value: "ethos-u55-32"
  std::vector<std::optional<std::int64_t>> cyclesByOperator;  // in the graph's order
};
std::vector<ConfigurationEstimates> estimatesAcrossConfigurations(const ir::Graph& partitioned,
                                                                  const Target& target,
                                                                  const TargetRegistry& registry);

}  // namespace loupe::target
