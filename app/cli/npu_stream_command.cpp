// loupec npu-stream: the Ethos-U command stream of a Vela-compiled model,
// listed like a disassembler's output, grouped by NPU operation.
#include <iostream>

#include "analysis/ethosu_command_listing.h"
#include "analysis/ethosu_region_map.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "frontend/tflite_importer.h"
#include "frontend/vela_operator.h"

namespace loupe::cli {

const char* const kNpuStreamUsage =
    "  loupec npu-stream MODEL [--json] [--regions]\n"
    "      lists the Ethos-U command stream of every Vela operator (CUSTOM ethos-u) like a\n"
    "      disassembler: the payload's driver actions, then per NPU operation (kind, IFM -> OFM,\n"
    "      kernel, weights, block) each command's word offset, its words in hex, its name and\n"
    "      its fields by name. --json prints {\"model\", \"operators\": [{\"index\", "
    "\"accelerator\",\n"
    "      \"streams\": [{\"operations\": [{..., \"commands\": [{\"offset\", \"words\", "
    "\"command\",\n"
    "      \"fields\"}]}]}]}]}.\n"
    "      --regions prints instead what lies where in the operator's regions: the flash's\n"
    "      weight and scale streams, lookup tables and unused bytes, then each feature map and\n"
    "      DMA copy of the scratch with the NPU operations it lives from and to";

int runNpuStreamCommand(const std::vector<std::string>& args) {
  const auto parsed = parseArguments(
      args, {{"--json", OptionSpec::Kind::Flag}, {"--regions", OptionSpec::Kind::Flag}});
  if (parsed.positional.size() != 1) throw UsageError("npu-stream needs exactly one MODEL file");
  if (parsed.has("--json") && parsed.has("--regions")) {
    throw UsageError("npu-stream --regions prints text only: leave out --json");
  }
  frontend::ImportOptions options;
  options.keepUnsupportedOperators = true;  // other custom operators do not matter here
  const ir::Graph graph = frontend::importTfliteFile(parsed.positional[0], options);

  nlohmann::json operators = nlohmann::json::array();
  std::string text;
  for (const ir::Operator& op : graph.operators) {
    if (op.type != ir::OpType::EthosU) continue;
    const frontend::EthosUPayload payload = analysis::ethosuPayloadOf(graph, op);
    nlohmann::json listing = analysis::commandListingJson(payload);
    listing["index"] = op.index;
    operators.push_back(std::move(listing));
    text += (text.empty() ? "" : "\n") + std::string("operator ") + std::to_string(op.index) +
            " (" + op.typeName() + "): " + frontend::describeEthosUOperator(graph, op) + "\n" +
            (parsed.has("--regions")
                 ? analysis::ethosuRegionMapText(analysis::ethosuRegionMapOf(graph, op))
                 : analysis::commandListingText(payload));
  }
  if (operators.empty()) {
    throw std::runtime_error(graph.name + " has no Vela operator (CUSTOM ethos-u) to list");
  }
  if (parsed.has("--json")) {
    std::cout << nlohmann::json{{"model", graph.name}, {"operators", operators}}.dump(2) << "\n";
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace loupe::cli
