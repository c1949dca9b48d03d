// The one compile driver: what loupec compile, run, generate and memplan, the
// GUI's compilation, Run on board, the benches and the tests do with a model.
// An imported graph goes through the graph passes, is partitioned for the
// chosen targets (every operator to the first target that accepts it), and
// is lowered to C - each NPU region by its target into one function - with
// the workspace memory plan. Every stage is kept for the views and the MLF.
#pragma once

#include "codegen/compiled_model.h"
#include "codegen/model_compiler.h"
#include "driver/memory_fit.h"
#include "ir/graph.h"
#include "lowering/schedule.h"
#include "passes/stage_timeline.h"
#include "target/device_report.h"
#include "target/target_string.h"

namespace loupe::driver {

struct CompileRequest {
  ir::Graph model;                  // as imported
  target::TargetList targets;       // priority order, parsed once where the user chose them
  codegen::CompileOptions options;  // model name, workspace, memory plan; the driver
                                    // fills in the targets' devices and external
                                    // functions, and the instruction set
  // The -mcpu of the board the code is for (deploy::Platform::cpu), which
  // picks the kernels' instruction set unless the c target names a CPU;
  // empty: portable C.
  std::string boardCpu;
  // Fit first (memory_fit.h): when options.boardMemories are set and
  // options.memory asks for no savings, plan with overlapped outputs (every
  // board's default) and, when that does not fit, with patches as well, then
  // patches alone (kPlanSavingsInOrder): the first that fits is compiled.
  // loupec and the GUI set it unless the user chose the plan (--plain-plan,
  // --overlap-outputs, --patches).
  bool fitToMemories = false;
  // Schedules offered rather than asked for (the board's bundled tuning
  // logs, deploy/bundled_tuning.h): once the model is partitioned and its
  // instruction set known, those its C operators can take
  // (tuning::schedulesThatFit) join options.schedules, whose own entries
  // win; the rest are left out, so a stale table never fails a compilation.
  lowering::ScheduleTable offeredSchedules = {};
};

// The model after the graph passes and partitioning.
struct PartitionedModel {
  passes::StageTimeline timeline;  // "imported", then one stage per pass
  ir::Graph graph;
};

struct Compilation {
  passes::StageTimeline timeline;  // as PartitionedModel's
  ir::Graph graph;                 // partitioned: what the code was generated from
  codegen::CompiledModel model;    // functions, C sources, memory plan
  target::DeviceReport devices;    // where each operator runs, per-device totals
  MemoryFit fit;                   // the plans tried to fit the board, and the one used
  // The schedule per workload the code was lowered with: options.schedules
  // and the offered schedules that fit (what a tuning coverage counts).
  lowering::ScheduleTable schedules;
};

// The graph passes over `model`, then partitioning for `targets`; with no
// targets, the graph passes only (memplan plans the graph as it is). Throws
// passes::PassError (naming every operator no target accepts).
PartitionedModel partitionModel(ir::Graph model, const target::TargetList& targets);

// How `targets` would partition the model as imported, without the graph
// passes and without failing: an operator no target accepts stays unplaced
// (loupec info shows it with every target's reasons).
ir::Graph previewPartitioning(ir::Graph model, const target::TargetList& targets);

// Partitions and compiles. Throws std::invalid_argument without targets, and
// what partitionModel and codegen::compileToC throw (lowering, planning, a
// bad model name); with fitToMemories, memory::MemoryPlanError only when no
// plan fits, naming each plan tried and its shortfall.
Compilation compileModel(CompileRequest request);

}  // namespace loupe::driver
