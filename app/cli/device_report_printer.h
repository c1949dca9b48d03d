// `loupec compile`'s device report on stdout: per device the operators, MACs
// and estimated cycles (always), and with --report one row per operator with
// its target's performance estimate (Vela's per-layer report, for our NPU)
// and, for a target with a configuration, the estimate at every one of them.
#pragma once

#include <ostream>

#include "ir/graph.h"
#include "target/device_report.h"
#include "target/target_registry.h"

namespace loupe::cli {

void printDeviceTotals(std::ostream& out, const target::DeviceReport& report);

void printOperatorEstimates(std::ostream& out, const ir::Graph& partitioned,
                            const target::DeviceReport& report, const target::TargetList& targets,
                            const target::TargetRegistry& registry);

}  // namespace loupe::cli
