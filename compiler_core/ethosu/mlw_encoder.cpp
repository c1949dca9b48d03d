#include "ethosu/mlw_encoder.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace loupe::ethosu {

namespace {

// Header fields (the decoder's names in loupe/ethosu/ethosu_weights.c).
constexpr std::uint32_t kZeroRunsDisabled = 6;  // z_div
constexpr std::uint32_t kEndOfStream = 7;       // z_div
constexpr int kUncompressed = 7;                // w_div
constexpr int kChunkSlots = 12;                 // unary slots per chunk
constexpr int kMaxPalette = 32;
constexpr int kMaxIndex = 511;        // indices are 9 bits
constexpr int kMaxDirectOffset = 31;  // 5 bits
constexpr int kMaxGolombDivisor = 5;
constexpr int kMaxZeroDivisor = 3;
constexpr int kSliceHeaderBits = 3 + 15 + 3 + 1 + 1 + 5 + 5 + 3;  // with a new palette
constexpr std::size_t kStreamAlignment = 16;

class BitWriter {
 public:
  // The low `bits` bits of `value`, least significant first.
  void put(std::uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i) {
      if (position_ % 8 == 0) bytes_.push_back(0);
      bytes_.back() =
          static_cast<std::uint8_t>(bytes_.back() | (((value >> i) & 1u) << (position_ % 8)));
      ++position_;
    }
  }
  // Ones up to the next byte, then 0xff bytes up to `alignment`.
  void padWithOnes(std::size_t alignment) {
    put(0xffu, static_cast<int>((8 - position_ % 8) % 8));
    while (bytes_.size() % alignment != 0) put(0xffu, 8);
  }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint64_t position_ = 0;
};

// What the format stores for a value: its magnitude doubled, the sign in
// bit 0 (-1 -> 3, 1 -> 2).
int storedValue(int value) {
  return (std::abs(value) << 1) | (value < 0 ? 1 : 0);
}

int bitsFor(int largest) {
  int bits = 0;
  while ((1 << bits) <= largest) ++bits;
  return bits;
}

// How one slice is coded.
struct SliceCode {
  std::vector<int> palette;  // stored values, most frequent first (none, or 2-32)
  int directOffset = 0;      // what index `palette.size()` stands for
  int paletteBits = 2;       // a palette entry's width; without a palette, the
                             // fixed width of an uncompressed index (2-9)
  int weightDivisor = 0;     // Golomb-Rice remainder bits (0-5), or kUncompressed
  bool truncated = false;    // every quotient is 0-2 and takes one slot
  std::vector<int> indices;  // one per weight (with zero runs: per non-zero value)
  // With zero runs: the zeros before the first weight and after each one,
  // in Golomb-Rice code with zeroDivisor remainder bits (0-3).
  bool zeroRuns = false;
  int zeroDivisor = 0;
  std::vector<int> runs;
  std::uint64_t bits = std::numeric_limits<std::uint64_t>::max();  // estimated
};

// The width of an uncompressed index, as the decoder derives it.
int uncompressedWidth(const SliceCode& code) {
  if (code.palette.empty()) return code.paletteBits;
  int bits = 0;
  while ((std::size_t{1} << bits) < code.palette.size()) ++bits;
  return bits;
}

// The bits of the indices in Golomb-Rice code with `divisor` remainder
// bits: slots of 12 per chunk, one unary bit per slot and a second for each
// slot that is not 0, then the remainders.
std::uint64_t golombBits(const std::vector<int>& indices, int divisor, bool truncated) {
  std::uint64_t slots = 0, secondBits = 0;
  for (const int index : indices) {
    const int quotient = index >> divisor;
    if (truncated) {
      slots += 1;
      secondBits += quotient > 0 ? 1 : 0;
    } else {
      slots += static_cast<std::uint64_t>(quotient / 2 + 1);
      secondBits += static_cast<std::uint64_t>(quotient / 2 + quotient % 2);
    }
  }
  const std::uint64_t chunks = (slots + kChunkSlots - 1) / kChunkSlots;
  return chunks * kChunkSlots + secondBits + indices.size() * static_cast<std::uint64_t>(divisor);
}

// Zero runs in plain unary quotients (ones, then a zero) and remainders.
std::uint64_t zeroRunBits(const std::vector<int>& runs, int divisor) {
  std::uint64_t bits = 0;
  for (const int run : runs) bits += static_cast<std::uint64_t>((run >> divisor) + 1 + divisor);
  return bits;
}

