// Runs a graph through the whole C path for codegen tests: lower to TIR,
// print C, build it natively with the host platform's main (strict C99
// flags, cached under the build tree), run it, and return the outputs; plus
// the reference interpreter's outputs and random inputs to compare them on.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codegen/model_compiler.h"
#include "ir/graph.h"

namespace loupe::test {

using Bytes = std::vector<std::uint8_t>;

// Outputs of the generated C, in graph.outputs order.
std::vector<Bytes> runGeneratedC(const ir::Graph& graph, const std::vector<Bytes>& inputs,
                                 const codegen::CompileOptions& options = {});

// Outputs of the reference interpreter.
std::vector<Bytes> runReference(const ir::Graph& graph, const std::vector<Bytes>& inputs);

// One run's inputs (or outputs), in graph order.
using Invocation = std::vector<Bytes>;

// The generated C run once per invocation in one process, so operator state
// (variable tensors) carries over from run to run; with resetBefore >= 0,
// tvmgen_<name>_reset_state() is called before that run. The outputs of
// every run, in order.
std::vector<Invocation> runGeneratedCInvocations(const ir::Graph& graph,
                                                 const std::vector<Invocation>& invocations,
                                                 int resetBefore = -1);

// The same with one reference interpreter invoked repeatedly; a reset starts
// a fresh interpreter.
std::vector<Invocation> runReferenceInvocations(const ir::Graph& graph,
                                                const std::vector<Invocation>& invocations,
                                                int resetBefore = -1);

// Uniformly random bytes for every model input (every value of the element
// type can occur; float32 inputs get values in [-1, 1)).
std::vector<Bytes> randomInputs(const ir::Graph& graph, std::uint32_t seed);

// "" when equal, else the first differing byte and its element.
std::string firstDifference(const Bytes& actual, const Bytes& expected);

// Where the harness keeps host builds (under the build tree).
std::string codegenCacheRoot();

}  // namespace loupe::test
