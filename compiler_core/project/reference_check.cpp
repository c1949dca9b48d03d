#include "project/reference_check.h"

#include <span>

#include "reference/reference_interpreter.h"

namespace loupe::project {

namespace {

// Empty when equal.
std::string describeDifference(std::size_t index, std::span<const std::uint8_t> board,
                               std::span<const std::uint8_t> reference) {
  if (board.size() != reference.size()) {
    return "output " + std::to_string(index) + " has " + std::to_string(board.size()) +
           " bytes, the reference " + std::to_string(reference.size());
  }
  std::size_t differing = 0, first = 0;
  for (std::size_t i = board.size(); i-- > 0;) {
    if (board[i] != reference[i]) {
      ++differing;
      first = i;
    }
  }
  if (differing == 0) return {};
  return "output " + std::to_string(index) +
         " differs from the reference: " + std::to_string(differing) + " of " +
         std::to_string(board.size()) + " bytes (first at byte " + std::to_string(first) + ": " +
         std::to_string(board[first]) + " vs " + std::to_string(reference[first]) + ")";
}

}  // namespace

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
    check.message = describeDifference(i, outputs[i], interpreter.output(i));
    check.agrees = check.message.empty();
    if (check.agrees) {
      check.message =
          "output " + std::to_string(i) + " agrees with the reference interpreter (bit-exact)";
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace loupe::project
