// loupec info: what a model contains, in execution order, with cost and
// whether Loupe can run each operator.
#include <cstdio>
#include <iostream>

#include "analysis/device_mapping.h"
#include "analysis/ethosu_command_listing.h"
#include "analysis/model_report.h"
#include "analysis/operator_cost.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/target_options.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "frontend/vela_operator.h"
#include "ir/graph_printer.h"
#include "reference/reference_interpreter.h"

namespace loupe::cli {

const char* const kInfoUsage =
    "  loupec info MODEL [--json] [--target \"ethos-u, c\"]\n"
    "      operators in execution order with operands, MACs and bytes, the target each runs\n"
    "      on (default \"c\") and why the others refuse it; model inputs, outputs and totals;\n"
    "      operators Loupe cannot run, with the reason";

namespace {

// Converters join every folded layer's name into one tensor name; the text
// view keeps both ends of it.
std::string shortName(const std::string& name) {
  constexpr std::size_t kKeep = 30;
  if (name.size() <= 2 * kKeep + 3) return name;
  return name.substr(0, kKeep) + "..." + name.substr(name.size() - kKeep);
}

std::string operandLine(const ir::Graph& graph, const char* role, int index) {
  if (index == ir::kNoTensor) return std::string("      ") + role + " (none)\n";
  const auto& t = graph.tensor(index);
  return std::string("      ") + role + " " + (t.isConstant ? "%c" : "%") + std::to_string(index) +
         " \"" + shortName(t.name) + "\" " + ir::tensorTypeToString(t) + "\n";
}

// "npu npu_0", "c", or "none" when no target accepts the operator.
std::string placementText(const ir::Graph& graph, const ir::Operator& op) {
  if (op.placement.target.empty()) return "none";
  const std::string region = ir::regionName(graph, op);
  return region.empty() ? op.placement.target : op.placement.target + " " + region;
}

// The subgraphs a control-flow operator runs, one line each:
// "then: subgraph 1 \"add\", 1 operator: ADD".
void printSubgraphs(const ir::Operator& op) {
  constexpr std::size_t kNamesShown = 12;
  const auto* options = std::get_if<ir::OptionAttrs>(&op.attributes);
  for (std::size_t s = 0; s < op.subgraphs.size(); ++s) {
    if (options == nullptr || s >= options->values.size()) break;
    const auto& [field, index] = options->values[s];
    const ir::Graph& subgraph = *op.subgraphs[s];
    std::cout << "      " << field.substr(0, field.find('_')) << ": subgraph " << index << " \""
              << subgraph.name << "\", " << subgraph.operators.size()
              << (subgraph.operators.size() == 1 ? " operator" : " operators");
    for (std::size_t i = 0; i < subgraph.operators.size() && i < kNamesShown; ++i) {
      std::cout << (i == 0 ? ": " : ", ") << subgraph.operators[i].typeName();
    }
    if (subgraph.operators.size() > kNamesShown) std::cout << ", ...";
    std::cout << "\n";
  }
}

void printText(const ir::Graph& graph, const std::vector<analysis::SupportProblem>& problems,
               const target::TargetList& targets) {
  std::cout << "model " << graph.name << "\n";
  if (!graph.description.empty()) std::cout << "description: " << graph.description << "\n";
  std::cout << "\ninputs:\n";
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    const auto& t = graph.tensor(graph.inputs[i]);
    std::cout << "  " << i << ": %" << t.index << " \"" << t.name << "\" "
              << ir::tensorTypeToString(t) << ", " << t.byteSize() << " bytes\n";
  }
  std::cout << "outputs:\n";
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    const auto& t = graph.tensor(graph.outputs[i]);
    std::cout << "  " << i << ": %" << t.index << " \"" << t.name << "\" "
              << ir::tensorTypeToString(t) << ", " << t.byteSize() << " bytes\n";
  }
  std::cout << "\noperators (" << graph.operators.size() << ", execution order):\n";
  for (const auto& op : graph.operators) {
    const auto cost = analysis::operatorCost(graph, op);
    char header[200];
    std::snprintf(header, sizeof header,
                  "  %3d  %-28s %-11s MACs %14s   params %10s B   out %9s B\n", op.index,
                  op.typeName().c_str(), placementText(graph, op).c_str(),
                  ir::groupDigits(cost.macs).c_str(), ir::groupDigits(cost.parameterBytes).c_str(),
                  ir::groupDigits(cost.outputBytes).c_str());
    std::cout << header;
    if (auto attrs = ir::attributesToString(op.attributes); !attrs.empty()) {
      std::cout << "      {" << attrs << "}\n";
    }
    printSubgraphs(op);
    for (int index : op.inputs) std::cout << operandLine(graph, "in ", index);
    for (int index : op.outputs) std::cout << operandLine(graph, "out", index);
    for (const auto& problem : problems) {
      if (problem.operatorIndex == op.index) {
        std::cout << "      UNSUPPORTED: " << problem.reason << "\n";
      }
    }
    for (const ir::TargetRejection& rejection : op.placement.rejections) {
      for (const std::string& reason : rejection.reasons) {
        std::cout << "      not on " << rejection.target << ": " << reason << "\n";
      }
    }
    if (op.type == ir::OpType::EthosU) {
      std::cout << "      " << frontend::describeEthosUOperator(graph, op) << "\n"
                << analysis::npuOperationsText(analysis::ethosuPayloadOf(graph, op), "      ");
    }
  }
  const auto totals = analysis::graphCost(graph);
  std::cout << "\ntotals: " << graph.operators.size() << " operators, "
            << ir::groupDigits(totals.macs) << " MACs, " << ir::groupDigits(totals.parameterBytes)
            << " parameter bytes, " << ir::groupDigits(totals.activationBytes)
            << " activation bytes (all tensors, unplanned)\n";
  if (problems.empty()) {
    std::cout << "support: every operator can run on the reference interpreter\n";
  } else {
    std::cout << "support: " << problems.size() << " operator(s) cannot run (see UNSUPPORTED)\n";
  }
  std::cout << "targets (" << target::targetListString(targets)
            << "): " << targetSummary(graph, targets) << "\n";
}

}  // namespace

int runInfoCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  const auto parsed =
      parseArguments(args, {{"--json", OptionSpec::Kind::Flag}, targetOptionSpec()});
  if (parsed.positional.size() != 1) throw UsageError("info needs exactly one MODEL file");
  const target::TargetList targets = targetsFrom(parsed, registries.targets);

  frontend::ImportOptions options;
  options.keepUnsupportedOperators = true;  // show what is there, flag what cannot run
  // The model's own operators are partitioned, as imported: an operator no
  // target accepts is shown with every target's reasons instead of failing.
  const ir::Graph graph = driver::previewPartitioning(
      frontend::importTfliteFile(parsed.positional[0], options), targets);

  std::vector<analysis::SupportProblem> problems;
  for (const auto& problem : reference::findUnsupportedOperators(graph)) {
    problems.push_back({problem.operatorIndex, problem.reason});
  }
  if (parsed.has("--json")) {
    nlohmann::json report = analysis::modelReportJson(graph, problems);
    report["target"] = target::targetListString(targets);
    report["target_summary"] = targetSummary(graph, targets);
    report["device_mapping"] = analysis::deviceMappingJson(graph);
    std::cout << report.dump(2) << "\n";
  } else {
    printText(graph, problems, targets);
  }
  return 0;
}

}  // namespace loupe::cli
