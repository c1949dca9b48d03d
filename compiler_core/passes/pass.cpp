#include "passes/pass.h"

namespace loupe::passes {

namespace {
std::string describe(const std::string& pass, const std::vector<PassDiagnostic>& diagnostics) {
  std::string text = pass + ":";
  if (diagnostics.size() == 1) return text + " " + diagnostics.front().message();
  for (const auto& diagnostic : diagnostics) text += "\n  " + diagnostic.message();
  return text;
}
}  // namespace

std::string PassDiagnostic::message() const {
  std::string text = "operator " + std::to_string(operatorIndex) + " (" + operatorType + ")";
  if (!modelOperators.empty() && modelOperators != std::vector<int>{operatorIndex}) {
    text += " [model op";
    for (std::size_t i = 0; i < modelOperators.size(); ++i) {
      text += (i ? ", #" : " #") + std::to_string(modelOperators[i]);
    }
    text += "]";
  }
  if (tensorIndex >= 0) {
    text += ", tensor " + std::to_string(tensorIndex) + " '" + tensorName + "'";
  }
  text += ": expected " + expected;
  return found.empty() ? text : text + ", found " + found;
}

PassDiagnostic diagnosticAt(const ir::Graph& graph, const ir::Operator& op, int tensorIndex,
                            std::string expected, std::string found) {
  PassDiagnostic diagnostic;
  diagnostic.operatorIndex = op.index;
  diagnostic.modelOperators = op.modelOperators();
  diagnostic.operatorType = op.typeName();
  diagnostic.tensorIndex = tensorIndex;
  if (tensorIndex >= 0) diagnostic.tensorName = graph.tensor(tensorIndex).name;
  diagnostic.expected = std::move(expected);
  diagnostic.found = std::move(found);
  return diagnostic;
}

PassError::PassError(std::string pass, std::vector<PassDiagnostic> diagnostics)
    : std::runtime_error(describe(pass, diagnostics)),
      pass_(std::move(pass)),
      diagnostics_(std::move(diagnostics)) {}

}  // namespace loupe::passes
