// The table of what Loupe supports, operator by operator, against the
// builtins TFLite Micro's MicroMutableOpResolver registers: the source of
// docs/operators.md (a test keeps the file equal to it) and of
// `loupec operators`.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace loupe::ops {

// The TFLite builtins TFLite Micro can register (its MicroMutableOpResolver,
// tflite-micro commit 90b983c), by TFLite name.
std::span<const std::string_view> tflmBuiltins();

// The operator table in Markdown: one row per TFLM builtin (and per operator
// Loupe defines beyond them), with Loupe's reference kernel, C lowering,
// Cortex-M kernels and element types, then the totals.
std::string operatorTableMarkdown();

}  // namespace loupe::ops
