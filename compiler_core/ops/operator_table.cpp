#include "ops/operator_table.h"

#include <algorithm>
#include <array>
#include <vector>

#include "ir/tflite_builtin_names.h"
#include "ops/operator_registry.h"

namespace loupe::ops {

namespace {

constexpr std::array<std::string_view, 100> kTflmBuiltins = {"ABS",
                                                             "ADD",
                                                             "ADD_N",
                                                             "ARG_MAX",
                                                             "ARG_MIN",
                                                             "ASSIGN_VARIABLE",
                                                             "AVERAGE_POOL_2D",
                                                             "BATCH_MATMUL",
                                                             "BATCH_TO_SPACE_ND",
                                                             "BROADCAST_ARGS",
                                                             "BROADCAST_TO",
                                                             "CALL_ONCE",
                                                             "CAST",
                                                             "CEIL",
                                                             "CONCATENATION",
                                                             "CONV_2D",
                                                             "COS",
                                                             "CUMSUM",
                                                             "DEPTHWISE_CONV_2D",
                                                             "DEPTH_TO_SPACE",
                                                             "DEQUANTIZE",
                                                             "DIV",
                                                             "DYNAMIC_UPDATE_SLICE",
                                                             "ELU",
                                                             "EMBEDDING_LOOKUP",
                                                             "EQUAL",
                                                             "EXP",
                                                             "EXPAND_DIMS",
                                                             "FILL",
                                                             "FLOOR",
                                                             "FLOOR_DIV",
                                                             "FLOOR_MOD",
                                                             "FULLY_CONNECTED",
                                                             "GATHER",
                                                             "GATHER_ND",
                                                             "GREATER",
                                                             "GREATER_EQUAL",
                                                             "HARD_SWISH",
                                                             "IF",
                                                             "L2_NORMALIZATION",
                                                             "L2_POOL_2D",
                                                             "LEAKY_RELU",
                                                             "LESS",
                                                             "LESS_EQUAL",
                                                             "LOG",
                                                             "LOGICAL_AND",
                                                             "LOGICAL_NOT",
                                                             "LOGICAL_OR",
                                                             "LOGISTIC",
                                                             "LOG_SOFTMAX",
                                                             "MAXIMUM",
                                                             "MAX_POOL_2D",
                                                             "MEAN",
                                                             "MINIMUM",
                                                             "MIRROR_PAD",
                                                             "MUL",
                                                             "NEG",
                                                             "NOT_EQUAL",
                                                             "PACK",
                                                             "PAD",
                                                             "PADV2",
                                                             "PRELU",
                                                             "QUANTIZE",
                                                             "READ_VARIABLE",
                                                             "REDUCE_ALL",
                                                             "REDUCE_MAX",
                                                             "REDUCE_MIN",
                                                             "RELU",
                                                             "RELU6",
                                                             "RESHAPE",
                                                             "RESIZE_BILINEAR",
                                                             "RESIZE_NEAREST_NEIGHBOR",
                                                             "REVERSE_V2",
                                                             "ROUND",
                                                             "RSQRT",
                                                             "SELECT_V2",
                                                             "SHAPE",
                                                             "SIN",
                                                             "SLICE",
                                                             "SOFTMAX",
                                                             "SPACE_TO_BATCH_ND",
                                                             "SPACE_TO_DEPTH",
                                                             "SPLIT",
                                                             "SPLIT_V",
                                                             "SQRT",
                                                             "SQUARE",
                                                             "SQUARED_DIFFERENCE",
                                                             "SQUEEZE",
                                                             "STRIDED_SLICE",
                                                             "SUB",
                                                             "SUM",
                                                             "SVDF",
                                                             "TANH",
                                                             "TRANSPOSE",
                                                             "TRANSPOSE_CONV",
                                                             "UNIDIRECTIONAL_SEQUENCE_LSTM",
                                                             "UNPACK",
                                                             "VAR_HANDLE",
                                                             "WHILE",
                                                             "ZEROS_LIKE"};

int builtinCode(std::string_view name) {
  for (int code = 0; code < 256; ++code) {
    if (ir::tfliteBuiltinName(code) == name) return code;
  }
  return -1;
}

const char* mark(bool yes) {
  return yes ? "yes" : "-";
}

}  // namespace

std::span<const std::string_view> tflmBuiltins() {
  return kTflmBuiltins;
}

std::string operatorTableMarkdown() {
  std::vector<std::string_view> names(kTflmBuiltins.begin(), kTflmBuiltins.end());
  for (const OperatorDefinition* definition : allDefinitions()) {
    const std::string_view name = ir::opTypeName(definition->type);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());

  int supported = 0, lowered = 0, inTflm = 0;
  std::string rows;
  for (std::string_view name : names) {
    const bool tflm =
        std::find(kTflmBuiltins.begin(), kTflmBuiltins.end(), name) != kTflmBuiltins.end();
    const int code = builtinCode(name);
    const auto type = ir::opTypeFromBuiltinCode(code);
    const OperatorDefinition* definition = type ? &definitionOf(*type) : nullptr;
    const bool resolved = definition != nullptr && !definition->resolvedByImporter.empty();
    const bool reference = definition != nullptr && (definition->kernel != nullptr || resolved);
    const bool c = definition != nullptr && (definition->lower != nullptr || resolved);
    inTflm += tflm ? 1 : 0;
    supported += reference && tflm ? 1 : 0;
    lowered += c && tflm ? 1 : 0;
    const std::string runs = resolved ? "import" : mark(reference);
    std::string types = "-";
    if (resolved) {
      types = std::string(definition->resolvedByImporter);
    } else if (definition != nullptr && !definition->dtypes.empty()) {
      types = std::string(definition->dtypes);
    }
    rows += "| " + std::string(name) + " | " + std::to_string(code) + " | " + mark(tflm) + " | " +
            runs + " | " + (resolved ? "import" : mark(c)) + " | " +
            mark(definition != nullptr && definition->lowerSimd != nullptr) + " | " + types +
            " |\n";
  }
  std::string text =
      "# Operators\n\n"
      "Generated from Loupe's operator table (`compiler_core/ops`) by the test "
      "`ops_operator_table`; do not edit by hand (run that test with "
      "`LOUPE_UPDATE_OPERATOR_TABLE=1` to rewrite it, or see `loupec operators`).\n\n"
      "Every builtin TFLite Micro's `MicroMutableOpResolver` can register, with what Loupe "
      "does with it: **reference** is the interpreter that defines the results (bit-exact with "
      "TFLite Micro's kernels for integer types), **C** the portable C lowering, **Cortex-M** "
      "the DSP/MVE kernels, and the element types the kernel accepts. An operator without a "
      "reference kernel is refused when compiling, with its TFLite name. **import** marks the "
      "operators the importer resolves into others (the resource-variable handles, CALL_ONCE's "
      "init subgraph).\n\n";
  text += "Loupe runs " + std::to_string(supported) + " of the " + std::to_string(inTflm) +
          " TFLite Micro builtins, " + std::to_string(lowered) + " of them in generated C.\n\n";
  text +=
      "| Builtin | Code | TFLM | Reference | C | Cortex-M | Element types |\n"
      "|---|---|---|---|---|---|---|\n";
  return text + rows;
}

}  // namespace loupe::ops
