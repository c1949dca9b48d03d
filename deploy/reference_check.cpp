#include "deploy/reference_check.h"

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

// Empty when within kMaxFloatUlps everywhere; *worst gets the largest distance.
std::string describeFloatDifference(std::size_t index, std::span<const std::uint8_t> board,
                                    std::span<const std::uint8_t> golden, std::uint32_t* worst) {
  *worst = 0;
  std::size_t differing = 0, first = 0;
  float firstBoard = 0, firstGolden = 0;
  for (std::size_t i = 0; i + 4 <= board.size(); i += 4) {
    float a, b;
    std::memcpy(&a, board.data() + i, 4);
    std::memcpy(&b, golden.data() + i, 4);
    const std::uint32_t distance = ulpDistance(a, b);
    if (distance <= kMaxFloatUlps) {
      *worst = std::max(*worst, distance);
    } else if (differing++ == 0) {
      first = i / 4;
      firstBoard = a;
      firstGolden = b;
    }
  }
  if (differing == 0) return {};
  return "output " + std::to_string(index) + " differs from TFLite's by more than " +
         std::to_string(kMaxFloatUlps) + " ulp in " + std::to_string(differing) + " of " +
         std::to_string(board.size() / 4) + " elements (first at element " + std::to_string(first) +
         ": " + std::to_string(firstBoard) + " vs " + std::to_string(firstGolden) + ")";
}

}  // namespace

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
    const std::span<const std::uint8_t> expected = i < golden.size()
                                                       ? std::span<const std::uint8_t>(golden[i])
                                                       : std::span<const std::uint8_t>();
    const bool isFloat =
        i < graph.outputs.size() && graph.tensor(graph.outputs[i]).dtype == ir::DType::Float32;
    std::uint32_t worst = 0;
    if (isFloat && outputs[i].size() == expected.size()) {
      check.message = describeFloatDifference(i, outputs[i], expected, &worst);
    } else {
      check.message = describeDifference(i, outputs[i], expected, "TFLite's output");
    }
    check.agrees = check.message.empty();
    check.metrics = metricsOf(graph, i, outputs[i], expected);
    if (check.agrees) {
      check.message = "output " + std::to_string(i) +
                      (worst == 0 ? " equals TFLite's (bit-exact)"
                                  : " is within " + std::to_string(worst) + " ulp of TFLite's");
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
    check.message = describeDifference(i, outputs[i], interpreter.output(i), "the reference");
    check.agrees = check.message.empty();
    check.metrics = metricsOf(graph, i, outputs[i], interpreter.output(i));
    if (check.agrees) {
      check.message =
          "output " + std::to_string(i) + " agrees with the reference interpreter (bit-exact)";
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace loupe::deploy
