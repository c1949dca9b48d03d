// Schedules offered to a compilation rather than asked for (the tuning logs
// bundled with Loupe, deploy/bundled_tuning.h): a table measured for other
// models, or by another version of Loupe whose knobs have since changed,
// keeps only what this model's operators can be lowered with. An explicit
// --tuning-log is applied whole instead, and a stale record in it fails the
// compilation (the user asked for it); an offered one is left out.
#pragma once

#include "ir/graph.h"
#include "lowering/schedule.h"
#include "target/cpu_isa.h"

namespace loupe::tuning {

// The entries of `offered` whose workload is that of one of `graph`'s C
// operators lowered for `isa`, and whose every knob and choice that
// operator's schedule space offers (lowering::checkSchedule). Operators in
// a target's region are not the C lowering's and are left out.
lowering::ScheduleTable schedulesThatFit(const lowering::ScheduleTable& offered,
                                         const ir::Graph& graph, target::CpuIsa isa);

}  // namespace loupe::tuning