// The shortest code of the weights `stored` with the first `paletteSize` of
// `byFrequency` as the palette, or nothing when an index would not fit 9 bits.
std::optional<SliceCode> codeWithPalette(std::span<const int> stored,
                                         const std::vector<int>& byFrequency,
                                         std::size_t paletteSize) {
  SliceCode code;
  code.palette.assign(byFrequency.begin(),
                      byFrequency.begin() + static_cast<std::ptrdiff_t>(paletteSize));
  if (code.palette.size() == 1) {
    // A palette of one entry cannot be said: add a value the slice does not use.
    int unused = 0;
    while (unused == code.palette.front()) ++unused;
    code.palette.push_back(unused);
  }
  std::array<int, kMaxIndex + 1> paletteIndex;
  paletteIndex.fill(-1);
  for (std::size_t i = 0; i < code.palette.size(); ++i) {
    paletteIndex[static_cast<std::size_t>(code.palette[i])] = static_cast<int>(i);
  }
  int smallestDirect = kMaxDirectOffset, largestDirect = -1;
  for (const int value : stored) {
    if (paletteIndex[static_cast<std::size_t>(value)] < 0) {
      smallestDirect = std::min(smallestDirect, value);
      largestDirect = std::max(largestDirect, value);
    }
  }
  code.directOffset = largestDirect < 0 ? 0 : smallestDirect;
  const int paletteCount = static_cast<int>(code.palette.size());
  if (largestDirect >= 0 && paletteCount + largestDirect - code.directOffset > kMaxIndex) {
    return std::nullopt;
  }
  code.indices.reserve(stored.size());
  int largestIndex = 0;
  for (const int value : stored) {
    const int inPalette = paletteIndex[static_cast<std::size_t>(value)];
    const int index = inPalette >= 0 ? inPalette : paletteCount + value - code.directOffset;
    code.indices.push_back(index);
    largestIndex = std::max(largestIndex, index);
  }
  const int largestEntry =
      code.palette.empty() ? 0 : *std::max_element(code.palette.begin(), code.palette.end());
  code.paletteBits = std::max(2, bitsFor(code.palette.empty() ? largestIndex : largestEntry));
  const std::uint64_t header =
      kSliceHeaderBits + code.palette.size() * static_cast<std::uint64_t>(code.paletteBits);

  // Golomb-Rice with every divisor (truncated where the quotients allow).
  for (int divisor = 0; divisor <= kMaxGolombDivisor; ++divisor) {
    const bool truncatable = (largestIndex >> divisor) <= 2;
    for (const bool truncated : {false, true}) {
      if (truncated && !truncatable) continue;
      const std::uint64_t bits = header + golombBits(code.indices, divisor, truncated);
      if (bits < code.bits) {
        code.bits = bits;
        code.weightDivisor = divisor;
        code.truncated = truncated;
      }
    }
  }
  // Fixed width: without a palette, or when every value is in it.
  const int width = uncompressedWidth(code);
  if (largestIndex < (1 << width)) {
    const std::uint64_t bits = header + code.indices.size() * static_cast<std::uint64_t>(width);
    if (bits < code.bits) {
      code.bits = bits;
      code.weightDivisor = kUncompressed;
      code.truncated = false;
    }
  }
  return code;
}

// The values of `stored` from the most frequent down.
std::vector<int> byFrequencyOf(std::span<const int> stored) {
  std::array<std::uint32_t, kMaxIndex + 1> counts{};
  for (const int value : stored) ++counts[static_cast<std::size_t>(value)];
  std::vector<int> values;
  for (int value = 0; value <= kMaxIndex; ++value) {
    if (counts[static_cast<std::size_t>(value)] > 0) values.push_back(value);
  }
  std::stable_sort(values.begin(), values.end(), [&counts](int a, int b) {
    return counts[static_cast<std::size_t>(a)] > counts[static_cast<std::size_t>(b)];
  });
  return values;
}

