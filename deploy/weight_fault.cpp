#include "deploy/weight_fault.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "reference/reference_interpreter.h"

namespace loupe::deploy {

namespace {

std::string hexByte(std::uint8_t value) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", value);
  return text;
}

}  // namespace

std::string WeightFault::describe(const ir::Graph& model) const {
  const ir::Operator& op = model.operators.at(static_cast<std::size_t>(operatorIndex));
  return "byte " + std::to_string(byte) + " of tensor " + std::to_string(tensor) +
         " (a constant of operator " + std::to_string(operatorIndex) + " " + op.typeName() +
         ") changed from " + hexByte(before) + " to " + hexByte(after) + " on the board" +
         (changesOutputs ? "" : " (no byte tried changes its outputs for these inputs)");
}

namespace {

// The operator's outputs after a reference run of `model` on `inputs`.
std::vector<std::vector<std::uint8_t>> operatorOutputs(
    const ir::Graph& model, const ir::Operator& op,
    const std::vector<std::vector<std::uint8_t>>& inputs) {
  reference::ReferenceInterpreter interpreter(model);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  std::vector<std::vector<std::uint8_t>> outputs;
  for (int t : op.outputs) {
    const auto bytes = interpreter.tensorBytes(t);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

}  // namespace

WeightFault corruptWeights(ir::Graph& model, int operatorIndex,
                           const std::vector<std::vector<std::uint8_t>>& inputs) {
  if (operatorIndex < 0 || static_cast<std::size_t>(operatorIndex) >= model.operators.size()) {
    throw std::invalid_argument("the model has no operator " + std::to_string(operatorIndex) +
                                " (it has " + std::to_string(model.operators.size()) + ")");
  }
  const ir::Operator op = model.operators[static_cast<std::size_t>(operatorIndex)];
  // Constant inputs, largest first.
  std::vector<int> constants;
  for (int input : op.inputs) {
    if (input != ir::kNoTensor && model.tensor(input).isConstant &&
        !model.tensor(input).data.empty() &&
        std::find(constants.begin(), constants.end(), input) == constants.end()) {
      constants.push_back(input);
    }
  }
  if (constants.empty()) {
    throw std::invalid_argument("operator " + std::to_string(operatorIndex) + " (" + op.typeName() +
                                ") has no constant input to corrupt");
  }
  std::stable_sort(constants.begin(), constants.end(), [&](int a, int b) {
    return model.tensor(a).data.size() > model.tensor(b).data.size();
  });
  const auto clean = operatorOutputs(model, op, inputs);
  const auto change = [&model](int tensor, std::size_t byte) {
    WeightFault fault;
    fault.tensor = tensor;
    fault.byte = byte;
    std::vector<std::uint8_t> bytes = model.tensor(tensor).data.bytes();
    fault.before = bytes[byte];
    // Every bit but the sign's: a large change in any int8 or float weight.
    fault.after = static_cast<std::uint8_t>(fault.before ^ 0x5A);
    bytes[byte] = fault.after;
    model.tensor(tensor).data = ir::ConstantBytes(std::move(bytes));
    return fault;
  };
  constexpr int kTries = 64;
  int tries = 0;
  for (int tensor : constants) {
    const ir::ConstantBytes kept = model.tensor(tensor).data;
    const std::size_t size = kept.size();
    for (std::size_t step = 0; step < size && tries < kTries; ++step, ++tries) {
      // The middle, then outwards spread over the whole constant.
      const std::size_t byte = (size / 2 + step * (size / kTries + 1)) % size;
      WeightFault fault = change(tensor, byte);
      if (operatorOutputs(model, op, inputs) != clean) {
        fault.operatorIndex = operatorIndex;
        fault.changesOutputs = true;
        return fault;
      }
      model.tensor(tensor).data = kept;
    }
  }
  WeightFault fault = change(constants.front(), model.tensor(constants.front()).data.size() / 2);
  fault.operatorIndex = operatorIndex;
  return fault;
}

}  // namespace loupe::deploy
