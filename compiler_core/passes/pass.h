// What every graph pass shares: the signature (a function from graph to
// graph with a name), the context a pipeline threads through its passes (a
// log of what each pass changed), and the error a pass throws when the graph
// is not what it must be, with diagnostics that name the operator and the
// tensor and say what was expected and what was found.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "target/target_string.h"

namespace loupe::passes {

struct PassContext {
  // The pass being run; the pass manager sets it.
  std::string currentPass;
  // One line per change a pass made ("fuse_operators: RELU #5 folded into
  // CONV_2D #4"), in order, for logs, the CLI and the GUI.
  std::vector<std::string> remarks;
  // The targets in priority order, for annotate_targets (from --target).
  target::TargetList targets;

  void remark(const std::string& text) {
    remarks.push_back(currentPass.empty() ? text : currentPass + ": " + text);
  }
};

// One function from graph to graph with a name: the unit the pass manager
// runs, times and records.
struct GraphPass {
  std::string name;
  ir::Graph (*run)(ir::Graph graph, PassContext& context) = nullptr;
};

// Where a graph is wrong: the operator (its position in the graph the pass
// saw, its model operators and type), the tensor, and expected vs found.
struct PassDiagnostic {
  int operatorIndex = -1;
  std::vector<int> modelOperators;  // the imported model's operator indices
  std::string operatorType;
  int tensorIndex = -1;
  std::string tensorName;
  std::string expected;
  std::string found;  // empty when `expected` already says what was found

  // "operator 3 (CONV_2D), tensor 12 'conv': expected int8[1,5,5,8],
  // found int8[1,4,4,8]"; " [model op #4]" follows the type when the
  // operator's position differs from its model index.
  std::string message() const;
};

PassDiagnostic diagnosticAt(const ir::Graph& graph, const ir::Operator& op, int tensorIndex,
                            std::string expected, std::string found);

class PassError : public std::runtime_error {
 public:
  PassError(std::string pass, std::vector<PassDiagnostic> diagnostics);

  const std::string& pass() const { return pass_; }
  const std::vector<PassDiagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::string pass_;
  std::vector<PassDiagnostic> diagnostics_;
};

}  // namespace loupe::passes
