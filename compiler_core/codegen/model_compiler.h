// Graph (after the graph passes) -> C: lowers every operator to TIR,
// simplifies it, plans the workspace, and prints the operator sources, the
// AOT executor, the registry and the model header.
#pragma once

#include <string>

#include "codegen/compiled_model.h"

namespace loupe::codegen {

struct CompileOptions {
  std::string modelName = "default";
  // false: the workspace is a static array in the generated code (the default
  // model compilation of rfcs/002); true: the application passes it in.
  bool externalWorkspace = false;
};

// Throws lowering::LoweringError (naming the operator) when an operator
// cannot be compiled, and std::invalid_argument for a bad model name.
CompiledModel compileToC(const ir::Graph& graph, const CompileOptions& options);

// A model name usable in C identifiers: [A-Za-z0-9_]+, not starting with a digit.
bool isValidModelName(const std::string& name);

}  // namespace loupe::codegen
