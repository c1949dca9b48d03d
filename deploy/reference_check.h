// Whether a board's outputs are right: the reference interpreter's (the
// verdict `loupec run --platform` prints and the GUI's Deploy panel shows),
// integers byte for byte and float32 within kMaxReferenceUlps, and, where a
// golden set gave the inputs, TFLite's own outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "deploy/validation_metrics.h"
#include "ir/graph.h"

namespace loupe::deploy {

// What a board's output was compared with.
enum class CheckedAgainst { Reference, Golden };

struct OutputCheck {
  std::size_t index = 0;
  CheckedAgainst against = CheckedAgainst::Reference;
  // Within the tolerance: bit-exact, or float32 within the ulp limit.
  bool agrees = false;
  // The same bytes: agrees without any tolerance.
  bool bitExact = false;
  // "output 0 agrees with the reference interpreter (bit-exact)", "output 0
  // agrees with the reference interpreter within 3 ulp (2 of 40 elements
  // differ, max relative error 2.1e-07)", or where it differs: "output 0
  // differs from the reference: 3 of 12 bytes (first at byte 4: 17 vs 18)".
  std::string message;
  // How far the board's values are from the expected ones, as loupec
  // validate measures them; empty when the sizes differ.
  std::optional<ValidationMetrics> metrics;
};

// How far a board's float32 output may be from the reference interpreter's
// and still agree with it, in units in the last place of each element. The
// board runs the same C as the reference interpreter with the same float
// functions (loupe/loupe_libm.h), so Loupe's own boards agree bit for bit;
// what can still round differently is a platform's toolchain: a Project API
// board built by a compiler that contracts multiply-adds (clang's default)
// or with -ffast-math, a project that swaps in its C library's expf. Issue
// 46 measured that kind of difference, newlib's expf and tanhf against
// glibc's, through a float LSTM and a SOFTMAX: 10 to 26 ulp.
// 32 ulp keeps such runs green while bounding the relative error of a
// normal number to 32 * 2^-23 (3.8e-06), far below what a real bug (a wrong
// index, operator, constant or activation) does. A NaN agrees only with a
// NaN, an infinity only with itself. Integers have no tolerance.
inline constexpr std::uint32_t kMaxReferenceUlps = 32;

// Runs the reference interpreter on `inputs` (model input order) and compares
// each of `outputs` with its output: integers and other types byte for byte,
// float32 within kMaxReferenceUlps. Beyond the tolerance: "output 0 differs
// from the reference: 2 of 10 elements by more than 32 ulp (worst 120 ulp,
// max relative error 1.4e-05; first at element 3: 0.250001 vs 0.25)".
std::vector<OutputCheck> checkAgainstReference(
    const ir::Graph& graph, const std::vector<std::vector<std::uint8_t>>& inputs,
    const std::vector<std::vector<std::uint8_t>>& outputs);

// What every reference check comes to in one line, for `loupec run`:
// "outputs agree with the reference interpreter (bit-exact)", "... within
// 32 ulp (float32, not bit-exact)", or empty when one of them differs.
std::string referenceVerdict(const std::vector<OutputCheck>& checks);

// float32 results may differ from TFLite's in the last bits (the summation
// order); integer results may not differ at all. (Against the reference
// interpreter the limit is kMaxReferenceUlps.)
inline constexpr std::uint32_t kMaxFloatUlps = 4;

// How many representable float32 values lie between a and b.
std::uint32_t ulpDistance(float a, float b);

// Whether two float32 buffers of the same size agree element by element
// within `tolerance` ulp, as the output checks count it (a NaN agrees with
// any NaN, an infinity only with itself).
bool float32Agree(std::span<const std::uint8_t> actual, std::span<const std::uint8_t> expected,
                  std::uint32_t tolerance);

// Compares each of `outputs` with TFLite's bytes for it (a golden set's
// output<i>.bin): integers exactly, float32 within kMaxFloatUlps. "output 0
// equals TFLite's (bit-exact)", "... within 2 ulp of TFLite's", or where it
// first differs.
std::vector<OutputCheck> checkAgainstGolden(const ir::Graph& graph,
                                            const std::vector<std::vector<std::uint8_t>>& outputs,
                                            const std::vector<std::vector<std::uint8_t>>& golden);

}  // namespace loupe::deploy
