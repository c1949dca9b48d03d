// Moves an operator's large scratch buffers out of the C stack and into the
// planned workspace. Every Allocate of at least `minBytes` gets a byte offset
// in one scratch region per function (PrimFunc::scratchBytes), which the
// caller passes and the memory planner places like a tensor. Offsets follow
// the nesting of the Allocates as a stack would: an allocation sits above the
// ones enclosing it, and allocations in sibling scopes reuse the same bytes,
// so the region is as small as the deepest nest. Small scratch (scalar
// accumulators the C compiler keeps in registers) stays local. The array an
// Allocate declares is uninitialised either way, so the body's meaning does
// not change; what does is that the RAM it needs becomes part of the plan,
// and of the answer to "how big must my RAM be?".
#pragma once

#include <cstdint>

#include "tir/prim_func.h"

namespace loupe::tir {

inline constexpr std::int64_t kScratchMinBytes = 64;
// Offsets in the scratch region are multiples of this (int64 and float access).
inline constexpr std::int64_t kScratchAlignment = 8;

void liftScratchBuffers(PrimFunc& func, std::int64_t minBytes = kScratchMinBytes);

std::int64_t bufferBytes(const Buffer& buffer);

}  // namespace loupe::tir
