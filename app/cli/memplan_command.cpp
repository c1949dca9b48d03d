// loupec memplan: the static memory plan of a model's intermediate tensors,
// by one algorithm or all of them, with the lower bound and the gap: the
// answer to "how big must my RAM be?".
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/memory_options.h"
#include "codegen/model_compiler.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "memory/memory_plan_json.h"
#include "memory/patch_bound.h"
#include "memory/planner_registry.h"
#include "passes/patch_execution.h"

namespace loupe::cli {

const char* const kMemplanUsage =
    "  loupec memplan MODEL [--planner NAME|all] [--pools SPEC] [--overlap-outputs] [--overlaps]\n"
    "                 [--patches] [--json]\n"
    "      plans where every intermediate tensor lives and prints, per algorithm, the bytes per\n"
    "      pool, the lower bound (the most bytes alive at one step), the gap and the planning\n"
    "      time, then the lower bound if operators may write their output partly over an input\n"
    "      that dies with them (each operator's loops traced; --overlaps lists how far each "
    "output\n"
    "      must start before its input, and why others may not). --overlap-outputs lets the\n"
    "      planners place outputs that far over their dying inputs (compile, generate, run and\n"
    "      tune take it too; the generated functions then drop restrict). --patches plans the\n"
    "      model with its first high-resolution operators run strip by strip when that lowers\n"
    "      the bound (compile, generate, run and tune take it too: the rewritten stage is\n"
    "      generated as per-strip operators over views of the input and of the stage's output).\n"
    "      Planners: greedy_by_size, greedy_by_conflicts, hill_climb, branch_and_bound\n"
    "      (the default) or all. --pools \"sram:size=65536;dtcm:size=16K,alignment=32\" names the\n"
    "      pools, fastest first (default: one unbounded pool 'workspace'). --json prints\n"
    "      {\"plans\": [{\"planner\", \"total_bytes\", \"lower_bound\", \"pools\", \"buffers\", "
    "...}]}";

namespace {

std::string poolSummary(const memory::MemoryPlan& plan) {
  std::string text;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    if (!text.empty()) text += ", ";
    text += plan.pools[i].name + " " + ir::groupDigits(plan.result.poolBytes.at(i));
    if (plan.pools[i].bounded()) text += "/" + ir::groupDigits(plan.pools[i].size);
  }
  return text;
}

void printTable(const ir::Graph& graph, const std::vector<memory::MemoryPlan>& plans) {
  const memory::MemoryPlan& first = plans.front();
  std::size_t scratch = 0;
  for (const auto& b : first.analysis.buffers) scratch += b.scratchOf >= 0 ? 1 : 0;
  std::cout << graph.name << ": " << first.analysis.buffers.size() << " buffers (" << scratch
            << " operator scratch) over " << first.order.operators.size() << " steps, "
            << first.analysis.inPlaceOperators.size() << " operator(s) in place; lower bound "
            << ir::groupDigits(first.tensorLevelBound) << " bytes\n";
  if (first.order.changed()) {
    std::cout << "execution order changed: the model's own order has a lower bound of "
              << ir::groupDigits(first.order.graphOrderBound) << " bytes ("
              << first.order.ordersEvaluated << " orders evaluated)\n";
  }
  std::cout << std::left << std::setw(22) << "planner" << std::right << std::setw(12) << "bytes"
            << std::setw(12) << "gap" << std::setw(12) << "ms"
            << "  pools\n";
  for (const memory::MemoryPlan& plan : plans) {
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(2) << plan.milliseconds;
    std::string gap = plan.result.fits ? ir::groupDigits(plan.gap()) : "does not fit";
    if (plan.result.fits && plan.result.provedOptimal) gap += plan.gap() == 0 ? " (=)" : " (opt)";
    std::cout << std::left << std::setw(22) << plan.planner << std::right << std::setw(12)
              << ir::groupDigits(plan.result.totalBytes) << std::setw(12) << gap << std::setw(12)
              << ms.str() << "  " << poolSummary(plan) << "\n";
  }
}

// Converters join every folded layer's name into one tensor name: its ends.
std::string shortBufferName(const std::string& name) {
  return name.size() <= 48 ? name : name.substr(0, 20) + "..." + name.substr(name.size() - 25);
}

// The bound if outputs may overlap their dying inputs, beside the tensor-level
// one; with `details`, every allowance and every operator left out.
void printOverlapBound(const ir::Graph& graph, const memory::MemoryPlan& plan,
                       const std::vector<memory::OverlapAllowance>& allowances,
                       const std::vector<std::string>& notes, bool details) {
  const std::int64_t bound = memory::overlapLowerBound(plan.analysis.buffers, allowances);
  std::cout << "with overlapping outputs: lower bound " << ir::groupDigits(bound) << " bytes ("
            << std::fixed << std::setprecision(2)
            << (plan.tensorLevelBound > 0
                    ? static_cast<double>(bound) / static_cast<double>(plan.tensorLevelBound)
                    : 1.0)
            << "x the tensor-level bound; " << allowances.size()
            << " operator output(s) may start inside a dying input; "
            << (plan.overlaps.empty()
                    ? "plan with --overlap-outputs to use them)"
                    : std::to_string(plan.usedOverlaps().size()) + " used by " + plan.planner + ")")
            << "\n";
  if (!details) return;
  for (const memory::OverlapAllowance& a : allowances) {
    const ir::Operator& op = graph.operators.at(
        static_cast<std::size_t>(plan.analysis.order.at(static_cast<std::size_t>(a.step))));
    std::cout << "  #" << op.index << " " << op.typeName() << ": output starts "
              << ir::groupDigits(a.lagBytes) << " bytes before its input '"
              << shortBufferName(memory::bufferName(graph, plan.analysis.buffers.at(a.inputBuffer)))
              << "'"
              << (a.leadBytes >= 0 ? " or, its loops run backwards, " +
                                         ir::groupDigits(a.leadBytes) + " after it"
                                   : std::string())
              << ", sharing " << ir::groupDigits(a.sharedBytes(plan.analysis.buffers))
              << " bytes\n";
  }
  for (const std::string& note : notes) std::cout << "  not traced: " << note << "\n";
}

// The bound if the first operators ran strip by strip (memory/patch_bound.h),
// or, `applied`, the stage the plans above run in strips (`graph` is the one
// before the rewrite then).
void printPatchBound(const ir::Graph& graph, const memory::MemoryPlan& plan,
                     const memory::PatchBound& patches, bool applied) {
  if (!patches.found) {
    std::cout << "with patches: no chain of operators at the start lowers the bound\n";
    return;
  }
  const memory::PatchStage& stage = patches.best;
  std::string operators;
  for (int op : stage.operators) {
    operators += (operators.empty() ? "#" : ", #") + std::to_string(op) + " " +
                 graph.operators.at(static_cast<std::size_t>(op)).typeName();
  }
  std::cout << (applied ? "patches (planned above): lower bound "
                        : "with patches (--patches): lower bound ")
            << ir::groupDigits(stage.bound) << " bytes";
  // Applied, the plans above are of the rewritten graph: the bound is
  // measured against the model's without patches.
  std::cout << " (" << std::fixed << std::setprecision(2)
            << static_cast<double>(stage.bound) /
                   static_cast<double>(applied ? patches.wholeBound : plan.tensorLevelBound)
            << (applied ? "x the " + ir::groupDigits(patches.wholeBound) + " bytes without them)"
                        : std::string("x the tensor-level bound)"));
  std::cout << " running " << operators << " in " << stage.strips
            << " strips: " << ir::groupDigits(stage.stageBytes) << " bytes while they run, "
            << ir::groupDigits(stage.restBytes) << " after; recomputes "
            << ir::groupDigits(stage.extraMacs) << " MACs (" << patches.extraMacsPercent()
            << "% of the model's)\n";
}

}  // namespace

