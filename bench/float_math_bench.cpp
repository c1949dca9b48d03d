// Loupe's float functions (runtime_core/crt/include/loupe/loupe_libm.h)
// against this machine's C library over every float32 input: per function,
// how many results differ from glibc's bit for bit (two NaNs count as equal),
// the largest difference in ulp and a few inputs that differ. Run by hand:
//   cmake --build build/release --target loupe_float_math_bench
//   build/release/bench/loupe_float_math_bench [--stride N] [FUNCTION ...]
// --stride N checks every Nth input only (a quick look; the table in the
// README is from the full run).
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "libm_functions.h"

namespace {

using FloatFunction = loupe::test::LibmFunction;
const auto& kFunctions = loupe::test::kLibmFunctions;

constexpr std::size_t kExamples = 4;

struct Tally {
  std::uint64_t checked = 0;
  std::uint64_t differing = 0;
  std::uint64_t nanMismatches = 0;  // one result NaN, the other not
  std::uint64_t maxUlp = 0;
  std::vector<std::uint32_t> examples;
};

// Float bits on a line where neighbours differ by 1 (-0 and +0 both 0).
std::int64_t orderedBits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto magnitude = static_cast<std::int64_t>(bits & 0x7fffffffu);
  return (bits & 0x80000000u) ? -magnitude : magnitude;
}

void compareRange(const FloatFunction& function, std::uint64_t begin, std::uint64_t end,
                  std::uint64_t stride, Tally& tally) {
  for (std::uint64_t input = begin; input < end; input += stride) {
    float x = 0;
    const auto bits = static_cast<std::uint32_t>(input);
    std::memcpy(&x, &bits, sizeof x);
    const float ours = function.loupe(x);
    const float theirs = function.library(x);
    ++tally.checked;
    const bool oursNan = std::isnan(ours);
    const bool theirsNan = std::isnan(theirs);
    if (oursNan && theirsNan) continue;
    if (std::memcmp(&ours, &theirs, sizeof ours) == 0) continue;
    ++tally.differing;
    if (tally.examples.size() < kExamples) tally.examples.push_back(bits);
    if (oursNan != theirsNan) {
      ++tally.nanMismatches;
      continue;
    }
    const std::int64_t distance = orderedBits(ours) - orderedBits(theirs);
    tally.maxUlp = std::max(tally.maxUlp, static_cast<std::uint64_t>(std::llabs(distance)));
  }
}

Tally compareAll(const FloatFunction& function, std::uint64_t stride, unsigned threads) {
  const std::uint64_t total = std::uint64_t{1} << 32;
  // Interleaved blocks, so both threads meet the slow inputs alike.
  const std::uint64_t block = std::uint64_t{1} << 20;
  std::vector<Tally> tallies(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (std::uint64_t start = t * block; start < total; start += threads * block) {
        // The first input of the block on the stride's grid.
        const std::uint64_t first = (start + stride - 1) / stride * stride;
        compareRange(function, first, start + block, stride, tallies[t]);
      }
    });
  }
  for (auto& worker : workers) worker.join();
  Tally sum;
  for (const Tally& tally : tallies) {
    sum.checked += tally.checked;
    sum.differing += tally.differing;
    sum.nanMismatches += tally.nanMismatches;
    sum.maxUlp = std::max(sum.maxUlp, tally.maxUlp);
    for (std::uint32_t example : tally.examples) {
      if (sum.examples.size() < kExamples) sum.examples.push_back(example);
    }
  }
  std::sort(sum.examples.begin(), sum.examples.end());
  return sum;
}

std::string exampleText(const FloatFunction& function, std::uint32_t bits) {
  float x = 0;
  std::memcpy(&x, &bits, sizeof x);
  char text[160];
  std::snprintf(text, sizeof text, "%a (0x%08" PRIx32 "): %a vs %a", static_cast<double>(x), bits,
                static_cast<double>(function.loupe(x)), static_cast<double>(function.library(x)));
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t stride = 1;
  std::vector<std::string> selected;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--stride" && i + 1 < argc) {
      stride = std::max<std::uint64_t>(1, std::strtoull(argv[++i], nullptr, 10));
    } else {
      selected.push_back(argument);
    }
  }
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
  std::printf("Loupe's float functions against the C library, %s float32 inputs (stride %" PRIu64
              ", %u threads)\n\n",
              stride == 1 ? "all 2^32" : "a grid of", stride, threads);
  std::printf("| function | inputs checked | differ | of which NaN vs number | max ulp |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  std::vector<std::string> exampleLines;
  for (const FloatFunction& function : kFunctions) {
    if (!selected.empty() &&
        std::find(selected.begin(), selected.end(), function.name) == selected.end()) {
      continue;
    }
    const Tally tally = compareAll(function, stride, threads);
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n", function.name,
                tally.checked, tally.differing, tally.nanMismatches, tally.maxUlp);
    std::fflush(stdout);
    for (std::uint32_t bits : tally.examples) {
      exampleLines.push_back(std::string(function.name) + "(" + exampleText(function, bits) + ")");
    }
  }
  if (!exampleLines.empty()) {
    std::printf("\nInputs that differ (ours vs the C library):\n");
    for (const std::string& line : exampleLines) std::printf("  %s\n", line.c_str());
  }
  return 0;
}
