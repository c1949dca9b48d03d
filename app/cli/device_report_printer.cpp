#include "cli/device_report_printer.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "ir/graph_printer.h"

namespace loupe::cli {

namespace {

constexpr const char* kNone = "-";

std::string cycles(const std::optional<std::int64_t>& value) {
  return value ? ir::groupDigits(*value) : std::string(kNone);
}

std::string percent(double fraction) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << 100.0 * fraction << "%";
  return text.str();
}

}  // namespace

void printDeviceTotals(std::ostream& out, const target::DeviceReport& report) {
  out << "devices:\n";
  for (const target::DeviceTotals& d : report.devices) {
    out << "  " << std::left << std::setw(9) << d.device << std::setw(30) << d.displayName
        << std::right << std::setw(5) << d.operators << " operator(s)" << std::setw(16)
        << ir::groupDigits(d.macs) << " MACs  "
        << (d.estimatedCycles ? ir::groupDigits(*d.estimatedCycles) + " estimated cycles"
                              : std::string("no cycle model"))
        << "\n";
  }
}

void printOperatorEstimates(std::ostream& out, const ir::Graph& partitioned,
                            const target::DeviceReport& report, const target::TargetList& targets,
                            const target::TargetRegistry& registry) {
  out << "per operator (cycles from each target's performance model; '-' where it has none):\n"
      << std::right << std::setw(5) << "op"
      << "  " << std::left << std::setw(20) << "type" << std::setw(9) << "device" << std::right
      << std::setw(13) << "MACs" << std::setw(11) << "compute" << std::setw(11) << "memory"
      << std::setw(11) << "estimated" << std::setw(8) << "util"
      << "  weights encoded/raw\n";
  for (const target::OperatorPlacementRow& row : report.operators) {
    const auto& e = row.estimate;
    std::string weights = kNone;
    if (e && e->rawWeightBytes > 0) {
      weights = ir::groupDigits(e->encodedWeightBytes) + "/" + ir::groupDigits(e->rawWeightBytes);
    }
    out << std::right << std::setw(5) << row.operatorIndex << "  " << std::left << std::setw(20)
        << row.type << std::setw(9) << (row.device.empty() ? kNone : row.device) << std::right
        << std::setw(13) << ir::groupDigits(row.macs) << std::setw(11)
        << cycles(e ? std::optional(e->computeCycles) : std::nullopt) << std::setw(11)
        << cycles(e ? std::optional(e->memoryCycles) : std::nullopt) << std::setw(11)
        << cycles(e ? std::optional(e->estimatedCycles) : std::nullopt) << std::setw(8)
        << (e ? percent(e->utilization) : std::string(kNone)) << "  " << weights << "\n";
  }
  for (const auto& t : targets) {
    const auto sweep = target::estimatesAcrossConfigurations(partitioned, *t, registry);
    if (sweep.empty()) continue;
    out << "estimated cycles of the " << t->displayName() << " operators in each configuration:\n"
        << std::right << std::setw(5) << "op"
        << "  " << std::left << std::setw(20) << "type";
    // Wide enough for "ethos-u65-256" and a total of millions of cycles.
    int width = 12;
    for (const auto& column : sweep)
      width = std::max(width, static_cast<int>(column.label.size()) + 2);
    for (const auto& column : sweep) out << std::right << std::setw(width) << column.label;
    out << "\n";
    std::vector<std::int64_t> totals(sweep.size(), 0);
    for (std::size_t i = 0; i < partitioned.operators.size(); ++i) {
      if (!sweep.front().cyclesByOperator[i]) continue;
      out << std::right << std::setw(5) << partitioned.operators[i].index << "  " << std::left
          << std::setw(20) << partitioned.operators[i].typeName();
      for (std::size_t c = 0; c < sweep.size(); ++c) {
        const auto value = sweep[c].cyclesByOperator[i];
        totals[c] += value.value_or(0);
        out << std::right << std::setw(width) << cycles(value);
      }
      out << "\n";
    }
    out << std::right << std::setw(5) << ""
        << "  " << std::left << std::setw(20) << "total";
    for (std::int64_t total : totals) {
      out << std::right << std::setw(width) << ir::groupDigits(total);
    }
    out << "\n";
  }
}

}  // namespace loupe::cli
