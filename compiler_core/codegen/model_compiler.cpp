#include "codegen/model_compiler.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "analysis/operator_cost.h"
#include "codegen/aot_executor_printer.h"
#include "codegen/c_function_printer.h"
#include "ir/graph_printer.h"
#include "ir/storage_view.h"
#include "lowering/lower_operator.h"
#include "lowering/lowering_support.h"
#include "memory/constant_placement.h"
#include "memory/patch_bound.h"
#include "passes/patch_execution.h"
#include "tir/access_trace.h"
#include "tir/lift_scratch.h"
#include "tir/reverse_loops.h"
#include "tir/simplify.h"
#include "tir/unroll_hint.h"

namespace loupe::codegen {

namespace {

// The type name as it goes into a C symbol: "conv_2d"; "CUSTOM(ethos-u)"
// becomes "custom_ethos_u".
std::string lowerCase(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '_') {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// A no-copy view shares its input's storage and needs no code, unless its
// output is a model output, which lives in the application's own buffer. A
// concatenation written in place by its inputs' producers needs none at all.
bool needsFunction(const ir::Graph& graph, const ir::Operator& op) {
  if (ir::concatViewOffsets(graph, op)) return false;
  if (!ir::isNoCopyView(graph, op) && !ir::sliceViewOffset(graph, op)) return true;
  return std::find(graph.outputs.begin(), graph.outputs.end(), op.outputs.front()) !=
         graph.outputs.end();
}

// What an operator's function is lowered from: two operators with the same
// key (the same computation on tensors of the same types, reading the same
// constants) get the same function.
std::string loweringKey(const ir::Graph& graph, const ir::Operator& op) {
  std::string key = op.typeName() + " v" + std::to_string(op.version) + " " +
                    ir::attributesToString(op.attributes);
  auto add = [&](const std::vector<int>& tensors) {
    for (int t : tensors) {
      if (t < 0) {
        key += " -";
      } else if (graph.tensor(t).isConstant || graph.tensor(t).isVariable) {
        key += " #" + std::to_string(t);
      } else {
        key += " " + ir::tensorTypeToString(graph.tensor(t));
      }
    }
    key += " |";
  };
  add(op.inputs);
  add(op.outputs);
  add(op.intermediates);
  return key;
}

// The tensors `op` passes for the params of a function lowered for `lowered`
// (loweringKey equal): each param's tensor in the same operand place.
std::vector<int> paramTensorsFor(const tir::PrimFunc& func, const ir::Operator& lowered,
                                 const ir::Operator& op) {
  std::vector<int> tensors;
  for (int t : func.paramTensors) {
    auto place = [&](const std::vector<int>& from, const std::vector<int>& to) {
      const auto it = std::find(from.begin(), from.end(), t);
      return it == from.end() ? -1 : to.at(static_cast<std::size_t>(it - from.begin()));
    };
    int mine = place(lowered.inputs, op.inputs);
    if (mine < 0) mine = place(lowered.outputs, op.outputs);
    if (mine < 0) mine = place(lowered.intermediates, op.intermediates);
    if (mine < 0) {
      throw lowering::LoweringError("function " + func.name + " takes tensor " + std::to_string(t) +
                                    ", which is no operand of operator " +
                                    std::to_string(lowered.index));
    }
    tensors.push_back(mine);
  }
  return tensors;
}

// The operator's TIR as code generation prints it: lowered with its
// workload's schedule (the table's, else the default), simplified, its large
// scratch lifted into the workspace, the schedule's unroll factor marked on
// its innermost loops and the schedule named in its attributes.
tir::PrimFunc lowerToFunction(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& name, target::CpuIsa isa,
                              const lowering::ScheduleTable& schedules) {
  lowering::Schedule schedule;
  if (!schedules.empty()) {
    if (auto it = schedules.find(lowering::workloadKey(graph, op, isa)); it != schedules.end()) {
      schedule = it->second;
      lowering::checkSchedule(lowering::scheduleSpace(graph, op, isa), schedule);
    }
  }
  tir::PrimFunc func = lowering::lowerOperator(graph, op, name, isa, schedule);
  func.body = tir::simplify(func.body);
  tir::dropUnusedConstants(func);
  tir::liftScratchBuffers(func);
  func.body = tir::hintInnermostUnroll(func.body, lowering::unrollFactor(schedule));
  if (!schedule.empty()) func.attrs["schedule"] = lowering::scheduleToString(schedule);
  return func;
}

bool usesDefaultPools(const std::vector<memory::MemoryPool>& pools) {
  const memory::MemoryPool fallback = memory::defaultPools().front();
  return pools.size() == 1 && pools[0].name == fallback.name && !pools[0].bounded() &&
         pools[0].memory.empty();
}

std::int64_t constantBytes(const tir::Buffer& constant) {
  return std::max<std::int64_t>(static_cast<std::int64_t>(constant->data.size()), 1);
}

// Records what each board memory holds of the model and puts every constant
// array in one (constant_placement.h): hottest per byte first, by the
// multiply-accumulates of the operators its function runs.
void placeInBoardMemories(CompiledModel& model, const std::vector<memory::MemoryRegion>& regions) {
  for (const memory::MemoryRegion& region : regions) model.memories.push_back({region, 0, 0});
  auto regionIndex = [&regions](const std::string& name) {
    for (std::size_t r = 0; r < regions.size(); ++r) {
      if (regions[r].name == name) return static_cast<int>(r);
    }
    return -1;
  };
  std::vector<std::int64_t> used(regions.size(), 0);
  const auto& pools = model.memoryPlan.pools;
  for (std::size_t p = 0; p < pools.size(); ++p) {
    const int r = regionIndex(pools[p].memory);
    if (r < 0) continue;
    const std::int64_t bytes = model.memoryPlan.result.poolBytes.at(p);
    model.memories[static_cast<std::size_t>(r)].workspaceBytes += bytes;
    used[static_cast<std::size_t>(r)] += (bytes + 15) / 16 * 16;
  }
  std::vector<memory::ConstantArray> arrays;
  std::vector<std::pair<std::size_t, std::size_t>> owners;  // (function, constant)
  // A function's constants are read by every call of it.
  std::vector<std::int64_t> macsOf(model.functions.size(), 0);
  for (const OperatorCall& call : model.calls) {
    for (int op : call.operators) {
      macsOf[call.function] +=
          analysis::operatorCost(model.graph,
                                 model.graph.operators.at(static_cast<std::size_t>(op)))
              .macs;
    }
  }
  for (std::size_t f = 0; f < model.functions.size(); ++f) {
    const tir::PrimFunc& func = model.functions[f];
    std::int64_t bytes = 0;
    for (const tir::Buffer& constant : func.constants) bytes += constantBytes(constant);
    for (std::size_t c = 0; c < func.constants.size(); ++c) {
      arrays.push_back(
          {func.name + " " + func.constants[c]->name, constantBytes(func.constants[c]),
           bytes > 0 ? static_cast<double>(macsOf[f]) / static_cast<double>(bytes) : 0.0});
      owners.emplace_back(f, c);
    }
  }
  const memory::ConstantPlacement placement = memory::placeConstants(arrays, regions, used);
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    const auto [f, c] = owners[a];
    const auto r = static_cast<std::size_t>(placement.region[a]);
    tir::PrimFunc& func = model.functions[f];
    func.constantSections.resize(func.constants.size());
    func.constantSections[c] =
        regions[r].defaultCode ? "" : memory::constantSection(regions[r].name);
  }
  for (std::size_t r = 0; r < regions.size(); ++r) {
    model.memories[r].constantBytes = placement.regionBytes[r];
  }
}

}  // namespace

void reportStage(const CompileOptions& options, const std::string& stage) {
  if (options.stop.stop_requested()) throw CompilationCancelled();
  if (options.progress) options.progress(stage);
}

bool isValidModelName(const std::string& name) {
  if (name.size() > kMaxModelNameLength) return false;
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

std::map<int, std::int64_t> operatorScratch(const ir::Graph& graph,
                                            std::vector<std::string>* unknown, target::CpuIsa isa) {
  std::map<int, std::int64_t> scratch;
  for (const ir::Operator& op : graph.operators) {
    if (!needsFunction(graph, op)) continue;
    try {
      const tir::PrimFunc func = lowerToFunction(graph, op, "scratch_probe", isa, {});
      if (func.scratchBytes > 0) scratch[op.index] = func.scratchBytes;
    } catch (const lowering::LoweringError& error) {
      if (unknown != nullptr) unknown->push_back(error.what());
    }
  }
  return scratch;
}

namespace {

// The allowances of the operators with a dying input, their functions from
// `functionOf` (nullptr: the operator has none of its own, e.g. in a region).
std::vector<memory::OverlapAllowance> tracedOverlaps(
    const ir::Graph& graph, const memory::WorkspaceAnalysis& analysis,
    const std::function<const tir::PrimFunc*(const ir::Operator&, std::string* why)>& functionOf,
    std::vector<std::string>* notes) {
  auto bufferOf = [&](int tensor) {
    const auto storage = analysis.storageOf.find(tensor);
    if (storage == analysis.storageOf.end()) return -1;
    for (std::size_t b = 0; b < analysis.buffers.size(); ++b) {
      if (analysis.buffers[b].tensor == storage->second) return static_cast<int>(b);
    }
    return -1;  // a model input or output: the application's buffer
  };
  std::vector<memory::OverlapAllowance> allowances;
  for (std::size_t step = 0; step < analysis.order.size(); ++step) {
    const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(analysis.order[step]));
    if (op.outputs.size() != 1 || analysis.inPlaceOperators.contains(op.index) ||
        !needsFunction(graph, op)) {
      continue;
    }
    // Traced from the parameters' first bytes: only tensors at the start of
    // their buffers (not views at an offset).
    const int out = bufferOf(op.outputs[0]);
    if (out < 0 ||
        analysis.buffers[static_cast<std::size_t>(out)].firstStep != static_cast<int>(step) ||
        memory::storageOffset(analysis, op.outputs[0]) != 0) {
      continue;
    }
    // The inputs whose buffer this step reads last - and reads through that
    // one parameter only, or the trace would miss the other's loads.
    std::vector<int> dying;
    for (int tensor : op.inputs) {
      const int in = tensor < 0 ? -1 : bufferOf(tensor);
      const bool once = std::count_if(op.inputs.begin(), op.inputs.end(), [&](int other) {
                          return other >= 0 && bufferOf(other) == in;
                        }) == 1;
      if (in >= 0 && in != out && once && memory::storageOffset(analysis, tensor) == 0 &&
          analysis.buffers[static_cast<std::size_t>(in)].lastStep == static_cast<int>(step)) {
        dying.push_back(tensor);
      }
    }
    if (dying.empty()) continue;
    std::string why;
    const tir::PrimFunc* func = functionOf(op, &why);
    if (func == nullptr) {
      if (notes)
        notes->push_back("#" + std::to_string(op.index) + " " + op.typeName() + ": " + why);
      continue;
    }
    auto paramOf = [&](int tensor) {
      const auto it = std::find(func->paramTensors.begin(), func->paramTensors.end(), tensor);
      return static_cast<std::size_t>(it - func->paramTensors.begin());
    };
    // A convolution's pixels are independent of each other: its function may
    // run its outer loops backwards, and then its output may start above the
    // input. Integer ones only: a float accumulation in another order would
    // not give the same bits.
    std::optional<tir::PrimFunc> backwards;
    if ((op.type == ir::OpType::Conv2D || op.type == ir::OpType::DepthwiseConv2D) &&
        graph.tensor(op.outputs[0]).dtype == ir::DType::Int8 &&
        std::all_of(op.inputs.begin(), op.inputs.end(),
                    [&](int t) { return t < 0 || graph.tensor(t).dtype != ir::DType::Float32; })) {
      backwards = tir::reverseOuterLoops(*func);
    }
    for (int tensor : dying) {
      const tir::OutputOverlap overlap =
          tir::traceOutputOverlap(*func, paramOf(tensor), paramOf(op.outputs[0]));
      if (!overlap.known) {
        if (notes) {
          notes->push_back("#" + std::to_string(op.index) + " " + op.typeName() + ": " +
                           overlap.why);
        }
        continue;
      }
      memory::OverlapAllowance allowance{static_cast<int>(step), bufferOf(tensor), out,
                                         overlap.lagBytes};
      if (backwards) {
        const tir::OutputOverlap reversed =
            tir::traceOutputOverlap(*backwards, paramOf(tensor), paramOf(op.outputs[0]));
        // A lead of the whole input (loops that do not run pixel by pixel
        // from the top) would share nothing.
        const std::int64_t inputBytes =
            analysis.buffers.at(static_cast<std::size_t>(allowance.inputBuffer)).size;
        if (reversed.known && reversed.leadBytes && *reversed.leadBytes < inputBytes) {
          allowance.leadBytes = *reversed.leadBytes;
        }
      }
      allowances.push_back(allowance);
    }
  }
  return allowances;
}

}  // namespace

std::vector<memory::OverlapAllowance> operatorOverlaps(const ir::Graph& graph,
                                                       const memory::WorkspaceAnalysis& analysis,
                                                       target::CpuIsa isa,
                                                       std::vector<std::string>* notes) {
  tir::PrimFunc lowered;
  return tracedOverlaps(
      graph, analysis,
      [&](const ir::Operator& op, std::string* why) -> const tir::PrimFunc* {
        try {
          lowered = lowerToFunction(graph, op, "overlap_probe", isa, {});
          return &lowered;
        } catch (const lowering::LoweringError& error) {
          *why = error.what();
          return nullptr;
        }
      },
      notes);
}

namespace {

// Says in the TIR and C of each function of a patch stage which of its
// strips it runs (the middle ones share one), reprinting its C.
void markStrips(CompiledModel& model, const PatchExecution& patches) {
  std::map<std::size_t, std::vector<int>> stripsOf;
  for (const OperatorCall& call : model.calls) {
    const int strip = patches.stripOf(call.operatorIndex);
    if (strip >= 0) stripsOf[call.function].push_back(strip);
  }
  for (const auto& [f, strips] : stripsOf) {
    std::string list;
    for (int s : strips) list += (list.empty() ? "" : ", ") + std::to_string(s);
    tir::PrimFunc& func = model.functions[f];
    func.attrs["patch"] = (strips.size() == 1 ? "strip " : "strips ") + list + " of " +
                          std::to_string(patches.stage().strips);
    for (GeneratedFile& file : model.sources) {
      if (file.name == operatorSourceName(func)) file.text = printCSource(func);
    }
  }
}

}  // namespace

memory::PatchBound choosePatchStage(const ir::Graph& graph, memory::MemoryPlanOptions memoryOptions,
                                    target::CpuIsa isa) {
  memoryOptions.scratchBytes = operatorScratch(graph, nullptr, isa);
  const memory::WorkspaceAnalysis analysis = memory::plannedAnalysis(graph, memoryOptions);
  std::vector<memory::OverlapAllowance> allowances;
  if (memoryOptions.overlapOutputs) allowances = operatorOverlaps(graph, analysis, isa);
  return memory::patchLowerBound(graph, analysis, allowances);
}

std::string modelNameRule() {
  return "a C identifier (letters, digits and _, not starting with a digit) of at most " +
         std::to_string(kMaxModelNameLength) +
         " characters, as file names in the archive are made from it";
}

CompiledModel compileToC(const ir::Graph& graph, const CompileOptions& options) {
  if (!isValidModelName(options.modelName)) {
    throw std::invalid_argument("model name \"" + options.modelName + "\" must be " +
                                modelNameRule());
  }
  CompiledModel model;
  model.modelName = options.modelName;
  model.externalWorkspace = options.externalWorkspace;
  model.debugTensors = options.debugTensors;
  model.isa = options.isa;
  model.graph = graph;
  for (const memory::MemoryPool& pool : options.memory.pools) {
    if (!isValidModelName(pool.name)) {
      throw std::invalid_argument("pool name \"" + pool.name + "\" is not a C identifier");
    }
  }
  const std::string prefix = "tvmgen_" + options.modelName + "_fused_";
  memory::MemoryPlanOptions memoryOptions = options.memory;
  // No memory of the board has room left for the workspace (its I/O
  // buffers, runtime and stack take it all): fine while nothing needs any.
  bool noWorkspaceRoom = false;
  if (!options.boardMemories.empty()) {
    if (usesDefaultPools(options.memory.pools)) {
      memoryOptions.pools = memory::regionPools(options.boardMemories);
      if (memoryOptions.pools.empty()) {
        memoryOptions.pools = memory::defaultPools();
        noWorkspaceRoom = true;
      }
    }
    for (const memory::MemoryPool& pool : memoryOptions.pools) {
      if (!pool.memory.empty() && !memory::findRegion(options.boardMemories, pool.memory)) {
        throw std::invalid_argument("pool \"" + pool.name + "\" is in memory " + pool.memory +
                                    ", which the board does not have");
      }
    }
  }
  if (memoryOptions.patches) {
    reportStage(options, "choosing the operators to run in patches");
    memory::MemoryPlanOptions regionsTogether = memoryOptions;
    for (const auto& [region, lowering] : options.externalFunctions) {
      if (region >= 0 && static_cast<std::size_t>(region) < graph.externalFunctions.size()) {
        regionsTogether.contiguousGroups.push_back(
            graph.externalFunctions[static_cast<std::size_t>(region)].operators);
      }
    }
    if (memory::PatchBound patches = choosePatchStage(graph, regionsTogether, options.isa);
        patches.found) {
      passes::PatchedGraph patched = passes::executeInPatches(graph, patches.best);
      CompileOptions rewritten = options;
      rewritten.memory.patches = false;
      rewritten.memory.contiguousGroups.push_back(patched.stageOperators);
      rewritten.operatorDevices.clear();
      for (const auto& [op, device] : options.operatorDevices) {
        if (const auto it = patched.renumbered.find(op); it != patched.renumbered.end()) {
          rewritten.operatorDevices[it->second] = device;
        }
      }
      CompiledModel result = compileToC(patched.graph, rewritten);
      result.patches = PatchExecution{std::move(patches), std::move(patched.stageOperators)};
      markStrips(result, *result.patches);
      return result;
    }
  }
  auto deviceIndex = [&model](const std::string& name) {
    if (!isValidModelName(name)) {
      throw std::invalid_argument("device name \"" + name + "\" is not a C identifier");
    }
    auto known = std::find(model.devices.begin(), model.devices.end(), name);
    if (known == model.devices.end()) {
      model.devices.push_back(name);
      return static_cast<int>(model.devices.size()) - 1;
    }
    return static_cast<int>(known - model.devices.begin());
  };
  // Operator index -> the external function (region) it belongs to, for
  // the regions a target lowers itself.
  std::map<int, int> regionOfOperator;
  for (const auto& [region, lowering] : options.externalFunctions) {
    if (region < 0 || static_cast<std::size_t>(region) >= graph.externalFunctions.size()) {
      throw std::invalid_argument("external function " + std::to_string(region) +
                                  " is not a region of the graph (compile the partitioned graph)");
    }
    for (int op : graph.externalFunctions.at(static_cast<std::size_t>(region)).operators) {
      regionOfOperator[op] = region;
    }
  }
  // loweringKey -> (the function, the operator it was lowered for).
  std::map<std::string, std::pair<std::size_t, std::size_t>> loweredFor;
  for (const ir::Operator& op : graph.operators) {
    reportStage(options, "lowering operator " + std::to_string(op.index + 1) + " of " +
                             std::to_string(graph.operators.size()) + " (" + op.typeName() + ")");
    const auto region = regionOfOperator.find(op.index);
    if (region != regionOfOperator.end()) {
      const ir::ExternalFunction& external =
          graph.externalFunctions.at(static_cast<std::size_t>(region->second));
      // A region is one function and one call, made where its first operator runs.
      if (external.operators.front() != op.index) continue;
      const ExternalLowering& lowering = options.externalFunctions.at(region->second);
      const int device = deviceIndex(lowering.device);
      tir::PrimFunc func =
          lowering.lower(graph, external, "tvmgen_" + options.modelName + "_" + external.name);
      if (func.scratchBytes > 0) memoryOptions.scratchBytes[op.index] = func.scratchBytes;
      model.calls.push_back(
          {op.index, external.operators, model.functions.size(), device, func.paramTensors});
      model.functions.push_back(std::move(func));
      // The region's call happens at one step: its operators must run back
      // to back, in region order, in whatever order the planner chooses.
      memoryOptions.contiguousGroups.push_back(external.operators);
      continue;
    }
    if (!needsFunction(graph, op)) continue;
    int device = -1;
    if (auto it = options.operatorDevices.find(op.index); it != options.operatorDevices.end()) {
      device = deviceIndex(it->second);
    }
    const std::string key = loweringKey(graph, op);
    if (const auto same = loweredFor.find(key); same != loweredFor.end()) {
      const auto [function, lowered] = same->second;
      const tir::PrimFunc& func = model.functions[function];
      if (func.scratchBytes > 0) memoryOptions.scratchBytes[op.index] = func.scratchBytes;
      model.calls.push_back({op.index,
                             {op.index},
                             function,
                             device,
                             paramTensorsFor(func, graph.operators.at(lowered), op)});
      continue;
    }
    tir::PrimFunc func = lowerToFunction(
        graph, op, prefix + lowerCase(op.typeName()) + "_" + std::to_string(model.functions.size()),
        options.isa, options.schedules);
    if (func.scratchBytes > 0) memoryOptions.scratchBytes[op.index] = func.scratchBytes;
    loweredFor[key] = {model.functions.size(), static_cast<std::size_t>(op.index)};
    model.calls.push_back(
        {op.index, {op.index}, model.functions.size(), device, func.paramTensors});
    model.functions.push_back(std::move(func));
  }
  // With every function's scratch known, the plan fixes where each tensor
  // and scratch buffer lives, the order of the calls, and which operators
  // write in place (their C prototypes drop `restrict`).
  if (memoryOptions.overlapOutputs) {
    // Traced on the very functions the C is printed from, with the tensors
    // each call passes.
    tir::PrimFunc called;
    memoryOptions.overlaps = [&, called](const memory::WorkspaceAnalysis& analysis) mutable {
      return tracedOverlaps(
          graph, analysis,
          [&](const ir::Operator& op, std::string* why) -> const tir::PrimFunc* {
            for (const OperatorCall& call : model.calls) {
              if (call.operators.size() == 1 && call.operatorIndex == op.index) {
                called = model.functions[call.function];
                called.paramTensors = call.paramTensors;
                return &called;
              }
            }
            *why = "no function of its own";
            return nullptr;
          },
          nullptr);
    };
  }
  reportStage(options, "planning memory (" + memoryOptions.planner + ")");
  model.memoryPlan = memory::planMemory(graph, memoryOptions);
  // An output placed over its input: the function's pointers may alias, so
  // its C prototype drops `restrict` (as for in-place operators). A function
  // several calls share (the strips of patches) runs backwards when those of
  // them placed over their input are all placed above it (the others'
  // pixels may run in any order); when some run forwards, the backward ones
  // share a reversed copy.
  struct Placed {
    bool backwards = false;
    std::string note;
  };
  std::map<std::size_t, Placed> placed;  // by position in model.calls
  for (const memory::OverlapAllowance& used : model.memoryPlan.usedOverlaps()) {
    const int op = model.memoryPlan.analysis.order.at(static_cast<std::size_t>(used.step));
    const auto& buffers = model.memoryPlan.analysis.buffers;
    const std::int64_t inputOffset =
        model.memoryPlan.result.offset.at(static_cast<std::size_t>(used.inputBuffer));
    const std::int64_t outputOffset =
        model.memoryPlan.result.offset.at(static_cast<std::size_t>(used.outputBuffer));
    for (std::size_t c = 0; c < model.calls.size(); ++c) {
      const OperatorCall& call = model.calls[c];
      if (call.operatorIndex != op || call.operators.size() != 1) continue;
      const bool shared =
          std::count_if(model.calls.begin(), model.calls.end(), [&](const OperatorCall& other) {
            return other.function == call.function;
          }) > 1;
      const std::string input =
          shared
              ? std::string("its input")
              : memory::bufferName(graph, buffers.at(static_cast<std::size_t>(used.inputBuffer)));
      // Placed above its input: its pixels run last to first, as traced.
      placed[c] =
          used.runsBackwards(inputOffset, outputOffset, buffers)
              ? Placed{true, "output starts " + std::to_string(used.leadBytes) +
                                 " or more bytes after " + input + ", its loops run backwards"}
              : Placed{false, "output starts " + std::to_string(used.lagBytes) +
                                  " or more bytes before " + input};
    }
  }
  std::map<std::size_t, std::size_t> reversedCopyOf;  // function -> its reversed copy
  std::set<std::size_t> reversed;
  for (const auto& [c, how] : placed) {
    OperatorCall& call = model.calls[c];
    if (how.backwards) {
      const bool othersForwards = std::any_of(
          model.calls.begin(), model.calls.end(), [&, c = c](const OperatorCall& other) {
            const auto position = static_cast<std::size_t>(&other - model.calls.data());
            const auto it = placed.find(position);
            return position != c && other.function == call.function && it != placed.end() &&
                   !it->second.backwards;
          });
      if (othersForwards) {
        auto copy = reversedCopyOf.find(call.function);
        if (copy == reversedCopyOf.end()) {
          tir::PrimFunc own = tir::reverseOuterLoops(model.functions[call.function]);
          own.name =
              prefix +
              lowerCase(
                  graph.operators.at(static_cast<std::size_t>(call.operatorIndex)).typeName()) +
              "_" + std::to_string(model.functions.size());
          copy = reversedCopyOf.emplace(call.function, model.functions.size()).first;
          reversed.insert(model.functions.size());
          model.functions.push_back(std::move(own));
        }
        call.function = copy->second;
      } else if (reversed.insert(call.function).second) {
        model.functions[call.function] = tir::reverseOuterLoops(model.functions[call.function]);
      }
    }
    model.functions[call.function].attrs["overlaps"] = how.note;
  }
  if (noWorkspaceRoom && model.workspaceBytes() > 0) {
    std::string memories;
    for (const memory::MemoryRegion& region : options.boardMemories) {
      if (!region.holdsWorkspace) continue;
      memories += (memories.empty() ? "" : ", ") + region.name;
    }
    throw memory::MemoryPlanError(
        "the model's intermediate tensors (" + ir::groupDigits(model.workspaceBytes()) +
            " bytes) do not fit: the board's " +
            (memories.empty() ? "memories have" : memories + " has") +
            " no room left for them after the I/O buffers, runtime and stack, " +
            ir::groupDigits(model.workspaceBytes()) + " bytes short",
        model.workspaceBytes());
  }
  const memory::WorkspaceAnalysis& analysis = model.memoryPlan.analysis;
  for (const OperatorCall& call : model.calls) {
    for (int index : call.operators) {
      if (auto it = analysis.inPlaceOperators.find(index); it != analysis.inPlaceOperators.end()) {
        std::string& note = model.functions[call.function].attrs["in_place"];
        note += (note.empty() ? "" : "; ") +
                (call.operators.size() > 1 ? "#" + std::to_string(index) + " " : "") +
                "output over " + graph.tensor(it->second).name;
      }
    }
  }
  // Calls follow the plan's execution order; a region's call comes at its
  // first operator's step (the plan keeps the rest right after it).
  std::vector<OperatorCall> ordered;
  for (int index : analysis.order) {
    for (const OperatorCall& call : model.calls) {
      if (call.operatorIndex == index) ordered.push_back(call);
    }
  }
  model.calls = std::move(ordered);
  // The CRT's function handles carry a 15-bit function index (func_registry.h).
  if (model.functions.size() > kMaxOperatorFunctions) {
    throw lowering::LoweringError("the model has " + std::to_string(model.functions.size()) +
                                  " operator functions; a function registry holds at most " +
                                  std::to_string(kMaxOperatorFunctions));
  }
  if (!options.boardMemories.empty()) placeInBoardMemories(model, options.boardMemories);
  model.state = operatorState(graph, model.functions, options.modelName);
  for (const StateBuffer& s : model.state) model.stateBytes += s.bytes;

  reportStage(options, "printing C");
  model.hasOperatorSources = options.printOperatorSources;
  if (model.hasOperatorSources) {
    for (const tir::PrimFunc& f : model.functions) {
      model.sources.push_back({operatorSourceName(f), printCSource(f)});
    }
  }
  model.sources.push_back(printRunSource(model));
  model.sources.push_back(printRegistrySource(model));
  model.headers.push_back(printModelHeader(model));
  return model;
}

}  // namespace loupe::codegen
