// What the operator definitions share to read TFLite builtin options: the
// checked conversions of padding, fused activation and positive integers,
// and access to the options table. Only ops/*.cpp include it: it sees the
// flatc-generated schema types.
#pragma once

#include <string>

#include "ir/attributes.h"
#include "tflite_schema_generated.h"

namespace loupe::ops {

// Throws frontend::ImportError "<where>: <what>".
[[noreturn]] void failOptions(const std::string& where, const std::string& what);

ir::Padding readPadding(tflite::Padding value, const std::string& where);
ir::Activation readActivation(tflite::ActivationFunctionType value, const std::string& where);
// `value` when at least 1, else fails naming the field.
int readPositive(int value, const char* field, const std::string& where);
// A float that must be finite.
float readFinite(float value, const char* field, const std::string& where);

// The options table when the union's type says it is one of `Options`; only
// then has the Verifier checked it (a value under type NONE is unverified).
template <typename Options>
const Options* optionsAs(const tflite::Operator& op) {
  return op.builtin_options_as<Options>();
}

// The union value of `Options` (for ImportRule::optionsType).
template <typename Options>
constexpr std::uint8_t optionsTypeOf() {
  return static_cast<std::uint8_t>(tflite::BuiltinOptionsTraits<Options>::enum_value);
}

}  // namespace loupe::ops