// The shortest code of `weights` over the palette sizes worth trying.
SliceCode shortestWeightCode(std::span<const int> weights) {
  const std::vector<int> byFrequency = byFrequencyOf(weights);
  SliceCode best;
  const std::size_t largest = std::min<std::size_t>(kMaxPalette, byFrequency.size());
  for (std::size_t size :
       {std::size_t{0}, std::size_t{2}, std::size_t{4}, std::size_t{8}, std::size_t{16}, largest}) {
    if (size > largest) continue;
    std::optional<SliceCode> code = codeWithPalette(weights, byFrequency, size);
    if (code && code->bits < best.bits) best = std::move(*code);
  }
  return best;  // the empty palette always fits 9 bits
}

// The shorter of coding every value as a weight and coding the non-zero
// values as weights with the zeros between them as runs.
SliceCode shortestCode(std::span<const int> stored) {
  SliceCode plain = shortestWeightCode(stored);
  std::vector<int> weights, runs{0};
  for (const int value : stored) {
    if (value == 0) {
      ++runs.back();
    } else {
      weights.push_back(value);
      runs.push_back(0);
    }
  }
  if (weights.empty()) {  // zeros only: the first as a weight, the rest its run
    weights = {0};
    runs = {0, static_cast<int>(stored.size()) - 1};
  }
  SliceCode withRuns = shortestWeightCode(weights);
  std::uint64_t runBits = std::numeric_limits<std::uint64_t>::max();
  for (int divisor = 0; divisor <= kMaxZeroDivisor; ++divisor) {
    const std::uint64_t bits = zeroRunBits(runs, divisor);
    if (bits < runBits) {
      runBits = bits;
      withRuns.zeroDivisor = divisor;
    }
  }
  withRuns.bits += runBits;
  withRuns.zeroRuns = true;
  withRuns.runs = std::move(runs);
  return withRuns.bits < plain.bits ? withRuns : plain;
}

void writeSliceHeader(BitWriter& out, const SliceCode& code) {
  out.put(code.zeroRuns ? static_cast<std::uint32_t>(code.zeroDivisor) : kZeroRunsDisabled, 3);
  out.put(static_cast<std::uint32_t>(code.indices.size() - 1), 15);
  out.put(static_cast<std::uint32_t>(code.weightDivisor), 3);
  out.put(code.truncated ? 1u : 0u, 1);
  out.put(1u, 1);  // a new palette: every slice stands alone
  out.put(static_cast<std::uint32_t>(code.directOffset), 5);
  out.put(code.palette.empty() ? 0u : static_cast<std::uint32_t>(code.palette.size() - 1), 5);
  out.put(static_cast<std::uint32_t>(code.paletteBits - 2), 3);
  for (const int entry : code.palette) {
    out.put(static_cast<std::uint32_t>(entry), code.paletteBits);
  }
}

// A symbol stream cut into chunks: each step is one unary slot (a weight's
// 0, 1 or 2; a zero run's bit) and the symbol it ends, if any (-1: none, or
// padding past the end).
struct Step {
  int code;
  int ended;
};

class StepQueue {
 public:
  explicit StepQueue(std::vector<Step> steps) : steps_(std::move(steps)) {}
  // The next `count` steps, padded with steps that end a symbol of nothing.
  std::vector<Step> take(int count) {
    std::vector<Step> taken;
    for (int i = 0; i < count; ++i) {
      taken.push_back(next_ < steps_.size() ? steps_[next_++] : Step{0, -1});
    }
    return taken;
  }

 private:
  std::vector<Step> steps_;
  std::size_t next_ = 0;
};

