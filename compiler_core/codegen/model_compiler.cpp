#include "codegen/model_compiler.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "codegen/aot_executor_printer.h"
#include "codegen/c_function_printer.h"
#include "lowering/lower_operator.h"
#include "lowering/lowering_support.h"
#include "tir/simplify.h"

namespace loupe::codegen {

namespace {

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool isValidModelName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

CompiledModel compileToC(const ir::Graph& graph, const CompileOptions& options) {
  if (!isValidModelName(options.modelName)) {
    throw std::invalid_argument("model name \"" + options.modelName +
                                "\" is not a C identifier (letters, digits and _, not starting "
                                "with a digit)");
  }
  CompiledModel model;
  model.modelName = options.modelName;
  model.externalWorkspace = options.externalWorkspace;
  model.graph = graph;
  const std::string prefix = "tvmgen_" + options.modelName + "_fused_";
  for (const ir::Operator& op : graph.operators) {
    const bool outputIsModelOutput = std::find(graph.outputs.begin(), graph.outputs.end(),
                                               op.outputs.front()) != graph.outputs.end();
    if (ir::isNoCopyView(graph, op) && !outputIsModelOutput) continue;
    const std::string name =
        prefix + lowerCase(op.typeName()) + "_" + std::to_string(model.functions.size());
    tir::PrimFunc func = lowering::lowerOperator(graph, op, name);
    func.body = tir::simplify(func.body);
    int device = -1;
    if (auto it = options.operatorDevices.find(op.index); it != options.operatorDevices.end()) {
      if (!isValidModelName(it->second)) {
        throw std::invalid_argument("device name \"" + it->second + "\" is not a C identifier");
      }
      auto known = std::find(model.devices.begin(), model.devices.end(), it->second);
      device = static_cast<int>(known - model.devices.begin());
      if (known == model.devices.end()) model.devices.push_back(it->second);
    }
    model.calls.push_back({op.index, model.functions.size(), device});
    model.functions.push_back(std::move(func));
  }
  if (model.functions.size() > 255) {
    throw lowering::LoweringError("the model has " + std::to_string(model.functions.size()) +
                                  " operator functions; a function registry holds at most 255");
  }
  model.state = operatorState(graph, model.functions, options.modelName);
  for (const StateBuffer& s : model.state) model.stateBytes += s.bytes;
  model.workspace = memory::analyzeWorkspace(graph, ir::isNoCopyView);
  model.workspaceBytes = memory::planGreedyBySize(model.workspace.buffers);

  for (const tir::PrimFunc& f : model.functions) {
    model.sources.push_back({f.name + ".c", printCSource(f)});
  }
  model.sources.push_back(printRunSource(model));
  model.sources.push_back(printRegistrySource(model));
  model.headers.push_back(printModelHeader(model));
  return model;
}

}  // namespace loupe::codegen
