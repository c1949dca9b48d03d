// The result of compiling a model to C: the graph after the passes, one TIR
// function per operator that computes, where every tensor lives, and the
// generated files. MLF export, the host runner and the views read this.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/operator_state.h"
#include "ir/graph.h"
#include "memory/memory_plan.h"
#include "memory/memory_region.h"
#include "memory/patch_bound.h"
#include "target/cpu_isa.h"
#include "tir/prim_func.h"

namespace loupe::codegen {

struct GeneratedFile {
  std::string name;  // file name, e.g. "default_lib0.c"
  std::string text;
};

// A memory of the board the model was compiled for and what of the model
// it holds (bytes; constants 16-byte aligned each).
struct MemoryUse {
  memory::MemoryRegion region;
  std::int64_t workspaceBytes = 0;  // its pools' storage
  std::int64_t constantBytes = 0;   // constant arrays placed in it
};

// One call of the AOT run function, in execution order: one operator, or a
// region of operators compiled as one external function (an NPU region).
struct OperatorCall {
  int operatorIndex = -1;      // the (first) operator the call runs; its profile entry
  std::vector<int> operators;  // every operator the call runs, in order
  std::size_t function = 0;    // index into CompiledModel::functions
  int device = -1;             // index into CompiledModel::devices, or -1 for the CPU
  // The graph tensor the call passes for each of the function's params: the
  // function's own paramTensors, or, for a call of a function lowered for
  // another operator (the same computation on other tensors: a middle strip
  // of patch-based execution), this operator's tensors in their places.
  std::vector<int> paramTensors;
};

// Patch-based execution (memory::MemoryPlanOptions::patches): the analysis
// that chose the stage (its operator indices those of the graph before the
// rewrite) and the operators of CompiledModel::graph that run it, per strip
// a slice and the stage's operators, then the concatenation
// (passes/patch_execution.h).
struct PatchExecution {
  memory::PatchBound analysis;
  std::vector<int> operators;

  const memory::PatchStage& stage() const { return analysis.best; }
  // The strip operator `op` of CompiledModel::graph computes part of (its
  // slice included), or -1 (the concatenation, an operator outside the stage).
  int stripOf(int op) const {
    const auto at = std::find(operators.begin(), operators.end(), op);
    const auto perStrip = static_cast<std::ptrdiff_t>(stage().operators.size() + 1);
    const auto position = at - operators.begin();
    return at == operators.end() || position / perStrip >= stage().strips
               ? -1
               : static_cast<int>(position / perStrip);
  }
};

struct CompiledModel {
  std::string modelName;  // the <name> of tvmgen_<name>_run
  bool externalWorkspace = false;
  bool debugTensors = false;                    // CompileOptions::debugTensors
  target::CpuIsa isa = target::CpuIsa::Scalar;  // what the CPU's kernels were lowered for
  ir::Graph graph;
  std::vector<tir::PrimFunc> functions;
  std::vector<OperatorCall> calls;
  // Devices (rfcs/000) some operators run on, by name; members of the
  // generated struct tvmgen_<name>_devices. Empty: the run function takes none.
  std::vector<std::string> devices;
  // Where every intermediate tensor lives: pools, offsets, the execution
  // order the calls follow, and the plan's lower bound.
  memory::MemoryPlan memoryPlan;
  // The board's memories (CompileOptions::boardMemories) and their use;
  // empty when compiled for no board.
  std::vector<MemoryUse> memories;
  // Variable tensors kept across runs, outside the workspace (operator_state.h).
  std::vector<StateBuffer> state;
  std::int64_t stateBytes = 0;
  // Set when the model runs its first operators in patches; `graph` is then
  // the rewritten graph.
  std::optional<PatchExecution> patches;
  std::vector<GeneratedFile> sources;  // codegen/host/src
  std::vector<GeneratedFile> headers;  // codegen/host/include
  // Whether `sources` has each function's file (operatorSourceName, in
  // `functions` order, before the run and registry sources); false when
  // compiled without (CompileOptions::printOperatorSources): printCSource
  // prints them from `functions` then.
  bool hasOperatorSources = true;

  // Bytes of all pools together.
  std::int64_t workspaceBytes() const { return memoryPlan.result.totalBytes; }
};

// The linker section of pool `pool`'s storage, or "" when it goes where
// the firmware's data goes anyway (no memory named, or the board's default
// data memory).
std::string poolSection(const CompiledModel& model, std::size_t pool);

// Whether the model runs a Vela command stream (an Ethos-U operator), whose
// function calls the Ethos-U driver of the runtime (src/ethosu/).
bool runsEthosU(const CompiledModel& model);
// Whether embedded runtime file `path` (as codegen::runtimeFiles() names it)
// goes into the model's builds: the Ethos-U sources only when it runs one,
// so other firmware does not compile them.
bool needsRuntimeFile(const CompiledModel& model, std::string_view path);

// The file an operator function's C goes into: "<function name>.c".
inline std::string operatorSourceName(const tir::PrimFunc& func) {
  return func.name + ".c";
}

// The C member / define name of each model input and output, unique within
// the model (duplicates get their tensor index appended).
std::vector<std::string> ioMemberNames(const ir::Graph& graph, const std::vector<int>& tensors);

}  // namespace loupe::codegen