int runMemplanCommand(const std::vector<std::string>& args) {
  auto specs = memoryOptionSpecs();
  specs.push_back({"--json", OptionSpec::Kind::Flag});
  specs.push_back({"--overlaps", OptionSpec::Kind::Flag});
  const auto parsed = parseArguments(args, specs);
  if (parsed.positional.size() != 1) throw UsageError("memplan needs exactly one MODEL file");
  if (parsed.has("--plain-plan")) {
    throw UsageError(
        "--plain-plan chooses a board's plan (compile --platform, run, generate, "
        "tune); memplan plans without a board, as asked");
  }
  memory::MemoryPlanOptions options = memoryOptionsFrom(parsed, true);

  // The graph passes only: the plan of the graph as the CPU runs it.
  const ir::Graph imported =
      driver::partitionModel(frontend::importTfliteFile(parsed.positional[0]), {}).graph;
  // With --patches, the graph as compile --patches rewrites it, when a
  // stage lowers the bound.
  std::optional<memory::PatchBound> applied;
  ir::Graph graph = imported;
  if (options.patches) {
    memory::PatchBound patches =
        codegen::choosePatchStage(imported, options, target::CpuIsa::Scalar);
    if (patches.found) {
      passes::PatchedGraph patched = passes::executeInPatches(imported, patches.best);
      graph = std::move(patched.graph);
      options.contiguousGroups.push_back(patched.stageOperators);
      applied = std::move(patches);
    }
  }
  // Operator scratch is part of the plan; lowering the operators finds it.
  std::vector<std::string> unknown;
  options.scratchBytes = codegen::operatorScratch(graph, &unknown);
  for (const std::string& problem : unknown) {
    std::cerr << "loupec memplan: warning: scratch not planned for " << problem << "\n";
  }
  // Every algorithm plans the same buffers (the execution order does not
  // depend on it): the operators' loops are traced once, for the planners
  // (--overlap-outputs) and for the bound printed after them.
  std::optional<std::vector<memory::OverlapAllowance>> traced;
  std::vector<std::string> notes;
  auto allowancesFor = [&](const memory::WorkspaceAnalysis& analysis) {
    if (!traced) {
      traced = codegen::operatorOverlaps(graph, analysis, target::CpuIsa::Scalar, &notes);
    }
    return *traced;
  };
  if (options.overlapOutputs) options.overlaps = allowancesFor;
  std::vector<memory::MemoryPlan> plans;
  if (options.planner == "all") {
    plans = memory::planMemoryWithEveryPlanner(graph, options);
  } else {
    plans.push_back(memory::planMemoryUnchecked(graph, options));
  }

  const std::vector<memory::OverlapAllowance> allowances = allowancesFor(plans.front().analysis);
  // The stage the plans run in strips, or the one patches would run.
  const memory::PatchBound patches =
      applied ? *applied : memory::patchLowerBound(graph, plans.front().analysis, allowances);
  bool allFit = true;
  for (const auto& plan : plans) allFit = allFit && plan.result.fits;
  if (parsed.has("--json")) {
    nlohmann::json json = {{"model", graph.name}, {"plans", nlohmann::json::array()}};
    for (const auto& plan : plans) json["plans"].push_back(memory::memoryPlanJson(graph, plan));
    const memory::MemoryPlan& first = plans.front();
    json["overlap_lower_bound"] = memory::overlapLowerBound(first.analysis.buffers, allowances);
    json["overlaps"] = nlohmann::json::array();
    for (const memory::OverlapAllowance& a : allowances) {
      json["overlaps"].push_back(
          {{"operator", first.analysis.order.at(static_cast<std::size_t>(a.step))},
           {"input", memory::bufferName(graph, first.analysis.buffers.at(a.inputBuffer))},
           {"lag_bytes", a.lagBytes},
           {"lead_bytes", a.leadBytes >= 0 ? nlohmann::json(a.leadBytes) : nlohmann::json()},
           {"shared_bytes", a.sharedBytes(first.analysis.buffers)}});
    }
    json["patches_applied"] = applied.has_value();
    if (patches.found) {
      json["patch_lower_bound"] = {
          {"bytes", patches.best.bound},          {"operators", patches.best.operators},
          {"strips", patches.best.strips},        {"stage_bytes", patches.best.stageBytes},
          {"rest_bytes", patches.best.restBytes}, {"extra_macs", patches.best.extraMacs}};
    } else {
      json["patch_lower_bound"] = nullptr;
    }
    std::cout << json.dump(2) << "\n";
  } else {
    printTable(graph, plans);
    printOverlapBound(graph, plans.front(), allowances, notes, parsed.has("--overlaps"));
    printPatchBound(applied ? imported : graph, plans.front(), patches, applied.has_value());
  }
  if (!allFit) {
    for (const auto& plan : plans) {
      if (!plan.result.fits) {
        std::cerr << "loupec memplan: "
                  << memory::describeMisfit(graph, plan, options.overlaps).text << "\n";
        break;
      }
    }
    return 1;
  }
  return 0;
}

}  // namespace loupe::cli
