// Graph (after the graph passes) -> C: lowers every operator to TIR,
// simplifies it, plans the workspace, gives variable tensors static state
// storage, and prints the operator sources, the AOT executor, the registry
// and the model header.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <stop_token>
#include <string>

#include "codegen/compiled_model.h"
#include "lowering/schedule.h"
#include "memory/memory_region.h"
#include "memory/overlap_bound.h"
#include "target/cpu_isa.h"

namespace loupe::codegen {

// How a target other than the CPU compiles a region of operators the
// partitioner gave it (an ir::ExternalFunction): its lowering to ONE TIR
// function (e.g. npu::lowerToNpuRegionFunction, one command stream for the
// whole region) and the device (rfcs/000) the AOT code opens around its one
// call and passes it.
struct ExternalLowering {
  std::string device;
  std::function<tir::PrimFunc(const ir::Graph& graph, const ir::ExternalFunction& region,
                              const std::string& functionName)>
      lower;
};

struct CompileOptions {
  std::string modelName = "default";
  // false: the workspace is a static array in the generated code (the default
  // model compilation of rfcs/002); true: the application passes it in.
  bool externalWorkspace = false;
  // Operator index -> device name for operators that run on a device (set by
  // partitioning). The AOT code opens the device around the operator's call
  // and passes it as the resource_handle.
  std::map<int, std::string> operatorDevices;
  // Index into Graph::externalFunctions -> the region's lowering: the
  // region becomes one function tvmgen_<model>_<region name>, called once,
  // on its device. The memory plan keeps the region's operators contiguous
  // and in region order (memory::MemoryPlanOptions::contiguousGroups).
  std::map<int, ExternalLowering> externalFunctions;
  // Planner, pools and aliasing of the workspace plan.
  memory::MemoryPlanOptions memory;
  // The memories of the board the code is for, fastest first (the board
  // platform's memoryRegions). When set, the workspace pools are the ones
  // that hold workspace, unless `memory.pools` names pools of its own, and
  // every constant array is placed in one that holds constants. Empty: one
  // workspace pool as `memory` says, constants beside the code.
  std::vector<memory::MemoryRegion> boardMemories;
  // The instruction set the CPU's kernels are lowered for (the compile
  // driver derives it from the c target's -mcpu or the board's CPU).
  target::CpuIsa isa = target::CpuIsa::Scalar;
  // Workload key -> schedule (a tuning log's best records); an operator whose
  // workload has none is lowered with its default schedule. A schedule that
  // does not fit its operator's knobs throws std::invalid_argument.
  lowering::ScheduleTable schedules;
  // false: the operator functions' C is left out of CompiledModel::sources
  // (hasOperatorSources), for a caller that prints each file from `functions`
  // when it writes it: a large model's weights as C text are several times
  // their size and need not all be held at once (loupec compile's archive).
  bool printOperatorSources = true;
  // Debug build: after each operator the executor sends every tensor the
  // operator wrote (and the views that became whole) to the host with
  // TVMDebugTensor (tvm/runtime/crt/debug_tensors.h), before a later
  // operator can reuse its bytes. The memory plan is the same as without.
  bool debugTensors = false;
  // For people: which stage the compilation is in ("lowering operator 12 of
  // 65 (CONV_2D)"); called on the compiling thread.
  std::function<void(const std::string& stage)> progress;
  // A stop requested here ends the compilation with CompilationCancelled at
  // the next operator or stage.
  std::stop_token stop;
};

// The compilation was stopped (CompileOptions::stop) before it finished.
class CompilationCancelled : public std::runtime_error {
 public:
  CompilationCancelled() : std::runtime_error("the compilation was cancelled") {}
};

// Throws CompilationCancelled when `options` asks to stop, else reports `stage`.
void reportStage(const CompileOptions& options, const std::string& stage);

// Throws lowering::LoweringError (naming the operator) when an operator
// cannot be compiled, memory::MemoryPlanError when the tensors do not fit the
// pools, and std::invalid_argument for a bad model name, planner or pool.
CompiledModel compileToC(const ir::Graph& graph, const CompileOptions& options);

// The bytes of scratch each operator's function needs in the workspace, found
// by lowering the operators (for planning without generating code). An
// operator that cannot be lowered is skipped and named in `unknown`.
std::map<int, std::int64_t> operatorScratch(const ir::Graph& graph,
                                            std::vector<std::string>* unknown = nullptr,
                                            target::CpuIsa isa = target::CpuIsa::Scalar);

// Which operators may write their output partly over an input that dies at
// their step, and how far before it the output must start: each operator's
// function (for `isa`) traced over its indices (tir/access_trace.h). An
// operator written in place, with several outputs, or whose accesses the
// trace cannot follow is left out; `notes` (if given) says why for each.
std::vector<memory::OverlapAllowance> operatorOverlaps(const ir::Graph& graph,
                                                       const memory::WorkspaceAnalysis& analysis,
                                                       target::CpuIsa isa = target::CpuIsa::Scalar,
                                                       std::vector<std::string>* notes = nullptr);

// The stage patch-based execution runs in strips (memory::patchLowerBound):
// the one that lowers most the bound of the buffers `memoryOptions` plans
// (its groups kept together, every operator's scratch found by lowering it
// for `isa`, and with the overlaps the functions allow when
// memoryOptions.overlapOutputs); found is false when none lowers it.
memory::PatchBound choosePatchStage(const ir::Graph& graph, memory::MemoryPlanOptions memoryOptions,
                                    target::CpuIsa isa);

// The longest model name: file names in the Model Library Format are built
// from it (tir/tvmgen_<NAME>_fused_<operators>.tir.txt) and must stay well
// under the 255-byte file name limit of common file systems, or tar cannot
// extract them.
inline constexpr std::size_t kMaxModelNameLength = 64;

// The most operator functions a model may have: the C runtime's function
// registry (TVM_CRT_MAX_REGISTRY_FUNCTIONS in func_registry.h).
inline constexpr std::size_t kMaxOperatorFunctions = 0x7FFF;

// A model name usable in C identifiers and file names: [A-Za-z0-9_]+, not
// starting with a digit, at most kMaxModelNameLength characters.
bool isValidModelName(const std::string& name);

// Why `name` is not a valid model name, for messages.
std::string modelNameRule();

}  // namespace loupe::codegen
