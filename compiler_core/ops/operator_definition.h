// One operator, defined once: how the importer reads it from a TFLite file,
// the rule its output shapes and types follow, the reference kernel that
// says what it computes (and why it cannot run), its lowering to TIR, and its
// cost. Every operator has one definition (ops/<operator>.cpp), registered
// in operator_registry.cpp; the importer, the passes, the interpreter, the
// code generator, the analyses and the GUI read the registry, so adding an
// operator is adding one file and its line in ir/op_type.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/graph.h"
#include "lowering/schedule.h"
#include "ops/shape_rule.h"
#include "reference/kernel.h"
#include "target/cpu_isa.h"
#include "tir/prim_func.h"

namespace tflite {
struct Operator;
}

namespace loupe::ops {

// What the importer requires of the operator and how it reads its options.
struct ImportRule {
  int minInputs = 1;
  int maxInputs = 1;  // -1: any number (CONCATENATION, PACK, ADD_N)
  int outputs = 1;    // -1: any number of at least one (SPLIT, UNPACK)
  // The TFLite BuiltinOptions union value the operator carries; 0 for none.
  std::uint8_t optionsType = 0;
  // The options hold values with no usable default (strides, ...).
  bool optionsRequired = false;
  // The newest operator version Loupe understands; newer ones carry
  // semantics it does not know and are refused.
  int maxVersion = 1;
  // Converts and checks the builtin options (already known to be of
  // optionsType, or absent); `where` prefixes error messages. Throws
  // frontend::ImportError. nullptr: the operator has no attributes.
  ir::Attributes (*readOptions)(const tflite::Operator& op, const std::string& where) = nullptr;
};

using ShapeRule = std::optional<InferredOutput> (*)(const ir::Graph& graph, const ir::Operator& op);
using LoweringRule = tir::PrimFunc (*)(const ir::Graph& graph, const ir::Operator& op,
                                       const std::string& functionName);
// A kernel for a Cortex-M instruction set, or nullopt where it covers none;
// the schedule's kernel knobs (SimdKnobsRule) choose among its variants.
using SimdLoweringRule = std::optional<tir::PrimFunc> (*)(const ir::Graph& graph,
                                                          const ir::Operator& op,
                                                          const std::string& functionName,
                                                          target::CpuIsa isa,
                                                          const lowering::Schedule& schedule);
// The knobs a SIMD lowering offers for `op` on `isa` beyond "kernel" and
// "unroll" (empty where it has no variants to choose from).
using SimdKnobsRule = std::vector<lowering::Knob> (*)(const ir::Graph& graph,
                                                      const ir::Operator& op, target::CpuIsa isa);
// Multiply-accumulates (see analysis::OperatorCost for what counts as one).
using MacsRule = std::int64_t (*)(const ir::Graph& graph, const ir::Operator& op);

struct OperatorDefinition {
  ir::OpType type = ir::OpType::Opaque;
  // The element types the kernel accepts, as a user reads them
  // ("float32, int8, int16"); the operator table (docs/operators.md) shows it.
  std::string_view dtypes = {};
  ImportRule import;
  // nullptr: no rule (the kernel's check covers the outputs).
  ShapeRule shape = nullptr;
  // The reference kernel (check and evaluation); nullptr: not runnable.
  const reference::Kernel* kernel = nullptr;
  // Portable C; nullptr: no C lowering.
  LoweringRule lower = nullptr;
  SimdLoweringRule lowerSimd = nullptr;
  SimdKnobsRule simdKnobs = nullptr;
  // nullptr: no arithmetic (data movement).
  MacsRule macs = nullptr;
  // Operators that never reach the graph (VAR_HANDLE, CALL_ONCE): what the
  // importer turns them into. Empty for every other operator.
  std::string_view resolvedByImporter = {};
};

}  // namespace loupe::ops
