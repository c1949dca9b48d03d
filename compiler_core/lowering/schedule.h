// Schedules (AutoTVM's knobs, rfcs/003): the choices an operator's lowering
// leaves open, and one choice of each. Every C operator has
//   kernel  "simd" (the board's kernel of lowering/simd_lowering.h) or
//           "loops" (the portable loop nests), where a kernel covers the
//           operator on that instruction set;
//   unroll  1, 2, 4 or 8: how far the C compiler is asked to unroll the
//           innermost loops (1: as it chooses itself);
// and a kernel may add knobs of its own variants (simdKernelKnobs):
//   channels MVE CONV_2D: output channels per kernel step, "4" or "1";
//   pixels  MVE CONV_2D: output pixels per kernel call, "4" or "1";
//   window  DEPTHWISE_CONV_2D 3x3: "3x3x16" (MVE), "3x3x2" (Thumb), "3x3"
//           or "any", which kernel computes the windows inside the input.
// The default schedule is what a simple cost model expects to be fastest
// (the kernel where there is one; the compiler's own unrolling), so untuned
// code is already the good code; `loupec tune` measures the others on the
// board and a tuning log applies the best one per workload.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "target/cpu_isa.h"

namespace loupe::lowering {

struct Knob {
  std::string name;
  std::vector<std::string> choices;  // the default first
  std::string help;
};

// Knob name -> choice. A knob the schedule leaves out takes its default.
using Schedule = std::map<std::string, std::string>;

struct ScheduleSpace {
  std::vector<Knob> knobs;

  Schedule defaults() const;
  // Every combination of choices, the default schedule first.
  std::vector<Schedule> candidates() const;
  // The default schedule, then every other choice of each knob with the
  // other knobs at their defaults: the tuner's first round (its second
  // combines each knob's best; deploy/auto_tuner.h says why).
  std::vector<Schedule> oneKnobAtATime() const;
};

// What identifies an operator's code for tuning: its type, the shapes and
// types of its operands, its attributes and the instruction set, e.g.
// "DEPTHWISE_CONV_2D int8[1,25,5,64] int8[1,3,3,64] int32[64] -> int8[1,25,5,64]
// padding=SAME stride=1x1 ... @dsp". Operators with equal keys get equal
// loop nests (up to constant values), so one measurement serves them all.
std::string workloadKey(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa);

// The knobs of `op` lowered for `isa`.
ScheduleSpace scheduleSpace(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa);

// Throws std::invalid_argument naming the knob when `schedule` has a knob
// the space does not or a choice the knob does not offer.
void checkSchedule(const ScheduleSpace& space, const Schedule& schedule);

// "kernel=simd unroll=1": the schedule as the views and logs print it.
std::string scheduleToString(const Schedule& schedule);

// The innermost-loop unroll factor `schedule` asks for (1: none).
int unrollFactor(const Schedule& schedule);
// Whether `schedule` lets the operator call its SIMD kernel.
bool usesSimdKernel(const Schedule& schedule);
// The choice `schedule` makes for `knob`, or the knob's default.
const std::string& knobChoice(const Schedule& schedule, const Knob& knob);

// Workload key -> the schedule to lower it with (what a tuning log applies);
// a workload without one gets its default schedule.
using ScheduleTable = std::map<std::string, Schedule>;

}  // namespace loupe::lowering
