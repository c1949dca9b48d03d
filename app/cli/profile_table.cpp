#include "cli/profile_table.h"

#include <cstdio>

#include "ir/graph_printer.h"

namespace loupe::cli {

namespace {

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string padded(std::string text, std::size_t width, bool left = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return left ? text + fill : fill + text;
}

}  // namespace

void printProfileTable(std::ostream& out, const deploy::RunProfile& profile,
                       const std::string& cpu) {
  const bool instructions = profile.unit == "instructions";
  if (profile.peakMacsPerUnit > 0) {
    out << "peak: " << fixed(profile.peakMacsPerUnit, 0) << " int8 MACs per instruction (" << cpu
        << ")\n";
  } else {
    out << "peak: none known for " << (cpu.empty() ? std::string("this platform") : cpu)
        << (instructions ? "" : " (times in " + profile.unit + ")") << "\n";
  }
  out << padded("op", 5) << "  " << padded("type", 24, true) << padded(profile.unit, 14)
      << padded("MACs", 12) << padded("MACs/instr", 12) << padded("% of peak", 11) << "\n";
  for (const deploy::OperatorTime& call : profile.operators) {
    std::string type = call.type.size() > 22 ? call.type.substr(0, 21) + "~" : call.type;
    const bool rate = instructions && call.time > 0 && call.macs > 0 && !call.npu;
    const auto percent = profile.percentOfPeak(call);
    out << padded(std::to_string(call.operatorIndex), 5) << "  " << padded(type, 24, true)
        << padded(ir::groupDigits(static_cast<std::int64_t>(call.time)), 14)
        << padded(ir::groupDigits(call.macs), 12)
        << padded(rate ? fixed(static_cast<double>(call.macs) / call.time, 2) : "-", 12)
        << padded(percent ? fixed(*percent, 1) : "-", 11) << "\n";
  }
}

}  // namespace loupe::cli