// The slice's chunks as the decoder reads them (read_chunk in
// loupe/ethosu/ethosu_weights.c), the encoder keeping the same counts of
// ended symbols so that it enables the weight and zero-run parts of each
// chunk exactly when the decoder does: a chunk holds the weights' first
// unary bits, the zero runs' unary bits, the weights' second unary bits,
// then the remainders of the weights and of the runs that ended in the
// chunk before. It ends with a chunk that has remainders only.
void writeSliceValues(BitWriter& out, const SliceCode& code) {
  const bool uncompressed = code.weightDivisor == kUncompressed;
  const int remainderBits = uncompressed ? uncompressedWidth(code) : code.weightDivisor;
  const int weightSlots = uncompressed && remainderBits > 5 ? 8 : kChunkSlots;
  const int runBitsPerChunk = code.zeroDivisor < 3 ? 12 : 8;
  std::vector<Step> weightSteps, runSteps;
  for (int i = 0; i < static_cast<int>(code.indices.size()); ++i) {
    const int quotient =
        uncompressed ? 0 : code.indices[static_cast<std::size_t>(i)] >> code.weightDivisor;
    if (code.truncated) {
      weightSteps.push_back({quotient, i});
      continue;
    }
    for (int twos = quotient / 2; twos > 0; --twos) weightSteps.push_back({2, -1});
    weightSteps.push_back({quotient % 2, i});
  }
  for (int i = 0; i < static_cast<int>(code.runs.size()); ++i) {
    for (int ones = code.runs[static_cast<std::size_t>(i)] >> code.zeroDivisor; ones > 0; --ones) {
      runSteps.push_back({1, -1});
    }
    runSteps.push_back({0, i});
  }
  StepQueue weights(std::move(weightSteps)), runs(std::move(runSteps));
  const int weightCount = static_cast<int>(code.indices.size());
  const int runCount = static_cast<int>(code.runs.size());
  const std::uint32_t weightMask = (1u << remainderBits) - 1u;
  const std::uint32_t runMask = (1u << code.zeroDivisor) - 1u;
  int weightsEnded = 0, runsEnded = 0;  // symbols ended so far, padding included
  std::vector<int> weightsBefore, runsBefore;
  for (;;) {
    const int balance = code.zeroRuns ? weightsEnded - runsEnded : 0;
    const bool weightPart = (balance < 8 || !code.zeroRuns) && weightsEnded < weightCount;
    const bool runPart = balance >= 0 && code.zeroRuns && runsEnded < runCount;
    std::vector<int> weightsNow, runsNow;
    std::vector<Step> weightChunk;
    if (weightPart) {
      weightChunk = weights.take(weightSlots);
      if (!uncompressed) {
        std::uint32_t first = 0;
        for (int s = 0; s < weightSlots; ++s) {
          if (weightChunk[static_cast<std::size_t>(s)].code > 0) first |= 1u << s;
        }
        out.put(first, kChunkSlots);
      }
    }
    if (runPart) {
      const std::vector<Step> runChunk = runs.take(runBitsPerChunk);
      std::uint32_t bits = 0;
      for (int s = 0; s < runBitsPerChunk; ++s) {
        const Step& step = runChunk[static_cast<std::size_t>(s)];
        if (step.code > 0) {
          bits |= 1u << s;
        } else {
          ++runsEnded;
          if (step.ended >= 0) runsNow.push_back(step.ended);
        }
      }
      out.put(bits, runBitsPerChunk);
    }
    if (weightPart) {
      for (const Step& step : weightChunk) {
        if (step.code > 0) out.put(step.code == 2 ? 1u : 0u, 1);
        if (step.code < 2 || code.truncated) {
          ++weightsEnded;
          if (step.ended >= 0) weightsNow.push_back(step.ended);
        }
      }
    }
    for (const int i : weightsBefore) {
      out.put(static_cast<std::uint32_t>(code.indices[static_cast<std::size_t>(i)]) & weightMask,
              remainderBits);
    }
    for (const int i : runsBefore) {
      out.put(static_cast<std::uint32_t>(code.runs[static_cast<std::size_t>(i)]) & runMask,
              code.zeroDivisor);
    }
    if (!weightPart && !runPart) break;
    weightsBefore = std::move(weightsNow);
    runsBefore = std::move(runsNow);
  }
}

}  // namespace

std::vector<std::uint8_t> encodeMlw(std::span<const std::int16_t> values) {
  std::vector<int> stored;
  stored.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < kMlwMinValue || values[i] > kMlwMaxValue) {
      throw std::invalid_argument("weight " + std::to_string(i) + " is " +
                                  std::to_string(values[i]) + ", outside the NPU's -255..255");
    }
    stored.push_back(storedValue(values[i]));
  }
  BitWriter out;
  for (std::size_t start = 0; start < stored.size(); start += kMlwMaxSliceValues) {
    const std::size_t length = std::min<std::size_t>(kMlwMaxSliceValues, stored.size() - start);
    const SliceCode code = shortestCode(std::span<const int>(stored).subspan(start, length));
    writeSliceHeader(out, code);
    writeSliceValues(out, code);
  }
  out.put(kEndOfStream, 3);
  out.padWithOnes(kStreamAlignment);
  return out.take();
}

}  // namespace loupe::ethosu
