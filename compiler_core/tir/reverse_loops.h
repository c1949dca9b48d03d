// Runs a function's outer loop nest backwards: the loops the body opens
// with (through its allocations and bindings), each nested directly in the
// one before, and the first loop whose body is more than a loop, all count
// down instead of up. An operator whose iterations of those loops each write
// their own output elements from the inputs alone (a convolution's pixels)
// computes the same bytes either way; running backwards lets its output
// start above an input it overwrites (tir/access_trace.h's lead) instead of
// below it, which is what a chain of such operators needs to stay in place.
#pragma once

#include "tir/prim_func.h"

namespace loupe::tir {

// `f` with its outer loop nest reversed; the same function if it opens with
// no loop.
PrimFunc reverseOuterLoops(const PrimFunc& f);

}  // namespace loupe::tir
