// How far an operator function's output may start inside one of its inputs
// when that input dies with it: the function's TIR is run over indices only,
// in the order the generated C runs it, and every store to the output and
// every load from the input is seen. While the output's writes never pass
// the input bytes still to be read, the two may share memory; the lag is the
// least distance the output must start before the input for that to hold.
//
// The trace is exact for the loops it can follow: indices made of loop
// variables, immediates and constant tables, and the convolution pixel
// kernels whose extents are known (taken as writing before reading). A load
// whose index depends on the data, a branch or loop condition that does, or
// any other call handed a pointer into the input or the output makes the
// access pattern unknown, and then the function may not overlap at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tir/prim_func.h"

namespace loupe::tir {

struct OutputOverlap {
  bool known = false;
  std::string why;  // when !known: what the trace could not follow
  // The output may start at (input start - lagBytes) or lower: at that
  // distance no store lands on an input byte a later load reads.
  std::int64_t lagBytes = 0;
  // The output may start at (input start + leadBytes) or higher: its
  // stores stay above every input byte a later load reads - what a function
  // running its loops backwards allows. Unknown when a kernel's reads have
  // no known highest byte.
  std::optional<std::int64_t> leadBytes;
  std::int64_t events = 0;  // loads and stores traced
};

// `input` and `output` index f.params. `eventLimit` bounds the work: a
// function with more loads and stores is reported unknown ("too long").
OutputOverlap traceOutputOverlap(const PrimFunc& f, std::size_t input, std::size_t output,
                                 std::int64_t eventLimit = 50'000'000);

}  // namespace loupe::tir
