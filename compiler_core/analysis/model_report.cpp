#include "analysis/model_report.h"

#include <charconv>
#include <string>

#include "analysis/ethosu_command_listing.h"
#include "analysis/operator_cost.h"
#include "frontend/vela_operator.h"
#include "ir/graph_printer.h"

namespace loupe::analysis {

namespace {

// A float32 as the JSON number with 9 significant digits, which parses back
// to the same float32 (the golden manifests print scales the same way).
// Parsed with from_chars, which, unlike strtod, ignores the process's locale.
double shortestFloat(float value) {
  const std::string text = ir::floatToString(value);
  double parsed = 0;
  std::from_chars(text.data(), text.data() + text.size(), parsed);
  return parsed;
}

nlohmann::json quantizationJson(const ir::Quantization& q) {
  if (!q.isQuantized()) return nullptr;
  if (!q.isPerChannel()) {
    return {{"scale", shortestFloat(q.scale())}, {"zero_point", q.zeroPoint()}};
  }
  nlohmann::json scales = nlohmann::json::array();
  for (float s : q.scales) scales.push_back(shortestFloat(s));
  return {{"scales", scales},
          {"zero_points", q.zeroPoints},
          {"quantized_dimension", q.quantizedDimension}};
}

nlohmann::json operandJson(const ir::Graph& graph, int index) {
  if (index == ir::kNoTensor) return nullptr;
  return tensorJson(graph.tensor(index));
}

nlohmann::json ethosuOperatorJson(const ir::Graph& graph, const ir::Operator& op,
                                  const ir::EthosUAttrs& attrs) {
  const ir::Tensor* payload = graph.input(op, 0);
  const ir::Tensor* flash = graph.input(op, 1);
  return {
      {"accelerator", std::string(ir::ethosuAcceleratorName(attrs.accelerator))},
      {"payload_bytes", payload ? payload->byteSize() : 0},
      {"flash_bytes", flash ? flash->byteSize() : 0},
      {"scratch_bytes", attrs.scratchBytes},
      {"fast_scratch_bytes", attrs.fastScratchBytes},
      {"fast_scratch_offset", attrs.fastScratchOffset >= 0 ? nlohmann::json(attrs.fastScratchOffset)
                                                           : nlohmann::json(nullptr)},
      {"input_offsets", attrs.inputOffsets},
      {"output_offsets", attrs.outputOffsets},
      {"workspace_values", attrs.workspaceValues},
      {"description", frontend::describeEthosUOperator(graph, op)},
      {"npu_operations", npuOperationsJson(ethosuPayloadOf(graph, op))}};
}

}  // namespace

nlohmann::json tensorJson(const ir::Tensor& tensor) {
  return {{"index", tensor.index},
          {"name", tensor.name},
          {"dtype", std::string(ir::dtypeName(tensor.dtype))},
          {"shape", tensor.shape},
          {"quantization", quantizationJson(tensor.quantization)},
          {"constant", tensor.isConstant},
          {"variable", tensor.isVariable},
          {"bytes", tensor.byteSize()}};
}

nlohmann::json modelReportJson(const ir::Graph& graph,
                               const std::vector<SupportProblem>& problems) {
  nlohmann::json operators = nlohmann::json::array();
  for (const auto& op : graph.operators) {
    const OperatorCost cost = operatorCost(graph, op);
    nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
    for (int index : op.inputs) inputs.push_back(operandJson(graph, index));
    for (int index : op.outputs) outputs.push_back(operandJson(graph, index));
    nlohmann::json supportProblems = nlohmann::json::array();
    for (const auto& problem : problems) {
      if (problem.operatorIndex == op.index) supportProblems.push_back(problem.reason);
    }
    nlohmann::json targetReasons = nlohmann::json::array();
    for (const ir::TargetRejection& rejection : op.placement.rejections) {
      for (const std::string& reason : rejection.reasons) {
        targetReasons.push_back(rejection.target + ": " + reason);
      }
    }
    const std::string region = ir::regionName(graph, op);
    nlohmann::json entry = {
        {"index", op.index},
        {"type", op.typeName()},
        {"version", op.version},
        {"attributes", ir::attributesToString(op.attributes)},
        {"inputs", inputs},
        {"outputs", outputs},
        {"macs", cost.macs},
        {"bytes",
         {{"input", cost.inputBytes},
          {"output", cost.outputBytes},
          {"parameters", cost.parameterBytes}}},
        {"supported", supportProblems.empty()},
        {"support_problems", supportProblems},
        {"target", op.placement.target.empty() ? nlohmann::json(nullptr)
                                               : nlohmann::json(op.placement.target)},
        {"region", region.empty() ? nlohmann::json(nullptr) : nlohmann::json(region)},
        {"reasons", targetReasons}};
    if (const auto* ethosu = std::get_if<ir::EthosUAttrs>(&op.attributes)) {
      entry["ethos_u"] = ethosuOperatorJson(graph, op, *ethosu);
    }
    operators.push_back(std::move(entry));
  }
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (int index : graph.inputs) inputs.push_back(tensorJson(graph.tensor(index)));
  for (int index : graph.outputs) outputs.push_back(tensorJson(graph.tensor(index)));
  const GraphCost totals = graphCost(graph);
  return {{"model", graph.name},
          {"description", graph.description},
          {"operators", operators},
          {"inputs", inputs},
          {"outputs", outputs},
          {"tensor_count", graph.tensors.size()},
          {"totals",
           {{"operators", graph.operators.size()},
            {"macs", totals.macs},
            {"parameter_bytes", totals.parameterBytes},
            {"activation_bytes", totals.activationBytes},
            {"unsupported_operators", problems.size()}}}};
}

}  // namespace loupe::analysis
