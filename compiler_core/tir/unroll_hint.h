// A schedule's unroll knob on a lowered function: every innermost serial
// loop (one whose body has no loop) is marked with the factor, which the C
// printer passes to the compiler as `#pragma GCC unroll`. The loop's
// meaning does not change, only the code the C compiler makes of it.
#pragma once

#include "tir/stmt.h"

namespace loupe::tir {

Stmt hintInnermostUnroll(const Stmt& body, int factor);

}  // namespace loupe::tir
