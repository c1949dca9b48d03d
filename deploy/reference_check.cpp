#include "deploy/reference_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>

#include "reference/reference_interpreter.h"

namespace loupe::deploy {

namespace {

// The metrics of output `index` against `expected`, where both have the
// tensor's size.
std::optional<ValidationMetrics> metricsOf(const ir::Graph& graph, std::size_t index,
                                           std::span<const std::uint8_t> actual,
                                           std::span<const std::uint8_t> expected) {
  if (index >= graph.outputs.size()) return std::nullopt;
  const ir::Tensor& tensor = graph.tensor(graph.outputs[index]);
  const auto size = static_cast<std::size_t>(tensor.byteSize());
  if (actual.size() != size || expected.size() != size) return std::nullopt;
  return compareTensorValues(tensor, expected, actual);
}

// Empty when equal; `other` names what the board is compared with.
std::string describeDifference(std::size_t index, std::span<const std::uint8_t> board,
                               std::span<const std::uint8_t> reference, const std::string& other) {
  if (board.size() != reference.size()) {
    return "output " + std::to_string(index) + " has " + std::to_string(board.size()) + " bytes, " +
           other + " " + std::to_string(reference.size());
  }
  std::size_t differing = 0, first = 0;
  for (std::size_t i = board.size(); i-- > 0;) {
    if (board[i] != reference[i]) {
      ++differing;
      first = i;
    }
  }
  if (differing == 0) return {};
  return "output " + std::to_string(index) + " differs from " + other + ": " +
         std::to_string(differing) + " of " + std::to_string(board.size()) +
         " bytes (first at byte " + std::to_string(first) + ": " + std::to_string(board[first]) +
         " vs " + std::to_string(reference[first]) + ")";
}

// float32 elements of two buffers of the same size, element by element.
struct FloatComparison {
  std::size_t elements = 0;
  std::size_t differing = 0;    // elements whose bits differ
  std::size_t beyond = 0;       // ... by more than the tolerance (or NaN/infinity against another)
  std::uint32_t worstUlps = 0;  // over the elements that are both finite
  std::optional<double> maxRelativeError;  // |board - other| / |other|, over finite other != 0
  std::size_t otherNans = 0;               // a NaN against a NaN of other bits (sign, payload)
  std::size_t signedZeros = 0;             // -0 against +0
  std::size_t nonFinite = 0;               // a NaN or an infinity against another value
  std::optional<std::size_t> firstBeyond;
  float firstBoard = 0, firstOther = 0;
};

FloatComparison compareFloats(std::span<const std::uint8_t> board,
                              std::span<const std::uint8_t> other, std::uint32_t tolerance) {
  FloatComparison c;
  c.elements = board.size() / 4;
  for (std::size_t i = 0; i < c.elements; ++i) {
    float a, b;
    std::memcpy(&a, board.data() + 4 * i, 4);
    std::memcpy(&b, other.data() + 4 * i, 4);
    if (std::memcmp(&a, &b, 4) == 0) continue;
    ++c.differing;
    bool within;
    if (std::isnan(a) && std::isnan(b)) {
      // Cores differ in the NaN they make (x86's default NaN is negative,
      // Arm's positive); both say "not a number".
      ++c.otherNans;
      within = true;
    } else if (!std::isfinite(a) || !std::isfinite(b)) {
      // A NaN or an infinity against anything else: ulpDistance would put
      // infinity one step from FLT_MAX and a signalling NaN one from infinity.
      ++c.nonFinite;
      within = false;
    } else {
      const std::uint32_t distance = ulpDistance(a, b);
      c.worstUlps = std::max(c.worstUlps, distance);
      if (a == b) ++c.signedZeros;
      if (b != 0) {
        const double relative =
            std::abs(static_cast<double>(a) - static_cast<double>(b)) / std::abs(b);
        c.maxRelativeError = std::max(c.maxRelativeError.value_or(0.0), relative);
      }
      within = distance <= tolerance;
    }
    if (!within && c.beyond++ == 0) {
      c.firstBeyond = i;
      c.firstBoard = a;
      c.firstOther = b;
    }
  }
  return c;
}

// Two significant digits: "2.1e-07".
std::string relativeErrorText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", value);
  return text;
}

// Enough digits to tell neighbouring floats apart: "4.32160141e-06".
std::string floatText(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
  return text;
}

// "2 of 40 elements differ, max relative error 2.1e-07, 1 NaN of other
// bits": what made an agreeing output not bit-exact.
std::string agreementDetail(const FloatComparison& c) {
  std::string text = std::to_string(c.differing) + " of " + std::to_string(c.elements) +
                     (c.elements == 1 ? " element differs" : " elements differ");
  if (c.maxRelativeError) text += ", max relative error " + relativeErrorText(*c.maxRelativeError);
  if (c.signedZeros > 0) {
    text += ", " + std::to_string(c.signedZeros) + " zero" + (c.signedZeros == 1 ? "" : "s") +
            " of the other sign";
  }
  if (c.otherNans > 0) {
    text += ", " + std::to_string(c.otherNans) + " NaN" + (c.otherNans == 1 ? "" : "s") +
            " of other bits";
  }
  return text;
}

// "(worst 120 ulp, max relative error 1.4e-05; first at element 3:
// 0.250001 vs 0.25)": where an output beyond the tolerance is off.
std::string differenceDetail(const FloatComparison& c) {
  std::string text = "(";
  if (c.differing > c.nonFinite + c.otherNans)
    text += "worst " + std::to_string(c.worstUlps) + " ulp";
  if (c.maxRelativeError) text += ", max relative error " + relativeErrorText(*c.maxRelativeError);
  if (c.nonFinite > 0) {
    text += std::string(text.size() > 1 ? ", " : "") + std::to_string(c.nonFinite) +
            " NaN or infinite against another value";
  }
  return text + "; first at element " + std::to_string(*c.firstBeyond) + ": " +
         floatText(c.firstBoard) + " vs " + floatText(c.firstOther) + ")";
}

bool isFloatOutput(const ir::Graph& graph, std::size_t index) {
  return index < graph.outputs.size() &&
         graph.tensor(graph.outputs[index]).dtype == ir::DType::Float32;
}

}  // namespace

