// The per-operator profile of one run on a board: what the board's profiler
// measured for each operator call, in the platform's unit, with the
// operator's type and MACs from the compiler. Written as Loupe's profile JSON
// and as a Chrome trace (chrome://tracing, Perfetto) next to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"

namespace loupe::deploy {

// One call of the AOT run function: an operator, or a region of operators
// compiled as one function (an NPU region), which the board times as one.
struct OperatorTime {
  int operatorIndex = -1;      // the call's (first) operator: its profiler entry
  std::vector<int> operators;  // every operator the call ran
  std::string name;            // the generated C function, e.g. tvmgen_default_npu_0
  std::string type;            // "CONV_2D"; a region: "CONV_2D+DEPTHWISE_CONV_2D+..."
  double time = 0;             // in RunProfile::unit
  std::int64_t macs = 0;
  bool npu = false;  // an Ethos-U operator: the CPU only starts the NPU and waits
};

// A call's MACs per unit of time against `peakMacsPerUnit`, in percent:
// nothing without a peak, MACs or time, for an NPU call or for an operator
// whose MACs no MAC instruction does (mac_peak.h, isMacKernelOperator).
std::optional<double> percentOfPeak(const OperatorTime& call, double peakMacsPerUnit);

struct RunProfile {
  std::string unit;                     // "instructions" or "ns"
  double total = 0;                     // the whole run, measured around it on the board
  std::vector<OperatorTime> operators;  // one per call (operator or region), in call order
  // The core's most MACs per instruction (mac_peak.h) when the unit is
  // instructions and the core is known; 0 otherwise.
  double peakMacsPerUnit = 0;

  double operatorSum() const;
  // The call's share of this profile's peak (the free function below).
  std::optional<double> percentOfPeak(const OperatorTime& call) const;
  // The time of each operator of the compiled graph (`operatorCount` of
  // them; 0 for one no call ran): a call that ran several (an NPU region) is
  // shared evenly among them, since the board times the call as one.
  std::vector<double> timePerOperator(std::size_t operatorCount) const;
};

// One board profiler entry: the calls of an operator and the ticks of its
// last call, indexed by the graph operator index.
struct ProfilerEntry {
  std::uint32_t calls = 0;
  std::uint64_t ticks = 0;
};

// Joins the board's entries with the model's calls. Throws std::runtime_error
// when an operator the model calls has no entry or did not run exactly once.
RunProfile makeRunProfile(const codegen::CompiledModel& model,
                          const std::vector<ProfilerEntry>& entries, std::uint64_t totalTicks,
                          const std::string& unit, double unitsPerTick);

// {"unit", "total", "peak_macs_per_instruction" (when known), "operators":
// [{"name", "type", "time", "macs", "index", "percent_of_peak" (when known)}]}
std::string runProfileJson(const RunProfile& profile);
// Trace Event Format: one complete event per operator call, back to back.
std::string chromeTraceJson(const RunProfile& profile, const std::string& modelName);

}  // namespace loupe::deploy
