// Names of TFLite's builtin operator codes, for diagnostics about operators
// Loupe does not support ("GATHER (builtin code 36)").
#pragma once

#include <string>

namespace loupe::ir {

// "GATHER"; for a code outside TFLite's table, "code <n>".
std::string tfliteBuiltinName(int builtinCode);

}  // namespace loupe::ir