bool float32Agree(std::span<const std::uint8_t> actual, std::span<const std::uint8_t> expected,
                  std::uint32_t tolerance) {
  return actual.size() == expected.size() && actual.size() % 4 == 0 &&
         compareFloats(actual, expected, tolerance).beyond == 0;
}

std::uint32_t ulpDistance(float a, float b) {
  // Sign-magnitude bits to a monotonic integer line, so adjacent floats are 1 apart.
  std::int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = std::numeric_limits<std::int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int32_t>::min() - ib;
  return static_cast<std::uint32_t>(std::abs(static_cast<std::int64_t>(ia) - ib));
}

std::vector<OutputCheck> checkAgainstGolden(const ir::Graph& graph,
                                            const std::vector<std::vector<std::uint8_t>>& outputs,
                                            const std::vector<std::vector<std::uint8_t>>& golden) {
  std::vector<OutputCheck> checks;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    OutputCheck check;
    check.index = i;
    check.against = CheckedAgainst::Golden;
    const std::span<const std::uint8_t> expected = i < golden.size()
                                                       ? std::span<const std::uint8_t>(golden[i])
                                                       : std::span<const std::uint8_t>();
    const std::string output = "output " + std::to_string(i);
    check.metrics = metricsOf(graph, i, outputs[i], expected);
    if (isFloatOutput(graph, i) && outputs[i].size() == expected.size()) {
      const FloatComparison c = compareFloats(outputs[i], expected, kMaxFloatUlps);
      check.bitExact = c.differing == 0;
      check.agrees = c.beyond == 0;
      if (check.bitExact) {
        check.message = output + " equals TFLite's (bit-exact)";
      } else if (check.agrees) {
        check.message = output + " is within " + std::to_string(c.worstUlps) + " ulp of TFLite's";
      } else {
        check.message = output + " differs from TFLite's by more than " +
                        std::to_string(kMaxFloatUlps) + " ulp in " + std::to_string(c.beyond) +
                        " of " + std::to_string(c.elements) + " elements " + differenceDetail(c);
      }
    } else {
      check.message = describeDifference(i, outputs[i], expected, "TFLite's output");
      check.agrees = check.bitExact = check.message.empty();
      if (check.agrees) check.message = output + " equals TFLite's (bit-exact)";
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

std::vector<OutputCheck> checkAgainstReference(
    const ir::Graph& graph, const std::vector<std::vector<std::uint8_t>>& inputs,
    const std::vector<std::vector<std::uint8_t>>& outputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  std::vector<OutputCheck> checks;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    OutputCheck check;
    check.index = i;
    const std::span<const std::uint8_t> expected = interpreter.output(i);
    const std::string output = "output " + std::to_string(i);
    check.metrics = metricsOf(graph, i, outputs[i], expected);
    check.message = describeDifference(i, outputs[i], expected, "the reference");
    check.agrees = check.bitExact = check.message.empty();
    if (!check.agrees && isFloatOutput(graph, i) && outputs[i].size() == expected.size()) {
      const FloatComparison c = compareFloats(outputs[i], expected, kMaxReferenceUlps);
      check.agrees = c.beyond == 0;
      if (check.agrees) {
        check.message = output + " agrees with the reference interpreter within " +
                        std::to_string(c.worstUlps) + " ulp (" + agreementDetail(c) + ")";
      } else {
        check.message = output + " differs from the reference: " + std::to_string(c.beyond) +
                        " of " + std::to_string(c.elements) + " elements by more than " +
                        std::to_string(kMaxReferenceUlps) + " ulp " + differenceDetail(c);
      }
    }
    if (check.bitExact)
      check.message = output + " agrees with the reference interpreter (bit-exact)";
    checks.push_back(std::move(check));
  }
  return checks;
}

std::string referenceVerdict(const std::vector<OutputCheck>& checks) {
  bool bitExact = true;
  for (const OutputCheck& check : checks) {
    if (!check.agrees) return {};
    if (check.against == CheckedAgainst::Reference) bitExact = bitExact && check.bitExact;
  }
  return bitExact ? "outputs agree with the reference interpreter (bit-exact)"
                  : "outputs agree with the reference interpreter within " +
                        std::to_string(kMaxReferenceUlps) + " ulp (float32, not bit-exact)";
}

}  // namespace loupe::deploy
