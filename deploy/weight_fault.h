// A fault on purpose, for the tests and demos of the debug run: one byte of
// one operator's weights changed in the model a board is built from, while
// the reference interpreter keeps the model as it was. The debug run must
// then name that operator as the first whose output differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::deploy {

struct WeightFault {
  int operatorIndex = -1;
  int tensor = -1;  // the constant changed: the operator's largest constant input
  std::size_t byte = 0;
  std::uint8_t before = 0;
  std::uint8_t after = 0;
  bool changesOutputs = false;  // the operator's outputs differ for the run's inputs

  // "byte 288 of tensor 8 (a constant of operator 3 DEPTHWISE_CONV_2D)
  // changed from 0x41 to 0x1b on the board".
  std::string describe(const ir::Graph& model) const;
};

// Changes one byte of operator `operatorIndex`'s constant inputs (new
// bytes: copies of the graph that share the old ones keep them): the first,
// from the middle of the largest constant on, whose change alters the
// operator's outputs for `inputs` on the reference interpreter, since a
// weight that meets only zeros (a dead channel, an SVDF's empty memory)
// changes nothing a debug run could find. After 64 bytes that change
// nothing, the middle byte (changed: false). Throws std::invalid_argument
// for an operator the model does not have or one without constant inputs.
WeightFault corruptWeights(ir::Graph& model, int operatorIndex,
                           const std::vector<std::vector<std::uint8_t>>& inputs);

}  // namespace loupe::deploy
