// The intrinsics TIR may call: the shared fixed-point helpers of
// runtime_core/crt/include/loupe, which the reference interpreter also uses,
// so a generated kernel and the oracle compute every element with the same C
// function. Each has a TIR name (printed as T.call_intrin), the C function it
// becomes, its result type and its argument count.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tir/scalar_type.h"

namespace loupe::tir {

struct Intrinsic {
  std::string_view name;       // "loupe.requantize_i32"
  std::string_view cFunction;  // "loupe_requantize_acc_i32"
  ScalarType result;
  int arity;
  std::string_view header;  // what the generated C includes for it
  // false: the call writes through its pointer arguments (T.address_of),
  // so it is evaluated for its effect and never moved or dropped.
  bool pure = true;
};

// The intrinsic called `name`, or nullopt.
std::optional<Intrinsic> findIntrinsic(std::string_view name);

// Every intrinsic, in table order.
std::span<const Intrinsic> allIntrinsics();

}  // namespace loupe::tir
